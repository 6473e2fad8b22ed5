"""Submitting in a real browser (Debian Chromium through Playwright) against a real server and worker:
what the problem page tells a student whose submission is refused, and the one status a submission
shows while it waits. Each test saves a screenshot (path printed)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from judge.clock import utcnow
from judge.models import Submission
from judge.vocabulary import Status
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


def _set_status(live_judge, submission_id: int, status: str) -> None:
    """Put submission ``submission_id`` in ``status`` as a worker would: judging under a lease of an
    hour (no one takes it back meanwhile), or queued again."""
    with live_judge.app.state.sessions() as session:
        row = session.get(Submission, submission_id)
        judging = status == Status.JUDGING
        row.status, row.worker_id = status, "test-worker" if judging else None
        row.lease_expires_at = utcnow() + timedelta(hours=1) if judging else None
        session.commit()


def test_a_waiting_submission_shows_one_status(live_judge, new_page):
    page = _student_on_lee(live_judge, new_page, "wanda")
    page.locator("#language").select_option("python3")
    page.locator("#source").fill("print(-1)\n")
    live_judge.gate.clear()  # no judge takes it: it waits
    try:
        page.get_by_role("button", name="Submit").click()
        page.wait_for_url("**/submissions/*")
        submission_id = int(page.url.rsplit("/", 1)[1])
        results = page.locator("#results")
        expect(results.locator("#status-line")).to_have_text("queued: waiting for a judge…")
        alone = re.compile(r"^\s*queued: waiting for a judge…( · \d+ submissions? before it)?\s*$")
        expect(results).to_have_text(alone)
        screenshot(page, "student-submission-queued", full_page=False)

        _set_status(live_judge, submission_id, Status.JUDGING)
        page.reload()
        expect(results).to_have_text(re.compile(r"^\s*being judged…\s*$"))  # that alone: no "waiting" beside it
        screenshot(page, "student-submission-judging", full_page=False)
        _set_status(live_judge, submission_id, Status.QUEUED)
    finally:
        live_judge.gate.set()
    expect(results.locator(".big .verdict")).to_have_text("WA", timeout=120_000)
    expect(results.locator("#status-line")).to_have_count(0)


def test_a_file_of_no_known_language_is_told_so_with_the_accepted_ones(live_judge, new_page):
    page = _student_on_lee(live_judge, new_page, "ruby")
    page.locator("#file").set_input_files(files=[{"name": "mouse.rb", "mimeType": "text/plain", "buffer": b"puts 1\n"}])
    told = "The language of mouse.rb cannot be guessed from its extension .rb: choose it in the list."
    note = page.locator("#language-guess")
    expect(note).to_be_visible()
    expect(note).to_contain_text(told)
    expect(note).to_contain_text("Accepted: C (.c); C++ (.cpp .cc .cxx .c++ .C); Python 3 (.py .py3);")
    expect(page.locator("#language")).to_have_value("")
    page.get_by_role("button", name="Submit").click()  # the list says why it wants a language
    assert page.locator("#language").evaluate("s => s.validationMessage") == told
    expect(page).to_have_url(re.compile(r"/problems/lee$"))  # nothing was sent
    screenshot(page, "student-submit-unknown-extension", full_page=False)
    page.locator("#file").set_input_files(files=[{"name": "mouse.py", "mimeType": "text/plain", "buffer": b"1\n"}])
    expect(note).to_be_hidden()
    expect(page.locator("#language")).to_have_value("python3")
    assert page.locator("#language").evaluate("s => s.validationMessage") == ""
