"""Findings of the hostile review whose fix lay outside the API's validation layer (rules in
``judge.contests``, accounts in ``judge.auth``), now fixed: practice submissions to a running
contest's problem, and user names ending in a newline."""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.auth import AccountError, create_user
from judge.models import utcnow

from ..contests.conftest import add_problems, make_contest
from .conftest import client_of


def test_a_running_contests_problem_takes_no_practice_submissions_from_its_participants(api_app):
    ana, ben = client_of(api_app, "ana"), client_of(api_app, "ben")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
        make_contest(session, problems=["lee"], start=utcnow() - timedelta(minutes=5), participants=["ana"])
    body = {"problem": "lee", "language": "python3", "source": "print(1)"}  # no "contest": practice
    assert ana.post("/api/v1/submissions", json=body).status_code == 403  # a participant, dodging the penalty
    assert ben.post("/api/v1/submissions", json=body).status_code == 202  # not in the contest: practises it
    assert "running contest" in ana.post("/api/v1/submissions", json=body).json()["detail"]


def test_a_user_name_with_a_trailing_newline_is_no_name(api_app):
    with api_app.state.sessions() as session:
        with pytest.raises(AccountError):
            create_user(session, "zed\n", password="pw-12345")
