"""A student's pages in a real browser (Debian Chromium through Playwright) against a real server and
worker: the Contests link of the navigation, an accepted sample whose answer is not the judge's, the
note on the secret tests' hidden figures, and a contest submission named by its letter and name.
Each test saves a screenshot (path printed)."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from judge.clock import utcnow
from judge.models import Contest, ContestProblem
from tests.web.conftest import REPO, screenshot, sign_in
from tests.web.test_clarifications_http import running_contest
from tests.web.test_teacher_browser import contests_end  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow
FROM_CHEESE = REPO / "problems" / "lee" / "submissions" / "accepted" / "from_cheese.py"


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


def _wait_for_lee_in_practice(live_judge, timeout_s: float = 15) -> None:
    """Wait until no contest with lee is running in ``live_judge``: an earlier test's contest, which
    its ``contests_end`` ends a second later, still takes lee from every student until then (no
    practice form)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with live_judge.app.state.sessions() as session:
            now = utcnow()
            running = session.scalars(
                select(Contest.name)
                .join(ContestProblem, ContestProblem.contest_id == Contest.id)
                .where(ContestProblem.problem_id == "lee", Contest.start_at <= now, Contest.end_at > now)
            ).all()
        if not running:
            return
        assert time.monotonic() < deadline, f"contests with lee still running: {running}"
        time.sleep(0.1)


def _scroll_to(page, selector: str) -> None:
    """Scroll the element ``selector`` into view as the page holds it now: the results are swapped
    in anew on each event of the stream (the verdict's too), so a locator's element may be
    replaced in the middle of Playwright's own scroll."""
    page.evaluate("s => document.querySelector(s).scrollIntoView()", selector)


def _submit_from_cheese(live_judge, new_page, name: str):
    """A page signed in as the new student ``name`` on its judged practice submission of lee's
    accepted ``from_cheese.py`` (its path on sample 02 is not the judge answer's: another shortest one)."""
    live_judge.add_user(name)
    _wait_for_lee_in_practice(live_judge)
    page = new_page()
    sign_in(page, name)
    page.goto("/problems/lee")
    page.locator("#language").select_option("python3")
    page.locator("#source").fill(FROM_CHEESE.read_text())
    page.get_by_role("button", name="Submit").click()
    page.wait_for_url("**/submissions/*")
    expect(page.locator("#results .big .verdict")).to_have_text("AC", timeout=120_000)
    return page


def test_a_student_reads_why_secret_tests_show_no_time_or_memory(live_judge, new_page):
    page = _submit_from_cheese(live_judge, new_page, "sera")
    secret = page.locator("table.tests tbody tr[id^=test-]", has_text="secret/").first
    hidden = secret.locator(".hidden-figure")
    expect(hidden).to_have_count(2)  # CPU and memory
    expect(hidden.first).to_have_attribute("title", "hidden: a secret test shows its verdict only")
    note = page.locator("#hidden-figures")
    expect(note).to_contain_text("A secret test shows its verdict only")
    expect(note).to_contain_text("spell out a secret input")
    _scroll_to(page, "#hidden-figures")
    screenshot(page, "student-secret-tests-note", full_page=False)


def test_an_accepted_sample_with_another_valid_answer_is_not_shown_as_an_error(live_judge, new_page):
    page = _submit_from_cheese(live_judge, new_page, "otto")
    table = page.locator("table.diff.accepted")
    expect(table).to_have_count(1)  # sample 02 alone: 01 and 03 are the judge's own paths
    expect(table.locator("caption")).to_contain_text("another valid answer")
    expect(table.locator("thead")).to_contain_text("Your output (accepted)")
    marked = table.locator("tr.differs td").first
    expect(marked).to_be_visible()
    error_red = page.evaluate(
        "() => { const s = document.createElement('span'); s.className = 'verdict v-WA';"
        " document.body.append(s); const c = getComputedStyle(s).backgroundColor; s.remove(); return c; }"
    )
    assert marked.evaluate("td => getComputedStyle(td).backgroundColor") != error_red
    _scroll_to(page, "table.diff.accepted")
    screenshot(page, "student-lee-accepted-other-path", full_page=False)


def test_a_contest_submission_is_named_by_its_letter_and_name(live_judge, new_page, contests_end):  # noqa: F811
    live_judge.add_user("lena", display_name="Lena")
    live_judge.add_user("luca", "teacher", "Luca")
    contest_id = running_contest(live_judge.app, "luca", name="Letters lab", participants=["lena"])
    body = {"contest": contest_id, "problem": "A", "language": "python3", "source": "print(-1)\n"}
    sent = httpx.post(f"{live_judge.url}/api/v1/submissions", json=body, headers=live_judge.api_token("lena"))
    assert sent.status_code == 202, sent.text
    submission_id = sent.json()["id"]
    named = "A. The mouse and the cheese"
    problem_page = f"{live_judge.url}/contests/{contest_id}/problems/A"

    lena = new_page()
    sign_in(lena, "lena")
    for listing in ("/", "/submissions"):
        lena.goto(listing)
        row = lena.get_by_role("row").filter(has=lena.get_by_role("link", name=str(submission_id), exact=True))
        cell = row.get_by_role("link", name=named)
        expect(cell).to_have_attribute("href", problem_page.removeprefix(live_judge.url))
        expect(row).not_to_contain_text("lee")
    screenshot(lena, "student-my-submissions-contest-letter", full_page=False)
    lena.goto(f"/submissions/{submission_id}")
    expect(lena.locator(".crumbs")).to_have_text(f"Letters lab › {named}")
    expect(lena.locator("dl.limits dd").first).to_have_text(named)
    screenshot(lena, "student-contest-submission-letter", full_page=False)

    luca = new_page()
    sign_in(luca, "luca")
    luca.goto(f"/teacher/submissions?contest={contest_id}")
    row = luca.get_by_role("row").filter(has=luca.get_by_role("link", name=str(submission_id), exact=True))
    expect(row.get_by_role("cell").nth(2)).to_have_text(f"{named} lee")  # the jury sees the problem's id too
    screenshot(luca, "teacher-contest-submission-letter", full_page=False)
