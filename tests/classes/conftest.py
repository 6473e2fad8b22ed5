"""Helpers of the class tests: teachers with classes over the API (the contest tests' helpers write
problems and judge submissions straight into the database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.conftest import logged_in_client
from tests.contests import conftest as contest_helpers
from tests.contests.test_teacher_api import log_in

__all__ = ["log_in", "make_class", "running_contest"]


@pytest.fixture
def app_db(api_app):
    """A session on the database of the ``api_app`` fixture (SQLite)."""
    with api_app.state.sessions() as session:
        yield session


def running_contest(teacher: TestClient, name: str, problems: list[str], **fields) -> dict:
    """A contest of ``teacher`` over the API that started a minute ago and runs two hours, with
    ``problems`` as A, B, …; ``fields`` as in ``POST /api/v1/contests`` (``classes``, ``participants`` …)."""
    start = datetime.now(UTC) - timedelta(minutes=1)
    reply = teacher.post(
        "/api/v1/contests",
        json={
            "name": name,
            "start_at": start.isoformat(),
            "end_at": (start + timedelta(hours=2)).isoformat(),
            "problems": [{"problem": p} for p in problems],
        }
        | fields,
    )
    assert reply.status_code == 201, reply.text
    return reply.json()


def make_class(teacher: TestClient, name: str, *students: str) -> tuple[int, dict[str, str]]:
    """A class of ``teacher`` holding new students ``students`` (through the class-list import);
    returns its id and each student's generated password."""
    reply = teacher.post("/api/v1/classes", json={"name": name})
    assert reply.status_code == 201, reply.text
    class_id = reply.json()["id"]
    reply = teacher.post(f"/api/v1/classes/{class_id}/import", json=[{"name": s} for s in students])
    assert reply.status_code == 201, reply.text
    return class_id, {c["user"]["name"]: c["password"] for c in reply.json()["created"]}


@pytest.fixture
def second_teacher(api_app):
    """A TestClient logged in as the teacher ``teacher2``."""
    return logged_in_client(api_app, "teacher2", "teacher")


@pytest.fixture
def admin_client(api_app):
    """A TestClient logged in as the admin ``boss``."""
    return logged_in_client(api_app, "boss", "admin")


db = contest_helpers.db  # the fixture: a session on a fresh database, SQLite and PostgreSQL
