"""A teacher's import does not stop the class, and a busy database answers 503, never 500.

Importing a class once hashed each password inside the import's transaction: on SQLite the write
lock was held for the whole import (about a minute for 150 accounts), a submission made meanwhile
waited 30 s, got 500 "database is locked" and was lost, and logins took 25 s. Here the passwords are
hashed before the transaction, and a lock held too long (by anyone) is 503 with ``Retry-After`` and
nothing stored. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from judge.models import Submission, User

from ..conftest import make_account
from .conftest import served

BURST = 10


class SlowHasher:
    """The tests' cheap hasher made slow (as Argon2 is under load), calling ``during`` once, from
    inside the ``at``-th hash: while the import is still hashing."""

    def __init__(self, cheap, during, at: int = 3):
        self.cheap, self.during, self.at, self.calls = cheap, during, at, 0

    def hash(self, password: str) -> str:
        self.calls += 1
        if self.calls == self.at:
            self.during()
        threading.Event().wait(0.05)
        return self.cheap.hash(password)

    def __getattr__(self, name):
        return getattr(self.cheap, name)


def test_an_import_and_a_burst_of_submissions_at_once(any_db_app, monkeypatch):
    import judge.auth

    names = [f"s{i}" for i in range(5)]
    headers = {name: make_account(any_db_app, name)[1] for name in names}
    _, teacher = make_account(any_db_app, "tess", "teacher")
    burst: dict = {}

    with served(any_db_app) as url:

        def submit(i: int) -> tuple[int, int | None, str]:
            source = f"print({i})"
            with httpx.Client(base_url=url, timeout=60) as client:
                reply = client.post(
                    "/api/v1/submissions",
                    headers=headers[names[i % len(names)]],
                    json={"problem": "basic", "language": "python3", "source": source},
                )
            return reply.status_code, reply.json().get("id"), source

        def log_in() -> int:
            with httpx.Client(base_url=url, timeout=60) as client:
                form = {"username": "s0", "password": "pw-" + "x" * 8}  # tests/conftest.make_account
                return client.post("/api/v1/auth/token", data=form).status_code

        def during_the_import() -> None:
            with ThreadPoolExecutor(BURST + 1) as pool:
                futures = [pool.submit(submit, i) for i in range(BURST)]
                login = pool.submit(log_in)
                burst["replies"] = [f.result(timeout=20) for f in futures]  # raises if they wait for the import
                burst["login"] = login.result(timeout=20)

        monkeypatch.setattr(judge.auth, "_hasher", SlowHasher(judge.auth._hasher, during_the_import))
        accounts = [{"name": f"new{i}", "display_name": f"New {i}"} for i in range(150)]
        with httpx.Client(base_url=url, timeout=120) as client:
            imported = client.post("/api/v1/users/import", headers=teacher, json=accounts)
    assert imported.status_code == 201, imported.text
    assert len(imported.json()) == 150 and all(a["password"] for a in imported.json())
    replies = burst["replies"]
    assert burst["login"] == 200  # a login writes its token: it once waited 25 s for the import
    assert [status for status, _, _ in replies] == [202] * BURST, replies
    with any_db_app.state.sessions() as session:
        stored = {s.id: s.source for s in session.scalars(select(Submission))}
        assert session.scalar(select(func.count()).select_from(User).where(User.name.like("new%"))) == 150
    assert stored == {sid: source for _, sid, source in replies}  # every accepted one, nothing else


def _hold_write_lock(database_url: str) -> Callable[[], None]:
    """Open a transaction that holds the lock a submission's insert needs; returns its release."""
    holder: Any
    if database_url.startswith("sqlite"):
        holder = sqlite3.connect(database_url.split("///", 1)[1], isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # SQLite's one write lock
    else:
        import psycopg

        from ..conftest import PG_SERVER

        holder = psycopg.connect(database_url.replace(PG_SERVER.split("://")[0] + "://", "postgresql://"))
        holder.execute("LOCK TABLE submissions IN EXCLUSIVE MODE")

    def release() -> None:
        holder.rollback()
        holder.close()

    return release


def test_a_locked_database_answers_503_with_retry_after_and_stores_nothing(database_url, tmp_path, monkeypatch, caplog):
    import judge.db
    from judge.api import create_app
    from judge.config import Settings

    from ..contests.conftest import add_problems

    monkeypatch.setattr(judge.db, "LOCK_TIMEOUT_S", 0.5)
    monkeypatch.setattr(judge.db, "SQLITE_LOCK_TIMEOUT_S", 0.5)
    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "0")
    app = create_app(Settings(database_url=database_url, problems_dir=tmp_path, work_dir=tmp_path / "work"))
    with app.state.sessions() as session:
        add_problems(session, "basic")
    _, student = make_account(app, "ana")
    from fastapi.testclient import TestClient

    client = TestClient(app, raise_server_exceptions=False)
    body = {"problem": "basic", "language": "python3", "source": "print(1)"}
    release = _hold_write_lock(database_url)
    try:
        with caplog.at_level(logging.WARNING):
            busy = client.post("/api/v1/submissions", headers=student, json=body)
    finally:
        release()
    assert busy.status_code == 503, busy.text
    assert int(busy.headers["retry-after"]) > 0 and "try again" in busy.json()["detail"]
    assert not [r for r in caplog.records if r.exc_info]  # one line, no traceback
    again = client.post("/api/v1/submissions", headers=student, json=body)
    assert again.status_code == 202
    with app.state.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 1
    app.state.engine.dispose()


def test_the_cli_import_hashes_before_it_takes_the_write_lock(tmp_path, monkeypatch):
    """While the CLI hashes the class's passwords, another process can still write at once."""
    import judge.auth
    from judge.cli import app as cli
    from judge.db import upgrade

    url = f"sqlite:///{tmp_path / 'judge.db'}"
    upgrade(url)
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    writes: list[bool] = []

    def write_from_elsewhere() -> None:
        other = sqlite3.connect(tmp_path / "judge.db", timeout=0.2, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            writes.append(True)
        except sqlite3.OperationalError:
            writes.append(False)
        finally:
            other.close()

    hasher = SlowHasher(judge.auth._hasher, write_from_elsewhere, at=2)
    hasher.cheap = __import__("argon2").PasswordHasher.from_parameters(__import__("argon2").profiles.CHEAPEST)
    monkeypatch.setattr(judge.auth, "_hasher", hasher)
    (tmp_path / "class.csv").write_text("name,display name\n" + "".join(f"u{i},U {i}\n" for i in range(5)))
    result = CliRunner().invoke(cli, ["user", "import", str(tmp_path / "class.csv")])
    assert result.exit_code == 0, result.output
    assert writes == [True]


@pytest.fixture(autouse=True)
def _no_rate_limit(monkeypatch):
    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "0")
