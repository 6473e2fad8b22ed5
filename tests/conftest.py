"""Shared fixtures: a migrated database on SQLite and, when reachable, on PostgreSQL.

PostgreSQL tests create their own database (``judge_test_<random>``) on 127.0.0.1:5432 and drop it
afterwards, leaving nothing behind. ``JUDGE_TEST_POSTGRES_URL`` overrides the server
(default ``postgresql+psycopg://postgres@127.0.0.1:5432``); where no server answers those tests are
skipped with the reason.
"""
from __future__ import annotations

import os
import uuid

import pytest

PG_SERVER = os.environ.get("JUDGE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432")


def _pg_admin():
    import psycopg

    dsn = PG_SERVER.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    return psycopg.connect(dsn, autocommit=True, connect_timeout=3)


@pytest.fixture
def postgres_url():
    """URL of a fresh PostgreSQL database, dropped after the test."""
    try:
        admin = _pg_admin()
    except Exception as exc:  # no server here
        pytest.skip(f"PostgreSQL not reachable at {PG_SERVER}: {exc}")
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with _pg_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path):
    """URL of a fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'judge.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request):
    """A fresh, migrated database of each kind (the database-facing tests run on both)."""
    from judge.db import upgrade

    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    upgrade(url)
    return url
