"""Database engine and sessions (SQLAlchemy 2), for SQLite and PostgreSQL alike."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
import urllib.parse
import weakref
from collections.abc import Callable, Iterable
from contextlib import closing
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
    turns on WAL so readers never block the writer, with ``synchronous=FULL`` (a commit returns once
    its WAL frames are fsynced). A file's WAL is copied back into it by the engine's ``Checkpointer``
    thread, off every commit's path; a commit checkpoints only past ``WAL_AUTOCHECKPOINT_PAGES``.
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
        path = sqlite_file(url)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        lock = WriterLock(path)
        connect_args = {"timeout": LOCK_TIMEOUT_S, "check_same_thread": False, "factory": writer_connection(lock)}
        engine = create_engine(url, connect_args=connect_args)
        _serialize_sqlite_writers(engine, lock)
        checkpointer = Checkpointer(path) if path is not None else None
        if checkpointer is not None:
            weakref.finalize(engine, checkpointer.stop)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")  # every commit is on disk (the WAL fsynced) once it returns
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(LOCK_TIMEOUT_S * 1000)}")
            cur.close()
            if checkpointer is not None:
                checkpointer.start()

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
# SQLite's default (1000 pages) makes the commit that crosses it copy the WAL into the file and fsync
# it, some 5-20 ms during which every writer of every process waits; the Checkpointer does that
# work instead, and a commit does it only if the WAL outgrows this (about 40 MiB) all the same.
WAL_AUTOCHECKPOINT_PAGES = 10_000
CHECKPOINT_EVERY_S = 0.5  # the Checkpointer's pace


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


def writer_connection(lock: WriterLock) -> type[sqlite3.Connection]:
    """A ``sqlite3.Connection`` class (``sqlite3.connect``'s ``factory``) whose connections give
    ``lock`` back, when they hold it (``writing``), once SQLite has finished their commit or
    rollback, or on close: the next writer then never meets this one's transaction in SQLite, whose
    busy handler would make it sleep 1, 2, 5, 10… ms between tries. (SQLAlchemy's ``commit`` and
    ``rollback`` events come before the driver's call, too early to let go.)"""

    class WriterConnection(sqlite3.Connection):
        writer_lock = lock
        writing = False  # this connection holds ``writer_lock``: taken at its transaction's first write

        def commit(self) -> None:
            self._then_let_go(super().commit)

        def rollback(self) -> None:
            self._then_let_go(super().rollback)

        def close(self) -> None:
            self._then_let_go(super().close)

        def _then_let_go(self, end: Callable[[], None]) -> None:
            try:
                end()
            finally:
                self.let_go()

        def let_go(self) -> None:
            """Give the writer lock back if this connection holds it."""
            if self.writing:
                self.writing = False
                self.writer_lock.release()

    return WriterConnection


def _serialize_sqlite_writers(engine: Engine, lock: WriterLock) -> None:
    """Queue the write transactions of ``engine`` (made with ``writer_connection(lock)``) on
    ``lock`` instead of SQLite's busy handler.

    SQLite lets one writer in at a time and makes the others retry with sleeps of up to 100 ms,
    which under concurrent requests gives long, uneven waits. Here a connection takes the lock at
    its transaction's first write and gives it back once its commit or rollback is done, at close,
    or when it returns to the pool, so waiting writers, of this process or another, are let in in
    turn.
    """

    @event.listens_for(engine, "before_cursor_execute")
    def _take(conn, cursor, statement, _params, _context, _many):
        connection = cursor.connection
        if not connection.writing and statement.lstrip()[:6].upper() in WRITE_STATEMENTS:
            if not lock.acquire(SQLITE_LOCK_TIMEOUT_S):  # as SQLite's own busy timeout would
                raise sqlite3.OperationalError("database is locked (waited for another writer)")
            connection.writing = True

    event.listen(engine.pool, "checkin", lambda dbapi, _record: dbapi.let_go() if dbapi is not None else None)


class Checkpointer:
    """Copies the WAL of the SQLite file at ``path`` back into the file every ``CHECKPOINT_EVERY_S``
    seconds, in a daemon thread with a connection of its own, so that no commit has to (SQLite's
    auto-checkpoint runs inside the commit that crosses its threshold and fsyncs the whole file).

    Each round is a PASSIVE checkpoint (``PRAGMA wal_checkpoint(PASSIVE)``): it copies what no
    reader still needs and waits for no reader or writer, and costs a look at the WAL's index when
    nothing is new; a round that fails (the file busy or gone) is tried again at the next. Durability
    is the commits' own (``synchronous=FULL``): a checkpoint only moves what is already on disk.
    Its connection is open only during a round: the last connection to close still checkpoints the
    whole WAL and removes it, as SQLite does, so a file closed by every engine is whole without its
    WAL. ``start`` starts the thread once per process (a forked child starts its own); ``stop`` ends
    it (the engine's finalizer calls it)."""

    def __init__(self, path: str):
        self.path = path
        self._stopped = threading.Event()
        self._pid = 0

    def start(self) -> None:
        """Start the thread unless this process runs it already, or the checkpointer is stopped."""
        if self._pid == os.getpid() or self._stopped.is_set():
            return
        self._pid = os.getpid()
        threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True).start()

    def stop(self) -> None:
        """End the thread at its next round."""
        self._stopped.set()

    def checkpoint(self, connection: sqlite3.Connection) -> tuple[int, int, int]:
        """One PASSIVE checkpoint on ``connection``: (1 if it could not run now else 0, frames in
        the WAL, frames copied into the file), as SQLite's ``wal_checkpoint`` pragma returns them."""
        busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return busy, frames, copied

    def _run(self) -> None:
        while not self._stopped.wait(CHECKPOINT_EVERY_S):
            try:  # mode=rw: a file removed meanwhile is not made anew
                uri = f"file:{urllib.parse.quote(self.path)}?mode=rw"
                with closing(sqlite3.connect(uri, uri=True, timeout=0)) as connection:
                    self.checkpoint(connection)
            except sqlite3.Error:
                continue  # busy or gone: the next round tries again


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


def sqlite_file(url: str) -> str | None:
    """The file a ``sqlite:///PATH`` URL names, or None for any other URL and for an in-memory
    database."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1]
    return path if path and path != ":memory:" else None


def upgrade(url: str, revision: str = "head") -> None:
    """Apply the Alembic migrations in ``migrations/`` up to ``revision`` (all: ``head``) to the
    database at ``url``.

    Runs while other processes use the database (every CLI command upgrades first, a server may be
    reading): a SQLite file's WAL is left to its checkpoints, so copy a live file with SQLite
    (``VACUUM INTO``, the backup API), never as bytes.

    Raises alembic/SQLAlchemy errors when the database cannot be reached, and what a migration
    raises when it refuses (``0015_user_names``: user names that differ only in case).
    """
    from alembic import command

    if url.startswith("sqlite"):
        make_engine(url).dispose()  # creates the folder of the file
    command.upgrade(alembic_config(url), revision)
