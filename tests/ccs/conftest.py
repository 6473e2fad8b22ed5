"""A contest run with a freeze, for the Contest API tests: real problem packages (their test counts
and packages are part of the API), accounts with passwords (HTTP Basic), submissions with verdicts
written straight into the database."""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.auth import create_user
from judge.models import utcnow
from judge.package_store import load_problem

from ..contests.conftest import add_submission, make_contest

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
PASSWORD = "pw-ccs-tests"


def basic(name: str, password: str = PASSWORD) -> dict[str, str]:
    """The HTTP Basic header of ``name``."""
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()}


@pytest.fixture
def frozen_contest(api_app):
    """An ICPC contest with a public scoreboard, started 90 minutes ago, 120 long, frozen at minute 60,
    owned by teacher ``jury``. ana: WA on A at 10, AC on A at 20. ben: WA on A at 15, then after the
    freeze AC on A (70) and the first AC on B (75). Returns the contest id and the hidden submission ids."""
    with api_app.state.sessions() as session:
        for problem in ("basic", "lee"):
            load_problem(session, PROBLEMS / problem)
        ids = {}
        for name, role in (("jury", "teacher"), ("ana", "student"), ("ben", "student"), ("root", "admin")):
            user, _ = create_user(session, name, role, display_name=name.capitalize(), password=PASSWORD)
            ids[name] = user.id
        session.commit()
        contest = make_contest(
            session,
            ("basic", "lee"),
            start=utcnow() - timedelta(minutes=90),
            owner="jury",
            scoreboard_visibility="public",
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


@pytest.fixture
def jury(api_app):
    """A client with the teacher's HTTP Basic credentials."""
    return TestClient(api_app, headers=basic("jury"))


@pytest.fixture
def public(api_app):
    """A client without credentials."""
    return TestClient(api_app)
