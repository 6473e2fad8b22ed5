"""Fixtures of the hostile tests: the API on SQLite and PostgreSQL, and the API served by a real
uvicorn on a free port (what streams, concurrency and the CLI need: TestClient reads a streamed
response only once it has ended)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from ..conftest import make_account
from ..contests.conftest import add_problems


@pytest.fixture
def any_db_app(database_url, tmp_path, monkeypatch):
    """The API app on a fresh database of each kind (``database_url``: SQLite, then PostgreSQL when
    reachable), with problem rows ``lee`` and ``basic``, no rate limit, 50 ms stream polls and cheap Argon2."""
    from argon2 import PasswordHasher, profiles

    from judge.api import create_app
    from judge.config import Settings

    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "0")
    monkeypatch.setenv("JUDGE_MIN_POLL_S", "0.05")  # the tests' streams poll fast
    monkeypatch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
    app = create_app(
        Settings(database_url=database_url, problems_dir=tmp_path / "problems", work_dir=tmp_path / "work")
    )
    with app.state.sessions() as session:
        add_problems(session, "lee", "basic")
    yield app
    app.state.engine.dispose()


def client_of(app, name: str | None = None, role: str = "student") -> TestClient:
    """A TestClient that returns 500s instead of raising them (a test asserts there are none),
    logged in as a new account ``name`` (its id in ``client.user_id``) unless ``name`` is None."""
    client = TestClient(app, raise_server_exceptions=False)
    if name is not None:
        client.user_id, headers = make_account(app, name, role)
        client.headers.update(headers)
    return client


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(app):
    """Serve ``app`` with uvicorn in a thread, configured as ``judge serve`` does; yields its base
    URL (``http://127.0.0.1:PORT``)."""
    import uvicorn

    from judge.serving import server_config

    port = _free_port()
    config = server_config(app, app.state.settings, "127.0.0.1", port, log_level="warning")
    config.timeout_graceful_shutdown = 2
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def tess_contest(app, starts_in_min: float, problems: dict[str, str], **fields) -> int:
    """A one-hour contest of the teacher ``tess`` (``tests.web.test_teacher_http``'s ``app``) starting
    ``starts_in_min`` minutes from now (negative: running), with ``problems`` by letter and any other
    ``ContestSpec`` ``fields``; its id."""
    from datetime import timedelta

    from sqlalchemy import select

    from judge.clock import utcnow
    from judge.contests import ContestSpec, ProblemEntry, create_contest
    from judge.models import User

    start = utcnow() + timedelta(minutes=starts_in_min)
    entries = [ProblemEntry(letter, problem) for letter, problem in problems.items()]
    with app.state.sessions() as session:
        tess = session.scalar(select(User).where(User.name == "tess"))
        spec = ContestSpec(name="Lab", start_at=start, end_at=start + timedelta(hours=1), problems=entries, **fields)
        contest = create_contest(session, spec, owner=tess).id
        session.commit()
    return contest
