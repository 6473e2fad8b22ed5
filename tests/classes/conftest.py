"""Helpers of the class tests: teachers with classes over the API (the contest tests' helpers write
problems and judge submissions straight into the database)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import logged_in_client
from tests.contests import conftest as contest_helpers


@pytest.fixture
def app_db(api_app):
    """A session on the database of the ``api_app`` fixture (SQLite)."""
    with api_app.state.sessions() as session:
        yield session


def log_in(app, name: str, password: str) -> TestClient:
    """A TestClient signed in through ``POST /api/v1/auth/token``, as a student would."""
    client = TestClient(app)
    reply = client.post("/api/v1/auth/token", data={"username": name, "password": password})
    assert reply.status_code == 200, reply.text
    client.headers["Authorization"] = f"Bearer {reply.json()['access_token']}"
    return client


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
