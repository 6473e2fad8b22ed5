"""Server-sent events: a submission's tests and verdict as they are written, a contest's scoreboard
changes, and the freeze applied to the streams."""

from __future__ import annotations

from datetime import timedelta

from judge import lifecycle
from judge.events import ContestFeed, SubmissionFeed, sse
from judge.lifecycle import rejudge
from judge.models import TestResult, User, utcnow
from judge.vocabulary import DetailLevel, ScoreboardView

from .conftest import add_problems, add_submission, add_users, judge_next, make_contest
from .test_freeze_api import sse_events


def names(events) -> list[str]:
    return [name for name, _ in events]


def test_sse_text_format():
    assert sse("verdict", {"id": 3, "verdict": "AC"}, 7) == 'event: verdict\nid: 7\ndata: {"id":3,"verdict":"AC"}\n\n'


def test_submission_feed_follows_a_judging_test_by_test(app_db):
    add_problems(app_db, "pa")
    ids = add_users(app_db, "ann")
    sid = add_submission(app_db, None, ids["ann"], "pa", None, 0)
    feed = SubmissionFeed(sid, DetailLevel.VERDICTS)
    assert feed.poll(app_db) == [("status", {"id": sid, "status": "queued", "attempt": 0})]
    assert feed.poll(app_db) == []  # nothing new, nothing sent
    claim = lifecycle.claim(app_db, "w", 30)
    app_db.add(
        TestResult(
            submission_id=sid,
            attempt=claim.attempt,
            ordinal=1,
            test_name="sample/01",
            test_group="sample",
            verdict="AC",
            time_ms=5,
            message="ok",
        )
    )
    app_db.commit()
    events = feed.poll(app_db)
    assert names(events) == ["status", "test"]
    assert events[1][1]["test"] == "sample/01" and events[1][1]["time_ms"] == 5
    app_db.add(
        TestResult(
            submission_id=sid,
            attempt=claim.attempt,
            ordinal=2,
            test_name="secret/07-huge",
            test_group="secret",
            verdict="WA",
            time_ms=9,
            message="expected 42",
        )
    )
    app_db.commit()
    ((name, secret),) = feed.poll(app_db)
    assert name == "test" and (secret["test"], secret["time_ms"], secret["message"]) == ("secret/2", None, None)
    assert lifecycle.finish(
        app_db,
        claim,
        verdict="WA",
        compile_message=None,
        judge_message=None,
        time_ms=None,
        memory_kib=None,
        tests_passed=1,
        tests_total=2,
    )
    events = feed.poll(app_db)
    assert names(events) == ["status", "verdict"] and events[1][1]["verdict"] == "WA"
    assert feed.finished


def test_submission_feed_starts_over_when_the_submission_is_rejudged(app_db):
    add_problems(app_db, "pa")
    ids = add_users(app_db, "ann")
    sid = add_submission(app_db, None, ids["ann"], "pa", None, 0)
    judge_next(app_db, "WA", [("sample", "AC"), ("secret", "WA")])
    feed = SubmissionFeed(sid, DetailLevel.JURY)
    first = feed.poll(app_db)
    assert names(first) == ["status", "test", "test", "verdict"] and feed.finished
    rejudge(app_db, submission_id=sid)
    feed = SubmissionFeed(sid, DetailLevel.JURY)
    assert names(feed.poll(app_db)) == ["status"]
    judge_next(app_db, "AC", [("sample", "AC"), ("secret", "AC")])
    events = feed.poll(app_db)
    assert names(events) == ["status", "test", "test", "verdict"]
    assert [e[1]["attempt"] for e in events[1:3]] == [2, 2] and events[3][1]["verdict"] == "AC"


def test_submission_events_over_http_end_with_the_verdict(api_client, app_db):
    add_problems(app_db, "pa")
    sid = add_submission(app_db, None, api_client.user_id, "pa", "WA", 0, tests=[("sample", "AC"), ("secret", "WA")])
    with api_client.stream("GET", f"/api/v1/submissions/{sid}/events", params={"poll": 0.05}) as reply:
        text = reply.read().decode()  # the stream closes by itself after the verdict
    assert text.startswith("retry: ")
    events = sse_events(api_client, f"/api/v1/submissions/{sid}/events")
    assert names(events) == ["status", "test", "test", "verdict"]
    assert events[2][1]["message"] is None and events[2][1]["time_ms"] is None  # a student's secret test
    assert events[1][1]["message"] == "checker says: expected 1"  # the sample's reason


def test_contest_feed_sends_the_board_and_only_changes_the_viewer_may_see(app_db):
    add_problems(app_db, "pa")
    ids = add_users(app_db, "ann", "ben")
    contest = make_contest(app_db, problems=["pa"], start=utcnow() - timedelta(minutes=90))
    contest.freeze_at = contest.start_at + timedelta(minutes=60)
    app_db.commit()
    ben = app_db.get(User, ids["ben"])
    jury_feed = ContestFeed(contest.id, None, ScoreboardView.JURY)
    ben_feed = ContestFeed(contest.id, ben, ScoreboardView.PUBLIC)
    assert names(jury_feed.poll(app_db)) == ["scoreboard"] and names(ben_feed.poll(app_db)) == ["scoreboard"]
    assert jury_feed.poll(app_db) == [] and ben_feed.poll(app_db) == []

    add_submission(app_db, contest, ids["ann"], "pa", None, 70)  # after the freeze: pending for everyone
    assert names(jury_feed.poll(app_db)) == ["scoreboard"] and names(ben_feed.poll(app_db)) == ["scoreboard"]
    judge_next(app_db, "AC")  # ann's frozen AC: the jury hears of it, ben hears nothing at all
    jury_events = jury_feed.poll(app_db)
    assert names(jury_events) == ["verdict", "scoreboard"]
    assert jury_events[1][1]["rows"][0]["user"] == "ann" and jury_events[1][1]["rows"][0]["solved"] == 1
    assert ben_feed.poll(app_db) == []

    add_submission(app_db, contest, ids["ben"], "pa", None, 71)
    ben_feed.poll(app_db)  # his own pending attempt appears on the board
    judge_next(app_db, "WA")
    assert names(ben_feed.poll(app_db)) == ["verdict"]  # his own verdict; the frozen board does not move
