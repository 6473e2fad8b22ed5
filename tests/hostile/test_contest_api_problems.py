"""Findings of the hostile review of the Contest API (``/api/ccs``): a contest that has not started
shows no problems, even one its problem set shares with a running contest (whose statement is
public), and its scoreboard answers (no 500) for every caller."""

from __future__ import annotations

import base64

import pytest
from fastapi.testclient import TestClient

from judge.models import Submission, TestResult
from tests.web import test_teacher_http as teacher_pages

from .conftest import tess_contest

app = teacher_pages.app  # the fixture: lee and queens, the teachers tess and tom, the students ana and bob


def basic(name: str) -> dict[str, str]:
    """HTTP Basic headers of ``name`` (the fixture's password)."""
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{teacher_pages.PASSWORD}".encode()).decode()}


@pytest.mark.parametrize("caller", [None, "ana", "tom"])  # the public, a student, another teacher
def test_a_future_contest_shows_no_problems_it_shares_with_a_running_one(app, caller):
    tess_contest(app, -30, {"A": "queens"})
    future = tess_contest(app, 60, {"A": "queens", "B": "lee"}, scoreboard_visibility="public")
    client = TestClient(app, raise_server_exceptions=False)
    headers = basic(caller) if caller else {}
    problems = client.get(f"/api/ccs/contests/{future}/problems", headers=headers)
    assert problems.status_code == 200 and problems.json() == []
    board = client.get(f"/api/ccs/contests/{future}/scoreboard", headers=headers)
    assert board.status_code == 200
    assert all(row["problems"] == [] for row in board.json()["rows"])
    jury = client.get(f"/api/ccs/contests/{future}/problems", headers=basic("tess"))
    assert [p["label"] for p in jury.json()] == ["A", "B"]  # its own teacher sees them


def test_a_judgements_max_run_time_shows_no_secret_tests_time_to_the_public(app):
    """A program can spell a secret input through its CPU time: the overall time is the maximum over
    every test, so outside the jury it is the maximum over the tests whose times the viewer sees
    (``judge.contests.shown_figures``), as on the submission page."""
    contest = tess_contest(app, -30, {"A": "lee"}, scoreboard_visibility="public")
    submission = teacher_pages.judged(app, "bob", contest, "AC")
    with app.state.sessions() as session:
        row = session.get(Submission, submission)
        row.attempt, row.time_ms, row.memory_kib = 1, 777, 2048  # 777 ms on a secret test
        session.add_all(
            [
                TestResult(
                    submission_id=row.id,
                    attempt=1,
                    ordinal=1,
                    test_name="1",
                    test_group="sample",
                    verdict="AC",
                    time_ms=5,
                    wall_ms=6,
                    memory_kib=1024,
                ),
                TestResult(
                    submission_id=row.id,
                    attempt=1,
                    ordinal=2,
                    test_name="secret-1",
                    test_group="secret",
                    verdict="AC",
                    time_ms=777,
                    wall_ms=800,
                    memory_kib=2048,
                ),
            ]
        )
        session.commit()
    client = TestClient(app, raise_server_exceptions=False)
    for headers in ({}, basic("ana"), basic("tom")):
        judgements = client.get(f"/api/ccs/contests/{contest}/judgements", headers=headers).json()
        assert [j.get("max_run_time") for j in judgements] == [0.005]
    jury = client.get(f"/api/ccs/contests/{contest}/judgements", headers=basic("tess")).json()
    assert [j.get("max_run_time") for j in jury] == [0.777]
