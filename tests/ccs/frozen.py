"""A contest run with a freeze, written straight into a judge's database: what the Contest API
tests and the conformance run (``tests/ccs/test_conformance.py``) read."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from judge.auth import create_user
from judge.models import utcnow
from judge.package_store import load_problem

from ..contests.conftest import add_submission, make_contest

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
PASSWORD = "pw-ccs-tests"


def seed_frozen_contest(session) -> dict:
    """An ICPC contest with a public scoreboard, started 90 minutes ago, 120 long, frozen at minute
    60, owned by teacher ``jury`` (admin ``root`` too; every password ``PASSWORD``). ana: WA on A at
    10, AC on A at 20. ben: WA on A at 15, then after the freeze AC on A (70) and the first AC on B
    (75). The jury's own WA on B at 30 stays off the board. Returns the contest id, the ids of the
    two submissions the freeze hides and the user ids by name."""
    for problem in ("basic", "lee"):
        load_problem(session, PROBLEMS / problem)
    ids = {}
    for name, role in (("jury", "teacher"), ("ana", "student"), ("ben", "student"), ("root", "admin")):
        user, _ = create_user(session, name, role, display_name=name.capitalize(), password=PASSWORD)
        ids[name] = user.id
    session.commit()
    contest = make_contest(
        session, ("basic", "lee"), start=utcnow() - timedelta(minutes=90), owner="jury", scoreboard_visibility="public"
    )
    contest.freeze_at = contest.start_at + timedelta(minutes=60)
    session.commit()
    add_submission(session, contest, ids["ana"], "basic", "WA", 10)
    add_submission(session, contest, ids["ana"], "basic", "AC", 20)
    add_submission(session, contest, ids["ben"], "basic", "WA", 15)
    hidden = [
        add_submission(session, contest, ids["ben"], "basic", "AC", 70),
        add_submission(session, contest, ids["ben"], "lee", "AC", 75),
    ]
    add_submission(session, contest, ids["jury"], "lee", "WA", 30, is_jury=True)
    return {"id": contest.id, "hidden": hidden, "users": ids}


def seed_score_contest(session) -> int:
    """An IOI contest (scoreboard type ``score``) beside ``seed_frozen_contest`` (run it first), with a
    public scoreboard, frozen at minute 60: ana scores 40 of 100 on A at minute 5 (2 of 5 tests),
    ben all of A after the freeze. Returns its id."""
    from judge.models import User

    users = {u.name: u.id for u in session.query(User).all()}
    contest = make_contest(
        session,
        (("basic", 100), ("lee", 50)),
        start=utcnow() - timedelta(minutes=90),
        scoring="ioi",
        scoreboard_visibility="public",
        name="Class IOI",
    )
    contest.freeze_at = contest.start_at + timedelta(minutes=60)
    session.commit()
    tests = [("secret", v) for v in ("AC", "AC", "WA", "WA", "TLE")]
    add_submission(session, contest, users["ana"], "basic", "WA", 5, tests=tests)
    add_submission(session, contest, users["ben"], "basic", "AC", 65, tests=[("secret", "AC")] * 5)
    return contest.id
