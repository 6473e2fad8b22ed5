"""Clarification pages over HTTP (TestClient, no browser): a student asks on the contest page and sees
their own question, another student does not; the teacher's contest page queues it, the answer page
answers it to everyone; announcements; the rules and refusals are the API's; user text is escaped."""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.clock import utcnow
from judge.contests import ContestSpec, ProblemEntry, create_contest
from judge.models import Clarification

from .test_teacher_http import EVIL, HTMX, app, signed_in  # noqa: F401 (app is a fixture)


def running_contest(judge_app, owner: str, **fields) -> int:
    """The id of a new contest of ``owner`` in ``judge_app``, started 5 minutes ago for an hour, with lee
    as A; ``fields`` as in ContestSpec."""
    with judge_app.state.sessions() as session:
        start = utcnow() - timedelta(minutes=5)
        spec = ContestSpec(
            name=fields.pop("name", "Lab"),
            start_at=start,
            end_at=start + timedelta(hours=1),
            problems=[ProblemEntry("A", "lee")],
            owner=owner,
            **fields,
        )
        return create_contest(session, spec).id


@pytest.fixture
def contest_id(app):  # noqa: F811
    """A running contest of tess (scoreboard for the jury only), every student in it; no question
    rate limit."""
    app.state.settings = app.state.settings.model_copy(update={"question_interval_s": 0})
    return running_contest(app, "tess", scoreboard_visibility="jury")


def test_a_question_from_the_contest_page_to_a_public_answer(app, contest_id):  # noqa: F811
    ana, bob, tess = signed_in(app, "ana"), signed_in(app, "bob"), signed_in(app, "tess")
    page = ana.get(f"/contests/{contest_id}").text
    assert "Ask the jury" in page and "No clarifications yet." in page
    reply = ana.post(
        f"/contests/{contest_id}/clarifications",
        data={"problem": "A", "text": EVIL + " why?", "csrf_token": ana.csrf},
        follow_redirects=False,
    )
    assert reply.status_code == 303 and reply.headers["location"] == f"/contests/{contest_id}#clarifications"
    page = ana.get(f"/contests/{contest_id}").text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; why?" in page and EVIL not in page
    assert "waiting for an answer" in page and "your question" in page
    assert "why?" not in bob.get(f"/contests/{contest_id}").text
    assert "why?" not in bob.get(f"/contests/{contest_id}/clarifications", headers=HTMX).text

    queue = tess.get(f"/teacher/contests/{contest_id}").text
    assert "why?" in queue and "asked by <strong>ana</strong>" in queue and EVIL not in queue
    with app.state.sessions() as session:
        qid = session.query(Clarification.id).scalar()
    form = tess.get(f"/teacher/clarifications/{qid}")
    assert form.status_code == 200 and "Send the answer" in form.text
    assert bob.get(f"/teacher/clarifications/{qid}").status_code == 404  # another student's question
    assert ana.get(f"/teacher/clarifications/{qid}").status_code == 403  # own, but not the jury's page
    reply = tess.post(
        f"/teacher/clarifications/{qid}",
        data={"text": "Because <b>BFS</b>.", "public": "on", "csrf_token": tess.csrf},
        follow_redirects=False,
    )
    assert reply.status_code == 303
    shown = bob.get(f"/contests/{contest_id}/clarifications", headers=HTMX).text
    assert "why?" in shown and "Because &lt;b&gt;BFS&lt;/b&gt;." in shown and "answered to everyone" in shown
    assert "ana" not in shown  # who asked stays the jury's


def test_announcements_and_refusals_on_the_pages(app, contest_id):  # noqa: F811
    ana, tess, tom = signed_in(app, "ana"), signed_in(app, "tess"), signed_in(app, "tom")
    url = f"/teacher/contests/{contest_id}/announcements"
    reply = tess.post(url, data={"problem": "A", "text": "A: 1 s", "csrf_token": tess.csrf}, follow_redirects=False)
    assert reply.status_code == 303
    assert "A: 1 s" in ana.get(f"/contests/{contest_id}").text
    assert tom.post(url, data={"text": "hi", "csrf_token": tom.csrf}).status_code == 404  # not tom's contest
    assert ana.post(url, data={"text": "hi", "csrf_token": ana.csrf}).status_code == 403
    assert tess.post(url, data={"text": "no csrf"}).status_code == 403
    ask = f"/contests/{contest_id}/clarifications"
    refused = ana.post(ask, data={"text": "  ", "csrf_token": ana.csrf})
    assert refused.status_code == 422 and "the question is empty" in refused.text
    assert ana.post(ask, data={"text": "nul\x00", "csrf_token": ana.csrf}).status_code == 422
    assert ana.post(ask, data={"text": "?", "problem": "Z", "csrf_token": ana.csrf}).status_code == 404
    assert tess.post(ask, data={"text": "?", "csrf_token": tess.csrf}).status_code == 403
    app.state.settings = app.state.settings.model_copy(update={"question_interval_s": 60})
    assert ana.post(ask, data={"text": "one", "csrf_token": ana.csrf}, follow_redirects=False).status_code == 303
    waited = ana.post(ask, data={"text": "two", "csrf_token": ana.csrf})
    assert waited.status_code == 429 and "Retry-After" in waited.headers and "one question every" in waited.text


def test_the_list_opened_directly_is_the_contest_page_at_its_clarifications(app, contest_id):  # noqa: F811
    ana, tess = signed_in(app, "ana"), signed_in(app, "tess")
    url = f"/contests/{contest_id}/clarifications"
    for client, page in ((ana, f"/contests/{contest_id}"), (tess, f"/teacher/contests/{contest_id}")):
        visit = client.get(url, follow_redirects=False)
        assert visit.status_code == 303 and visit.headers["location"] == page + "#clarifications"
        whole = client.get(url)
        assert whole.status_code == 200 and whole.text.startswith("<!doctype html>") and "<nav" in whole.text
    fragment = ana.get(url, headers=HTMX)
    assert fragment.status_code == 200 and "No clarifications yet." in fragment.text
    assert "<html" not in fragment.text and fragment.headers["vary"] == "HX-Request"
    assert signed_in(app, "tom").get(url, follow_redirects=False).status_code == 404  # not tom's contest
