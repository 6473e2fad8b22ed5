"""The event feed over time: it sends only what changed, a rejudge deletes the old judgement and
adds the new one, quiet stretches get keep-alive newlines."""

from __future__ import annotations

from judge import lifecycle
from judge.ccs.feed import EventFeed, snapshot
from judge.ccs.objects import ContestView
from judge.models import Contest
from judge.vocabulary import ScoreboardView

from ..contests.conftest import judge_next


def poll(api_app, feed: EventFeed, cid: int, tmp_path) -> list[dict]:
    with api_app.state.sessions() as session:
        contest = session.get(Contest, cid)
        return feed.changes(snapshot(ContestView(session, contest, ScoreboardView.JURY, None, tmp_path)))


def test_a_rejudge_replaces_the_judgement_and_nothing_else_is_sent_again(api_app, frozen_contest, tmp_path):
    cid, feed = frozen_contest["id"], EventFeed(frozen_contest["id"])
    first = poll(api_app, feed, cid, tmp_path)
    assert first[0]["type"] == "contest" and poll(api_app, feed, cid, tmp_path) == []
    with api_app.state.sessions() as session:
        assert lifecycle.rejudge(session, contest_id=cid, submission_id=1) == [1]
    gone = poll(api_app, feed, cid, tmp_path)
    assert [(e["type"], e["id"], e["data"]) for e in gone if e["type"] in ("judgements", "runs")] == [
        ("judgements", "1-1", None),
        ("runs", "1-1-1", None),
    ]
    with api_app.state.sessions() as session:
        judge_next(session, "AC")
    new = poll(api_app, feed, cid, tmp_path)
    judgements = [e for e in new if e["type"] == "judgements"]
    assert [(e["id"], e["data"]["judgement_type_id"]) for e in judgements] == [("1-2", "AC")]
    assert all(e["type"] != "teams" for e in new)
    tokens = [e["token"] for e in first + gone + new]
    assert len(set(tokens)) == len(tokens)


def test_quiet_feeds_get_keep_alive_newlines(jury, frozen_contest, monkeypatch):
    monkeypatch.setattr("judge.ccs.feed.KEEPALIVE_S", 0.05)
    reply = jury.get(f"/api/ccs/contests/{frozen_contest['id']}/event-feed", params={"poll": 0.05, "max_seconds": 0.5})
    assert reply.status_code == 200 and "}\n\n" in reply.text


def test_snapshots_are_rebuilt_only_when_the_contest_changed(api_app, frozen_contest, tmp_path):
    from judge.ccs.feed import snapshots

    cid = frozen_contest["id"]
    poll = snapshots(api_app.state.sessions, cid, ScoreboardView.PUBLIC, None, tmp_path)
    first = poll()
    assert poll() is first and ("judgements", "1-1") in first
    with api_app.state.sessions() as session:
        lifecycle.rejudge(session, contest_id=cid, submission_id=1)
    assert ("judgements", "1-1") not in poll()
