"""Database engine and sessions (SQLAlchemy 2), for SQLite and PostgreSQL alike."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import sessionmaker

from judge import board
from judge.config import REPO_ROOT


def make_engine(url: str) -> Engine:
    """Create an engine for ``url``.

    SQLite: creates the parent folder, waits up to ``LOCK_TIMEOUT_S`` on a locked database (several
    worker processes share one file), and turns on WAL so readers never block the writer.
    PostgreSQL: a statement waits up to ``LOCK_TIMEOUT_S`` for a lock, then fails (OperationalError).
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": LOCK_TIMEOUT_S, "check_same_thread": False})
        _serialize_sqlite_writers(engine)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(LOCK_TIMEOUT_S * 1000)}")
            cur.close()

        return engine
    # a lock wait ends after LOCK_TIMEOUT_S with an error (the API answers 503) instead of never
    options = f"-c lock_timeout={int(LOCK_TIMEOUT_S * 1000)}"
    return create_engine(url, pool_pre_ping=True, connect_args={"options": options})


WRITE_STATEMENTS = ("INSERT", "UPDATE", "DELETE", "REPLAC")
LOCK_TIMEOUT_S = 30  # the longest a statement waits for another transaction's lock (s)
SQLITE_LOCK_TIMEOUT_S = LOCK_TIMEOUT_S  # the wait for this process's other writer (s)


def _serialize_sqlite_writers(engine: Engine) -> None:
    """Queue this process's write transactions on a lock instead of SQLite's busy handler.

    SQLite lets one writer in at a time and makes the others retry with sleeps of up to 100 ms,
    which under concurrent requests gives long, uneven waits. Here a thread takes the engine's lock
    at its transaction's first write and gives it back at commit, rollback or when the connection
    returns to the pool, so waiting writers are woken in turn. Other processes (workers) still meet
    SQLite's busy handler.
    """
    lock = threading.Lock()

    @event.listens_for(engine, "before_cursor_execute")
    def _take(conn, _cursor, statement, _params, _context, _many):
        if not conn.info.get("writing") and statement.lstrip()[:6].upper() in WRITE_STATEMENTS:
            if not lock.acquire(timeout=SQLITE_LOCK_TIMEOUT_S):  # as SQLite's own busy timeout would
                raise sqlite3.OperationalError("database is locked (waited for this process's other writer)")
            conn.info["writing"] = True

    def _give_back(info: dict) -> None:
        if info.pop("writing", False):
            lock.release()

    event.listen(engine, "commit", lambda conn: _give_back(conn.info))
    event.listen(engine, "rollback", lambda conn: _give_back(conn.info))
    event.listen(engine.pool, "checkin", lambda _dbapi, record: _give_back(record.info) if record else None)


def make_sessionmaker(engine: Engine) -> sessionmaker:
    """A session factory whose objects stay readable after commit and whose sessions keep the
    scoreboard's summary rows (``judge.board.keep``)."""
    return board.keep(sessionmaker(engine, expire_on_commit=False))


def upgrade(url: str) -> None:
    """Apply every Alembic migration in ``migrations/`` to the database at ``url``.

    Raises alembic/SQLAlchemy errors when the database cannot be reached.
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if url.startswith("sqlite"):
        make_engine(url).dispose()  # creates the folder of the file
    command.upgrade(cfg, "head")
