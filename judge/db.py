"""Database engine and sessions (SQLAlchemy 2), for SQLite and PostgreSQL alike."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, Engine, create_engine, event, literal
from sqlalchemy.orm import InstrumentedAttribute, sessionmaker

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

    A writer that finds the file lock held by another process waits in the kernel (``_FlockWaiter``),
    which wakes it as soon as the holder lets go: within microseconds of the holder's commit, where
    SQLite's own busy handler sleeps up to 100 ms between tries and a poll would let a busy process
    take the lock back before the other looks. ``acquire`` gives up after ``timeout_s``; a process
    that dies lets go of its flock with it.
    """

    def __init__(self, path: str | None):
        self.path = f"{path}-writers.lock" if path else None
        self.threads = threading.Lock()
        self._file: IO[bytes] | None = None
        self._waiter: _FlockWaiter | None = None
        self._pid = 0

    def acquire(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` seconds for the lock; True once held."""
        deadline = time.monotonic() + timeout_s
        if not self.threads.acquire(timeout=timeout_s):
            return False
        if self.path is None:
            return True
        if self._flock().take(max(0.0, deadline - time.monotonic())):
            return True
        self.threads.release()
        return False

    def release(self) -> None:
        """Let the next writer in."""
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self.threads.release()

    def _flock(self) -> _FlockWaiter:
        """This process's own handle of the lock file, in its waiter (a forked child opens its own:
        a shared handle would share the lock, and threads do not survive a fork)."""
        if self._file is None or self._waiter is None or self._pid != os.getpid():
            assert self.path is not None
            self._file = open(self.path, "ab")  # noqa: SIM115 - held for the process's life
            self._waiter, self._pid = _FlockWaiter(self._file), os.getpid()
        return self._waiter


class _FlockWaiter:
    """The exclusive flock on ``file`` for the one writer of the process that wants it at a time
    (``WriterLock.threads`` lets one in): taken at once when free, else by a thread of this process
    that blocks in flock(2), which the kernel ends when the holder lets go, and which the writer can
    give up on, as it cannot on a blocking flock of its own. A lock the thread gets after its writer
    gave up it lets go at once, or hands to the writer waiting by then; while its flock call is
    outstanding no writer takes the lock directly (the lock belongs to the file, not to a thread:
    the thread's call would succeed on it too). The thread is started on first use."""

    def __init__(self, file: IO[bytes]):
        self.file = file
        self.changed = threading.Condition()
        self.wanted = 0  # the ticket of the writer waiting now; 0 for none
        self.granted = 0  # the ticket of the writer the lock was last taken for
        self.tickets = 0
        self.blocked = False  # the thread's flock call is outstanding
        self.thread: threading.Thread | None = None

    def take(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` seconds for the flock; True once this process holds it."""
        with self.changed:
            if not self.blocked:
                try:
                    fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    pass
            if self.thread is None:
                self.thread = threading.Thread(target=self._take_for_writers, name="sqlite-writer-flock", daemon=True)
                self.thread.start()
            self.tickets += 1
            ticket = self.wanted = self.tickets
            self.changed.notify_all()
            if self.changed.wait_for(lambda: self.granted == ticket, timeout_s):
                return True
            self.wanted = 0  # given up: a lock taken later is let go, or handed to the next writer
            return False

    def _take_for_writers(self) -> None:
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.wanted != 0)
                self.blocked = True
            fcntl.flock(self.file, fcntl.LOCK_EX)  # waits in the kernel, without the interpreter lock
            with self.changed:
                self.blocked = False
                if self.wanted:
                    self.granted, self.wanted = self.wanted, 0
                    self.changed.notify_all()
                else:
                    fcntl.flock(self.file, fcntl.LOCK_UN)


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


def one_of(column: ColumnElement[Any] | InstrumentedAttribute[Any], values: Iterable[object]) -> ColumnElement[bool]:
    """SQL condition: ``column`` holds one of the constant ``values``, as one bound parameter each.
    ``column.in_(values)`` would bind them as one expanding parameter, which SQLAlchemy renders anew
    on every execution of a statement compiled once."""
    return column.in_([literal(value, column.type) for value in values])


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
    raises when it refuses (``0015_user_names``: user names that differ only in case).
    """
    from alembic import command

    if url.startswith("sqlite"):
        make_engine(url).dispose()  # creates the folder of the file
    command.upgrade(alembic_config(url), revision)
