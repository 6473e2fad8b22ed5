"""Clarifications in a real browser (Debian Chromium through Playwright) against a real server: a
student asks on the contest page, the teacher answers it to everyone from the contest's jury page,
and a second student's contest page, open all along and never reloaded, shows the answer when it
arrives over the event stream; a third student's private question never shows there; the second
student's question then reaches the teacher's open page the same way. Screenshots
(paths printed) go to the artifacts folder of ``tests/web/conftest.py``."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot, sign_in
from tests.web.test_clarifications_http import running_contest
from tests.web.test_teacher_browser import contests_end  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow
QUESTION = "Is <b>n</b> at least 1 in problem A?"
ANSWER = "Yes: 1 ≤ n ≤ 1000, as the statement says."


def test_a_public_answer_reaches_another_students_open_page_live(live_judge, new_page, contests_end):  # noqa: F811
    for name, role in (("clara", "teacher"), ("sam", "student"), ("sue", "student"), ("sid", "student")):
        live_judge.add_user(name, role, name.capitalize())
    contest_id = running_contest(live_judge.app, "clara", name="Clarified lab", participants=["sam", "sue", "sid"])
    api = f"{live_judge.url}/api/v1"
    # sid's question, answered to sid alone: it must never reach sue's page
    sid = live_judge.api_token("sid")
    private = httpx.post(f"{api}/contests/{contest_id}/clarifications", json={"text": "sid's secret"}, headers=sid)
    assert private.status_code == 201, private.text
    clara_api = live_judge.api_token("clara")
    reply = httpx.post(
        f"{api}/clarifications/{private.json()['id']}/answer", json={"text": "only for sid"}, headers=clara_api
    )
    assert reply.status_code == 200

    sue = new_page()
    sign_in(sue, "sue")
    sue.goto(f"/contests/{contest_id}")
    expect(sue.locator("#clarification-list")).to_contain_text("No clarifications yet.")
    sue.evaluate("window.openedOnce = true")  # gone if the page were loaded again

    sam = new_page()
    sign_in(sam, "sam")
    sam.goto(f"/contests/{contest_id}")
    sam.get_by_label("Question about").select_option("A")
    sam.get_by_label("Your question").fill(QUESTION)
    sam.get_by_role("button", name="Ask the jury").click()
    sam.wait_for_url(re.compile(rf"/contests/{contest_id}#clarifications$"))
    expect(sam.locator("#clarification-list")).to_contain_text(QUESTION)  # as typed: the tags are text
    expect(sam.locator("#clarification-list")).to_contain_text("waiting for an answer")
    screenshot(sam, "clarification-student-asked")

    clara = new_page()
    sign_in(clara, "clara")
    clara.goto(f"/teacher/contests/{contest_id}")
    queue = clara.locator("#clarification-list")
    expect(queue.locator(".clarification.waiting")).to_contain_text(QUESTION)
    expect(queue.locator(".clarification.waiting")).to_contain_text("asked by sam")
    screenshot(clara, "clarification-teacher-queue")
    queue.locator(".clarification.waiting").get_by_role("link", name="Answer").click()
    expect(clara.locator("#question-text")).to_have_text(QUESTION)
    clara.get_by_label("Answer", exact=True).fill(ANSWER)
    clara.get_by_label(re.compile("answer everyone")).check()
    screenshot(clara, "clarification-teacher-answer")
    clara.get_by_role("button", name="Send the answer").click()
    clara.wait_for_url(re.compile(rf"/teacher/contests/{contest_id}#clarifications$"))
    expect(queue).to_contain_text("answered to everyone")

    # sue's page, open since before the question, shows it with its answer: pushed, not reloaded
    answered = sue.locator("#clarification-list .clarification", has_text=QUESTION)
    expect(answered).to_contain_text(ANSWER)
    expect(answered).to_contain_text("answered to everyone")
    assert sue.evaluate("window.openedOnce") is True
    expect(sue.locator("#clarification-list")).not_to_contain_text("sid's secret")
    expect(sue.locator("#clarification-list")).not_to_contain_text("only for sid")
    expect(sue.locator("#clarification-list")).not_to_contain_text("sam")  # who asked is the jury's to know
    screenshot(sue, "clarification-second-student-live")

    # and the other way: sue asks from her page; the teacher's page, open since the answer, queues it live
    clara.evaluate("window.openedOnce = true")
    sue.get_by_label("Your question").fill("May we print the statement?")
    sue.get_by_role("button", name="Ask the jury").click()
    expect(queue.locator(".clarification.waiting")).to_contain_text("May we print the statement?")
    expect(queue.locator(".clarification.waiting")).to_contain_text("asked by sue")
    assert clara.evaluate("window.openedOnce") is True
    screenshot(clara, "clarification-teacher-queue-live")


def test_the_clarifications_address_opened_directly_shows_the_whole_contest_page(live_judge, new_page, contests_end):  # noqa: F811
    live_judge.add_user("corin", "teacher", "Corin")
    live_judge.add_user("cleo", "student", "Cleo")
    contest_id = running_contest(live_judge.app, "corin", name="Direct lab", participants=["cleo"])
    cleo = new_page()
    sign_in(cleo, "cleo")
    cleo.goto(f"/contests/{contest_id}/clarifications")
    expect(cleo).to_have_url(re.compile(rf"/contests/{contest_id}#clarifications$"))
    expect(cleo.get_by_role("navigation", name="Main")).to_be_visible()
    expect(cleo.get_by_role("heading", name="Direct lab")).to_be_visible()
    expect(cleo.locator("#clarification-list")).to_contain_text("No clarifications yet.")
    expect(cleo.get_by_role("button", name="Ask the jury")).to_be_visible()
    screenshot(cleo, "clarifications-opened-directly")


def test_a_refused_answer_comes_back_with_its_text_and_the_reason(live_judge, new_page, contests_end):  # noqa: F811
    from judge.clarifications import MAX_TEXT_CHARS

    live_judge.add_user("cato", "teacher", "Cato")
    live_judge.add_user("cira", "student", "Cira")
    contest_id = running_contest(live_judge.app, "cato", name="Long answers lab", participants=["cira"])
    asked = httpx.post(
        f"{live_judge.url}/api/v1/contests/{contest_id}/clarifications",
        json={"text": "How long may an answer be?"},
        headers=live_judge.api_token("cira"),
    )
    assert asked.status_code == 201, asked.text
    cato = new_page()
    sign_in(cato, "cato")
    cato.goto(f"/teacher/clarifications/{asked.json()['id']}")
    box = cato.get_by_label("Answer", exact=True)
    expect(box).to_have_attribute("maxlength", str(MAX_TEXT_CHARS))
    # the browser keeps a typed answer within that; the server refuses a longer one all the same
    box.evaluate("b => b.removeAttribute('maxlength')")
    typed = "Long enough: " + "x" * MAX_TEXT_CHARS
    box.fill(typed)
    cato.get_by_label(re.compile("answer everyone")).check()
    with cato.expect_response(re.compile(r"/teacher/clarifications/\d+$")) as answer:
        cato.get_by_role("button", name="Send the answer").click()
    assert answer.value.status == 422
    expect(cato.get_by_role("alert")).to_have_text(
        f"the answer is {len(typed)} characters long: at most {MAX_TEXT_CHARS}"
    )
    expect(box).to_have_value(typed)
    expect(box).to_have_attribute("maxlength", str(MAX_TEXT_CHARS))
    expect(cato.get_by_label(re.compile("answer everyone"))).to_be_checked()
    expect(cato.locator("#question-text")).to_have_text("How long may an answer be?")
    screenshot(cato, "clarification-teacher-answer-refused", full_page=False)


def test_a_question_too_soon_says_the_wait_once_and_counts_it_down(live_judge, new_page, contests_end):  # noqa: F811
    live_judge.add_user("cyra", "teacher", "Cyra")
    live_judge.add_user("cole", "student", "Cole")
    contest_id = running_contest(live_judge.app, "cyra", name="Patient lab", participants=["cole"])
    settings = live_judge.app.state.settings
    live_judge.app.state.settings = settings.model_copy(update={"question_interval_s": 3})
    try:
        cole = new_page()
        sign_in(cole, "cole")
        cole.goto(f"/contests/{contest_id}")
        cole.get_by_label("Your question").fill("First question?")
        cole.get_by_role("button", name="Ask the jury").click()
        cole.wait_for_url(re.compile(rf"/contests/{contest_id}#clarifications$"))
        cole.get_by_label("Your question").fill("Second question, right away?")
        cole.get_by_role("button", name="Ask the jury").click()
        expect(cole.get_by_role("heading", name="Please wait")).to_be_visible()
        expect(cole.get_by_role("alert")).to_have_text(re.compile(r"one question every \d+ s"))
        expect(cole.locator("#wait-line")).to_have_text(re.compile(r"^You can try again in [1-3] s\.$"))
        assert cole.locator("main").inner_text().count("again") == 1, cole.locator("main").inner_text()
        screenshot(cole, "clarification-question-too-soon", full_page=False)
        expect(cole.locator("#wait-line")).to_have_text("You can try again now.", timeout=10_000)
    finally:
        live_judge.app.state.settings = settings
