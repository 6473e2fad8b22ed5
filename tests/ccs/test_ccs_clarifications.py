"""Clarifications in the Contest API (``clarifications`` endpoint and event feed): the jury reads every
message with its teams; the public only the announcements and public answers, without who asked; a
team its own questions too, never another team's private ones."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from judge import clarifications as clar
from judge.ccs.feed import snapshots
from judge.ccs.format import ID
from judge.models import Contest, User, utcnow
from judge.vocabulary import ScoreboardView

from .conftest import basic


@pytest.fixture
def clarified(api_app, frozen_contest):
    """The frozen contest with ana's question answered to everyone, ben's answered to ben alone,
    and an announcement about B; returns (contest id, ana's question id, ben's, the announcement's)."""
    cid = frozen_contest["id"]
    with api_app.state.sessions() as session:
        contest = session.get(Contest, cid)
        jury = session.get(User, frozen_contest["users"]["jury"])
        ana, ben = (session.get(User, frozen_contest["users"][n]) for n in ("ana", "ben"))
        public = clar.ask(session, ana, contest, "Is n >= 1?\nAnd m?", "A", 0, utcnow())
        private = clar.ask(session, ben, contest, "ben's own question", None, 0, utcnow())
        clar.answer(session, jury, public, "Yes, both.", True, utcnow())
        clar.answer(session, jury, private, "ben's own answer", False, utcnow())
        announcement = clar.announce(session, jury, contest, "B: mind the limits.", "B", utcnow())
        return cid, public.id, private.id, announcement.id


def messages(client, cid: int) -> dict[str, dict]:
    reply = client.get(f"/api/ccs/contests/{cid}/clarifications")
    assert reply.status_code == 200, reply.text
    return {m["id"]: m for m in reply.json()}


def test_the_jury_reads_every_message_with_its_teams(jury, clarified, frozen_contest):
    cid, public, private, announcement = clarified
    users = frozen_contest["users"]
    seen = messages(jury, cid)
    assert set(seen) == {str(public), f"{public}-answer", str(private), f"{private}-answer", str(announcement)}
    assert all(ID.match(key) for key in seen)
    assert seen[str(public)]["from_team_id"] == str(users["ana"]) and seen[str(public)]["problem_id"] == "basic"
    assert seen[f"{public}-answer"] == seen[f"{public}-answer"] | {"reply_to_id": str(public), "text": "Yes, both."}
    assert "to_team_id" not in seen[f"{public}-answer"]  # null: to everyone
    assert seen[f"{private}-answer"]["to_team_id"] == str(users["ben"])
    assert seen[str(announcement)]["problem_id"] == "lee" and "from_team_id" not in seen[str(announcement)]
    one = jury.get(f"/api/ccs/contests/{cid}/clarifications/{private}-answer").json()
    assert one == seen[f"{private}-answer"]


def test_the_public_and_a_team_see_only_what_is_theirs(public, clarified, frozen_contest):
    cid, public_q, private, announcement = clarified
    seen = messages(public, cid)
    assert set(seen) == {f"{public_q}-answer", str(announcement)}
    answer = seen[f"{public_q}-answer"]
    assert answer["text"] == "> Is n >= 1?\n> And m?\n\nYes, both."  # the question quoted, not who asked
    assert "reply_to_id" not in answer and "from_team_id" not in answer
    ana = messages(TestClient(public.app, headers=basic("ana")), cid)
    assert set(ana) == {str(public_q), f"{public_q}-answer", str(announcement)}
    assert ana[f"{public_q}-answer"]["reply_to_id"] == str(public_q)
    ben = messages(TestClient(public.app, headers=basic("ben")), cid)
    assert ben[f"{private}-answer"]["text"] == "ben's own answer" and str(public_q) not in ben
    assert public.get(f"/api/ccs/contests/{cid}/clarifications/{private}").status_code == 404


def test_the_feed_sends_a_new_clarification(api_app, clarified, frozen_contest, tmp_path):
    cid = clarified[0]
    poll = snapshots(api_app.state.sessions, cid, ScoreboardView.PUBLIC, None, tmp_path)
    first = poll()
    assert poll() is first
    with api_app.state.sessions() as session:
        contest = session.get(Contest, cid)
        jury = session.get(User, frozen_contest["users"]["jury"])
        new = clar.announce(session, jury, contest, "Ten minutes left.", None, utcnow())
    assert ("clarifications", str(new.id)) in poll()
