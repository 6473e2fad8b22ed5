"""Clarifications over the API: a participant asks, the jury answers privately or to everyone and
announces; a student never reads another student's private question, neither by listing, by id
nor in the event stream; questions are rate-limited; refusals are clear 4xx answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from judge import clarifications as clar
from judge.clarifications import MAX_TEXT_CHARS
from judge.events import ContestFeed
from judge.models import User, utcnow
from judge.vocabulary import ScoreboardView

from ..conftest import make_account
from .conftest import add_problems, add_users, make_contest
from .test_freeze_api import sse_events


@pytest.fixture
def running(api_app, app_db, api_client, teacher_client):
    """A running contest of teacher1 (problems pa, pb as A, B; scoreboard for the jury only) with
    student1 (api_client) and student2 (a second client) taking part; no question rate limit."""
    add_problems(app_db, "pa", "pb")
    contest = make_contest(
        app_db, start=utcnow() - timedelta(minutes=10), owner="teacher1", scoreboard_visibility="jury"
    )
    api_app.state.settings = api_app.state.settings.model_copy(update={"question_interval_s": 0})
    other = TestClient(api_app)
    other.user_id, headers = make_account(api_app, "student2")
    other.headers.update(headers)
    return contest, other


def ask(client, contest_id: int, text: str, problem: str | None = None):
    return client.post(f"/api/v1/contests/{contest_id}/clarifications", json={"problem": problem, "text": text})


def test_a_question_answered_privately_stays_between_its_asker_and_the_jury(running, api_client, teacher_client):
    contest, other = running
    reply = ask(api_client, contest.id, "Is n at least 1 in A?", "a")
    assert reply.status_code == 201, reply.text
    question = reply.json()
    assert (question["kind"], question["problem"], question["answer"], question["mine"]) == (
        "question",
        "A",
        None,
        True,
    )
    assert question["asker"] is None  # a student is not told names, not even their own back
    waiting = teacher_client.get(f"/api/v1/contests/{contest.id}/clarifications", params={"waiting": True}).json()
    assert [(q["id"], q["asker"]) for q in waiting] == [(question["id"], "student1")]
    # another student sees nothing of it: not in the list, not by id, cannot answer it
    assert other.get(f"/api/v1/contests/{contest.id}/clarifications").json() == []
    assert other.get(f"/api/v1/clarifications/{question['id']}").status_code == 404
    assert other.post(f"/api/v1/clarifications/{question['id']}/answer", json={"text": "no"}).status_code == 404
    reply = teacher_client.post(f"/api/v1/clarifications/{question['id']}/answer", json={"text": "Yes: 1 <= n."})
    assert reply.status_code == 200 and reply.json()["answer"] == "Yes: 1 <= n." and not reply.json()["public"]
    assert api_client.get(f"/api/v1/clarifications/{question['id']}").json()["answer"] == "Yes: 1 <= n."
    assert other.get(f"/api/v1/contests/{contest.id}/clarifications").json() == []
    assert other.get(f"/api/v1/clarifications/{question['id']}").status_code == 404
    assert teacher_client.get(f"/api/v1/contests/{contest.id}/clarifications", params={"waiting": True}).json() == []


def test_a_public_answer_and_an_announcement_reach_everyone_without_the_askers_name(
    running, api_client, teacher_client
):
    contest, other = running
    qid = ask(api_client, contest.id, "May we use <stdio.h>?").json()["id"]
    reply = teacher_client.post(f"/api/v1/clarifications/{qid}/answer", json={"text": "Yes.", "public": True})
    assert reply.status_code == 200
    reply = teacher_client.post(
        f"/api/v1/contests/{contest.id}/announcements", json={"problem": "B", "text": "B: the limit is 2 s."}
    )
    assert reply.status_code == 201 and reply.json()["kind"] == "announcement"
    seen = other.get(f"/api/v1/contests/{contest.id}/clarifications").json()
    assert [(c["kind"], c["problem"], c["question"], c["answer"], c["mine"], c["asker"]) for c in seen] == [
        ("announcement", "B", None, "B: the limit is 2 s.", False, None),
        ("question", None, "May we use <stdio.h>?", "Yes.", False, None),
    ]
    assert other.get(f"/api/v1/clarifications/{qid}").json()["answer"] == "Yes."
    assert api_client.get(f"/api/v1/clarifications/{qid}").json()["mine"] is True


def test_who_may_ask_answer_and_announce(api_app, running, api_client, teacher_client, app_db):
    contest, other = running
    outsider = TestClient(api_app)
    outsider.headers.update(make_account(api_app, "teacher2", "teacher")[1])
    assert ask(teacher_client, contest.id, "a jury question?").status_code == 403
    assert ask(outsider, contest.id, "?").status_code == 404  # another teacher's contest does not exist for it
    qid = ask(api_client, contest.id, "why?").json()["id"]
    assert api_client.post(f"/api/v1/clarifications/{qid}/answer", json={"text": "because"}).status_code == 403
    assert outsider.post(f"/api/v1/clarifications/{qid}/answer", json={"text": "because"}).status_code == 404
    assert api_client.post(f"/api/v1/contests/{contest.id}/announcements", json={"text": "hi"}).status_code == 403
    announcement = teacher_client.post(f"/api/v1/contests/{contest.id}/announcements", json={"text": "hi"}).json()
    reply = teacher_client.post(f"/api/v1/clarifications/{announcement['id']}/answer", json={"text": "x"})
    assert reply.status_code == 409 and "announcement" in reply.json()["detail"]
    # only while the contest runs
    contest.end_at = utcnow() - timedelta(minutes=1)
    contest.start_at = contest.end_at - timedelta(hours=1)
    app_db.commit()
    reply = ask(api_client, contest.id, "too late?")
    assert reply.status_code == 403 and "not running" in reply.json()["detail"]


def test_before_the_start_students_cannot_ask_and_no_announcement_names_a_problem(
    running, api_client, teacher_client, app_db
):
    contest, _ = running
    contest.start_at = utcnow() + timedelta(hours=1)
    contest.end_at = contest.start_at + timedelta(hours=2)
    app_db.commit()
    assert ask(api_client, contest.id, "soon?").status_code == 403
    url = f"/api/v1/contests/{contest.id}/announcements"
    assert teacher_client.post(url, json={"problem": "A", "text": "A is easy"}).status_code == 422
    assert teacher_client.post(url, json={"text": "We start at nine."}).status_code == 201


@pytest.mark.parametrize(
    "body, status",
    [
        ({"text": ""}, 422),
        ({"text": "   \n\t"}, 422),
        ({"text": "x" * (MAX_TEXT_CHARS + 1)}, 422),
        ({"text": "nul\x00"}, 422),
        ({"text": "?", "problem": "Z"}, 404),
        ({"text": "?", "problem": "x" * 65}, 422),
        ({"text": "?", "extra": 1}, 422),
        ({"text": 5}, 422),
    ],
)
def test_bad_questions_are_refused_with_a_reason(running, api_client, body, status):
    contest, _ = running
    reply = api_client.post(f"/api/v1/contests/{contest.id}/clarifications", json=body)
    assert reply.status_code == status, reply.text
    assert reply.json()["detail"]


def test_questions_are_rate_limited_per_student(api_app, running, api_client):
    contest, other = running
    api_app.state.settings = api_app.state.settings.model_copy(update={"question_interval_s": 60})
    assert ask(api_client, contest.id, "first").status_code == 201
    reply = ask(api_client, contest.id, "second")
    assert reply.status_code == 429 and 55 <= int(reply.headers["retry-after"]) <= 60
    assert "question" in reply.json()["detail"]
    assert ask(other, contest.id, "another student's first").status_code == 201  # per student
    mine = api_client.get(f"/api/v1/contests/{contest.id}/clarifications").json()
    assert [c["question"] for c in mine] == ["first"]  # the refused one was not stored


def test_the_event_stream_carries_own_and_public_clarifications_only(running, api_client, teacher_client):
    contest, other = running
    private = ask(api_client, contest.id, "private question of student1").json()["id"]
    public = ask(api_client, contest.id, "question for all").json()["id"]
    teacher_client.post(f"/api/v1/clarifications/{private}/answer", json={"text": "private answer"})
    teacher_client.post(f"/api/v1/clarifications/{public}/answer", json={"text": "public answer", "public": True})
    teacher_client.post(f"/api/v1/contests/{contest.id}/announcements", json={"text": "announcement"})
    url = f"/api/v1/contests/{contest.id}/events"
    seen_by_other = [d for name, d in sse_events(other, url) if name == "clarification"]
    assert sorted((d["answer"], d["question"]) for d in seen_by_other) == [
        ("announcement", None),
        ("public answer", "question for all"),
    ]
    assert "private" not in str(seen_by_other)
    events = sse_events(api_client, url)
    assert "scoreboard" not in {name for name, _ in events}  # the board is the jury's in this contest
    assert {d["answer"] for name, d in events if name == "clarification"} == {
        "private answer",
        "public answer",
        "announcement",
    }
    jury = [d for name, d in sse_events(teacher_client, url) if name == "clarification"]
    assert {(d["question"], d["asker"]) for d in jury if d["kind"] == "question"} == {
        ("private question of student1", "student1"),
        ("question for all", "student1"),
    }


def test_the_feed_sends_a_clarification_again_when_it_changes(running, app_db, api_client, teacher_client):
    contest, other = running
    student = ContestFeed(contest.id, app_db.get(User, other.user_id), ScoreboardView.PUBLIC)
    assert [n for n, _ in student.poll(app_db)] == ["scoreboard"]
    qid = ask(api_client, contest.id, "a private question").json()["id"]
    assert student.poll(app_db) == []  # another student's question
    teacher_client.post(f"/api/v1/clarifications/{qid}/answer", json={"text": "first answer", "public": True})
    app_db.expire_all()
    assert [d["answer"] for n, d in student.poll(app_db) if n == "clarification"] == ["first answer"]
    assert student.poll(app_db) == []  # sent once
    teacher_client.post(f"/api/v1/clarifications/{qid}/answer", json={"text": "better answer", "public": True})
    app_db.expire_all()
    assert [d["answer"] for n, d in student.poll(app_db) if n == "clarification"] == ["better answer"]


def test_the_rules_on_sqlite_and_postgresql(db):
    add_problems(db, "pa")
    ids = add_users(db, "ann", "ben") | add_users(db, "tess", role="teacher")
    ann, ben, tess = (db.get(User, ids[name]) for name in ("ann", "ben", "tess"))
    contest = make_contest(db, ("pa",), start=utcnow() - timedelta(minutes=5), owner="tess")
    question = clar.ask(db, ann, contest, "  Is n >= 1?  ", "a", 60, utcnow())
    assert (question.question, question.problem_id) == ("Is n >= 1?", "pa")
    with pytest.raises(clar.QuestionLimited):
        clar.ask(db, ann, contest, "again", None, 60, utcnow())
    clar.answer(db, tess, question, "Yes.", False, utcnow())
    announcement = clar.announce(db, tess, contest, "Ten minutes left.", None, utcnow())
    assert [r.id for r in clar.visible_clarifications(db, contest, ann)] == [announcement.id, question.id]
    assert [r.id for r in clar.visible_clarifications(db, contest, ben)] == [announcement.id]
    events = clar.ClarificationWatch(ben.id, False, utcnow()).poll(db, contest)
    assert [(name, data["id"]) for name, data in events] == [("clarification", announcement.id)]
    jury_events = clar.ClarificationWatch(tess.id, True, utcnow()).poll(db, contest)
    assert {data["id"] for _, data in jury_events} == {question.id, announcement.id}
