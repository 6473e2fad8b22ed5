"""Shared fixtures: a migrated database on SQLite and, when reachable, on PostgreSQL.

PostgreSQL tests create their own database (``judge_test_<random>``) on 127.0.0.1:5432 and drop it
afterwards, leaving nothing behind; a migrated one is a copy of a database migrated once per run.
``JUDGE_TEST_POSTGRES_URL`` overrides the server
(default ``postgresql+psycopg://postgres@127.0.0.1:5432``); where no server answers those tests are
skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.slots import XDIST_WORKER

if XDIST_WORKER:  # each pytest-xdist worker keeps its scratch folders (JUDGE_WORK_DIR) apart
    _work = os.environ.get("JUDGE_WORK_DIR") or os.path.join(tempfile.gettempdir(), "classjudge")
    os.environ["JUDGE_WORK_DIR"] = os.path.join(_work, XDIST_WORKER)

PG_SERVER = os.environ.get("JUDGE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432")


def _pg_admin():
    import psycopg

    dsn = PG_SERVER.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    return psycopg.connect(dsn, autocommit=True, connect_timeout=3)


@contextmanager
def _new_postgres_database(template: str | None = None) -> Iterator[str]:
    """A new PostgreSQL database (a copy of the database ``template``, if given), dropped on
    leaving; yields its URL. Skips the test where no server answers."""
    try:
        admin = _pg_admin()
    except Exception as exc:  # no server here
        pytest.skip(f"PostgreSQL not reachable at {PG_SERVER}: {exc}")
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with _pg_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url():
    """URL of a fresh PostgreSQL database, dropped after the test."""
    with _new_postgres_database() as url:
        yield url


@pytest.fixture(scope="session")
def migrated_postgres_template():
    """Name of a PostgreSQL database migrated once per test run (dropped at its end); tests get
    copies of it (``CREATE DATABASE … TEMPLATE``), which is quicker than migrating each. Nothing
    connects to it after the migration, as a template requires."""
    from judge.db import upgrade

    with _new_postgres_database() as url:
        upgrade(url)
        yield url.rsplit("/", 1)[1]


@pytest.fixture
def sqlite_url(tmp_path):
    """URL of a fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'judge.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, migrated database of each kind (the database-facing tests run on both): a copy of
    the run's migrated SQLite file, or of its migrated PostgreSQL database."""
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("migrated_sqlite_file"), tmp_path / "judge.db")
        yield f"sqlite:///{tmp_path / 'judge.db'}"
        return
    with _new_postgres_database(request.getfixturevalue("migrated_postgres_template")) as url:
        yield url


# -- the API with accounts (issue #5): every endpoint but public statements needs a bearer token -------
def make_account(app, name: str, role: str = "student", password: str = "pw-" + "x" * 8):
    """Create an account directly in ``app``'s database; returns (user id, bearer headers)."""
    from judge.auth import create_user, issue_token

    with app.state.sessions() as session:
        user, _ = create_user(session, name, role, password=password)
        token, _ = issue_token(session, user)
        return user.id, {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="session")
def migrated_sqlite_file(tmp_path_factory):
    """A SQLite file migrated once per test run; tests copy it (a migration takes about a second).
    It is written by ``VACUUM INTO``, so the file alone holds the whole database: the migrated
    file's WAL may still hold pages while a checkpoint round keeps a connection open."""
    import sqlite3
    from contextlib import closing

    from judge.db import upgrade

    folder = tmp_path_factory.mktemp("template")
    upgrade(f"sqlite:///{folder / 'migrating.db'}")
    with closing(sqlite3.connect(folder / "migrating.db")) as connection:
        connection.execute("VACUUM INTO ?", (str(folder / "judge.db"),))
    return folder / "judge.db"


@pytest.fixture
def api_app(migrated_sqlite_file, tmp_path, monkeypatch):
    """The API app on a fresh, migrated SQLite database, with no submission rate limit (the tests of
    the limit set their own), streams that may poll every 50 ms and the cheapest Argon2 parameters
    (the real ones take half a second per hash). ``app.state.sessions`` opens sessions on its database."""
    from argon2 import PasswordHasher, profiles

    from judge.api import create_app
    from judge.config import Settings

    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "0")
    monkeypatch.setenv("JUDGE_MIN_POLL_S", "0.05")  # the tests' streams poll fast
    monkeypatch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
    shutil.copyfile(migrated_sqlite_file, tmp_path / "judge.db")
    return create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'judge.db'}",
            problems_dir=tmp_path / "problems",
            work_dir=tmp_path / "work",
        )
    )


def logged_in_client(app, name: str, role: str):
    """A TestClient of ``app`` with the bearer token of a new account (its id in ``client.user_id``)."""
    from fastapi.testclient import TestClient

    client = TestClient(app)
    client.user_id, headers = make_account(app, name, role)
    client.headers.update(headers)
    return client


@pytest.fixture
def api_client(api_app):
    """A TestClient logged in as the student ``student1`` (its id in ``api_client.user_id``)."""
    return logged_in_client(api_app, "student1", "student")


@pytest.fixture
def teacher_client(api_app):
    """A TestClient logged in as the teacher ``teacher1`` (its id in ``teacher_client.user_id``)."""
    return logged_in_client(api_app, "teacher1", "teacher")
