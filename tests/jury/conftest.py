"""The jury tests' fixtures: ``db``, a session on a fresh migrated database, SQLite and PostgreSQL
(the contests tests' own)."""

from tests.contests.conftest import db  # noqa: F401
