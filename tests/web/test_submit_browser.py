"""Submitting in a real browser (Debian Chromium through Playwright) against a real server and worker:
what the problem page tells a student whose submission is refused. Each test saves a screenshot
(path printed)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot, sign_in
from tests.web.test_student_pages_browser import _wait_for_lee_in_practice

pytestmark = pytest.mark.slow


def _student_on_lee(live_judge, new_page, name: str):
    """A page signed in as the new student ``name`` on lee's practice page."""
    live_judge.add_user(name)
    _wait_for_lee_in_practice(live_judge)
    page = new_page()
    sign_in(page, name)
    page.goto("/problems/lee")
    return page


def test_a_file_over_the_body_limit_is_told_on_the_problem_page(live_judge, new_page):
    page = _student_on_lee(live_judge, new_page, "hugo")
    page.locator("#file").set_input_files(
        files=[{"name": "huge.py", "mimeType": "text/x-python", "buffer": b"#" * (2 << 20)}]
    )
    expect(page.locator("#language")).to_have_value("python3")
    with page.expect_response(re.compile(r"/submit$")) as answer:
        page.get_by_role("button", name="Submit").click()
    assert answer.value.status == 413
    expect(page).to_have_url(re.compile(r"/submit$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("The mouse and the cheese")
    alert = page.get_by_role("alert")
    expect(alert).to_have_text("the submission is over 1 MiB: a source may be at most 65536 bytes")
    expect(page.get_by_role("button", name="Submit")).to_be_visible()
    screenshot(page, "student-submit-over-body-limit", full_page=False)
