"""A student's pages in a real browser (Debian Chromium through Playwright) against a real server and
worker: the Contests link of the navigation, an accepted sample whose answer is not the judge's, and
the note on the secret tests' hidden figures. Each test saves a screenshot (path printed)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot, sign_in
from tests.web.test_clarifications_http import running_contest
from tests.web.test_teacher_browser import contests_end  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow


def test_a_student_reaches_its_contests_from_the_navigation(live_judge, new_page, contests_end):  # noqa: F811
    live_judge.add_user("nina", display_name="Nina")
    live_judge.add_user("nico", "teacher", "Nico")
    contest_id = running_contest(live_judge.app, "nico", name="Navigation lab", participants=["nina"])
    page = new_page()
    sign_in(page, "nina")
    page.goto("/submissions")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Contests").click()
    expect(page).to_have_url(re.compile(r"/contests$"))
    expect(page.get_by_role("heading", name="My contests")).to_be_visible()
    running = page.get_by_role("region", name="Running")
    expect(running).to_contain_text("Navigation lab")
    expect(running).to_contain_text("running")
    screenshot(page, "student-contests-list")
    running.get_by_role("link", name="Navigation lab").click()
    expect(page).to_have_url(re.compile(rf"/contests/{contest_id}$"))
    expect(page.get_by_role("heading", name="Navigation lab")).to_be_visible()
