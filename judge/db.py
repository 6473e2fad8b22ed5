"""Database engine and sessions (SQLAlchemy 2), for SQLite and PostgreSQL alike."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import sessionmaker

from judge import board
from judge.config import REPO_ROOT

if TYPE_CHECKING:
    from alembic.config import Config


def make_engine(url: str, *, ping: bool = True) -> Engine:
    """Create an engine for ``url``.

    SQLite: creates the parent folder, queues writers of every process on one ``WriterLock`` (up to
    ``SQLITE_LOCK_TIMEOUT_S``), keeps SQLite's busy timeout of ``LOCK_TIMEOUT_S`` for anyone else, and
    turns on WAL so readers never block the writer.
    PostgreSQL: a statement waits up to ``LOCK_TIMEOUT_S`` for a lock, then fails (OperationalError).
    The pool keeps up to ``POOL_SIZE`` connections open between uses (one per thread of the API's
    thread pool) and opens at most ``POOL_OVERFLOW`` more at once. A connection is replaced once it
    is ``RECYCLE_S`` old. ``ping``: each checkout first tests the connection with a round trip and
    replaces it if the server dropped it (a worker, whose failed write would become a wrong verdict).
    Without it (the API) a request on a dropped connection fails with OperationalError (the API
    answers 503, nothing stored) and SQLAlchemy then discards every connection the pool held before,
    so the next request connects anew.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        on_disk = bool(path) and path != ":memory:"
        if on_disk:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": LOCK_TIMEOUT_S, "check_same_thread": False})
        _serialize_sqlite_writers(engine, path if on_disk else None)

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
    return create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
        pool_recycle=RECYCLE_S,
        pool_pre_ping=ping,
        connect_args={"options": options},
    )


# A connection given back to a full pool is closed, and a PostgreSQL connection costs a server
# process to open (SQLite keeps SQLAlchemy's pool: its connections are cheap to open): the pool
# keeps one per thread that may hold one, anyio's default thread pool (40) running the API's routes;
# the overflow covers the event streams' polls and a request that holds its session between two of
# its thread hops.
POOL_SIZE = 40
POOL_OVERFLOW = 10
RECYCLE_S = 1800  # a connection's longest life (s): before a firewall or server idle timeout cuts it
WRITE_STATEMENTS = ("INSERT", "UPDATE", "DELETE", "REPLAC")
LOCK_TIMEOUT_S = 30  # the longest a statement waits for another transaction's lock (s)
SQLITE_LOCK_TIMEOUT_S = LOCK_TIMEOUT_S  # the wait for another writer of the same SQLite file (s)


class WriterLock:
    """One writer at a time to a SQLite file, across the threads of a process and, through an
    exclusive ``flock`` on ``<file>-writers.lock`` (flock(2)), across every process on the host that
    opens the file through ``make_engine`` (API processes, workers, the CLI).

    A waiting writer is let in within about a millisecond of the holder's commit, where SQLite's own
    busy handler sleeps up to 100 ms between tries. ``acquire`` gives up after ``timeout_s``; a
    process that dies lets go of its flock with it.
    """

    POLL_S = 0.001  # how often a writer of another process looks whether the file lock is free

    def __init__(self, path: str | None):
        self.path = f"{path}-writers.lock" if path else None
        self.threads = threading.Lock()
        self._file: IO[bytes] | None = None
        self._pid = 0

    def acquire(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` seconds for the lock; True once held."""
        deadline = time.monotonic() + timeout_s
        if not self.threads.acquire(timeout=timeout_s):
            return False
        if self.path is None:
            return True
        lock_file = self._opened()
        while True:
            try:
                fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self.threads.release()
                    return False
                time.sleep(self.POLL_S)

    def release(self) -> None:
        """Let the next writer in."""
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self.threads.release()

    def _opened(self) -> IO[bytes]:
        """This process's own handle of the lock file (a forked child opens its own: a shared handle
        would share the lock)."""
        if self._file is None or self._pid != os.getpid():
            assert self.path is not None
            self._file, self._pid = open(self.path, "ab"), os.getpid()  # noqa: SIM115 - held for the process's life
        return self._file


def _serialize_sqlite_writers(engine: Engine, path: str | None) -> None:
    """Queue write transactions to the SQLite file ``path`` on a ``WriterLock`` instead of SQLite's
    busy handler (None: a database in memory, one process).

    SQLite lets one writer in at a time and makes the others retry with sleeps of up to 100 ms,
    which under concurrent requests gives long, uneven waits. Here a thread takes the lock at its
    transaction's first write and gives it back at commit, rollback or when the connection returns
    to the pool, so waiting writers, of this process or another, are let in in turn.
    """
    lock = WriterLock(path)

    @event.listens_for(engine, "before_cursor_execute")
    def _take(conn, _cursor, statement, _params, _context, _many):
        if not conn.info.get("writing") and statement.lstrip()[:6].upper() in WRITE_STATEMENTS:
            if not lock.acquire(SQLITE_LOCK_TIMEOUT_S):  # as SQLite's own busy timeout would
                raise sqlite3.OperationalError("database is locked (waited for another writer)")
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


def alembic_config(url: str) -> Config:
    """The Alembic configuration of ``migrations/`` for the database at ``url``."""
    from alembic.config import Config

    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Apply the Alembic migrations in ``migrations/`` up to ``revision`` (all: ``head``) to the
    database at ``url``.

    Raises alembic/SQLAlchemy errors when the database cannot be reached, and what a migration
    raises when it refuses (``0014_user_names``: user names that differ only in case).
    """
    from alembic import command

    if url.startswith("sqlite"):
        make_engine(url).dispose()  # creates the folder of the file
    command.upgrade(alembic_config(url), revision)
