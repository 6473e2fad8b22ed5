"""The teacher's problems page in a real browser (Debian Chromium through Playwright): a teacher
uploads a package zip, sees a hostile zip refused with the reason, and unloads the problem.
Screenshots (paths printed) go under the artifacts folder of ``tests/web/conftest.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.judge.test_problem_upload import package_zip
from tests.web.conftest import screenshot, sign_in

pytestmark = pytest.mark.slow


def test_a_teacher_uploads_and_unloads_a_package_in_the_browser(live_judge, new_page, tmp_path):
    live_judge.add_user("tupl", "teacher")
    good, evil = tmp_path / "archivesum.zip", tmp_path / "evil.zip"
    good.write_bytes(package_zip())
    evil.write_bytes(package_zip(top="../"))
    page = new_page()
    sign_in(page, "tupl")
    page.get_by_role("link", name="Problems", exact=True).click()
    expect(page.locator("main h1")).to_have_text("Problems")

    page.get_by_label("Package zip").set_input_files(str(evil))
    page.get_by_role("button", name="Upload and load").click()
    expect(page.get_by_role("alert")).to_contain_text("zip entry '../problem.yaml'")
    screenshot(page, "teacher-problems-upload-refused")

    page.get_by_label("Package zip").set_input_files(str(good))
    page.get_by_role("button", name="Upload and load").click()
    expect(page.get_by_role("status")).to_contain_text("loaded archivesum (Sum of a list)")
    row = page.get_by_role("row").filter(has_text="archivesum")
    expect(row).to_contain_text("1000 ms")
    screenshot(page, "teacher-problems-uploaded")

    row.get_by_role("button", name="Unload").click()
    expect(page.get_by_role("row").filter(has_text="archivesum")).to_contain_text("unloaded")
    screenshot(page, "teacher-problems-unloaded")
    page.get_by_role("row").filter(has_text="archivesum").get_by_role("button", name="Load again").click()
    expect(page.get_by_role("row").filter(has_text="archivesum")).to_contain_text("loaded")
