"""SQLite writers queue on one lock (judge.db.WriterLock), shared by the threads of a process and by
processes, given back once SQLite has committed or rolled back, or at close; each file's WAL is
checkpointed by a thread of its own (judge.db.Checkpointer), off the commits."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

import judge.db
from judge.db import make_engine, make_sessionmaker


@pytest.fixture
def sessions(sqlite_url, monkeypatch):
    monkeypatch.setattr(judge.db, "SQLITE_LOCK_TIMEOUT_S", 0.3)  # the engine's own busy timeout stays 30 s
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    return make_sessionmaker(engine)


def _write_from_another_thread(sessions, value: int) -> Exception | None:
    error: list[Exception] = []

    def write():
        try:
            with sessions() as s:
                s.execute(text(f"INSERT INTO t VALUES ({value})"))
                s.commit()
        except Exception as exc:
            error.append(exc)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(20)
    return error[0] if error else None


def test_a_second_writer_waits_on_the_process_lock_not_on_sqlite(sessions):
    with sessions() as first:
        first.execute(text("INSERT INTO t VALUES (1)"))
        error = _write_from_another_thread(sessions, 2)
        assert isinstance(error, OperationalError) and "other writer" in str(error)
        first.commit()
    assert _write_from_another_thread(sessions, 3) is None


def test_commit_rollback_close_and_failed_statements_give_the_lock_back(sessions):
    with sessions() as abandoned:  # closed without commit
        abandoned.execute(text("INSERT INTO t VALUES (1)"))
    assert _write_from_another_thread(sessions, 2) is None
    failed = sessions()
    with pytest.raises(OperationalError):
        failed.execute(text("INSERT INTO no_such_table VALUES (1)"))
    failed.rollback()
    failed.close()
    assert _write_from_another_thread(sessions, 3) is None
    with sessions() as s:
        s.execute(text("UPDATE t SET x = x + 10"))
        s.rollback()
        assert _write_from_another_thread(sessions, 4) is None
        assert sorted(s.scalars(text("SELECT x FROM t")).all()) == [2, 3, 4]


HOLDER = """
import sys
from sqlalchemy import text
from judge.db import make_engine, make_sessionmaker
with make_sessionmaker(make_engine(sys.argv[1]))() as s:
    s.execute(text("INSERT INTO t VALUES (7)"))
    print("holding", flush=True)
    sys.stdin.readline()
    s.commit()
"""


def test_a_writer_of_another_process_is_waited_for_on_the_shared_lock(sessions, sqlite_url):
    """Another process's open write transaction makes this one wait on the file lock (0.3 s here),
    not on SQLite's 30 s busy timeout; once it commits, this process writes at once."""
    import subprocess
    import sys

    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, sqlite_url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        error = _write_from_another_thread(sessions, 8)
        assert isinstance(error, OperationalError) and "another writer" in str(error)
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(30)
    assert holder.returncode == 0
    assert _write_from_another_thread(sessions, 9) is None
    with sessions() as s:
        assert sorted(s.scalars(text("SELECT x FROM t"))) == [7, 9]


def _server_sessions(url: str) -> int:
    """Sessions the PostgreSQL server has opened so far in the database of ``url`` (pg_stat_database)."""
    admin = make_engine(url.rsplit("/", 1)[0] + "/postgres")
    with admin.connect() as conn:
        conn.execute(text("SELECT pg_stat_clear_snapshot()"))
        count = conn.scalar(
            text("SELECT sessions FROM pg_stat_database WHERE datname = :d"), {"d": url.rsplit("/", 1)[1]}
        )
    admin.dispose()
    return int(count or 0)


def test_connections_of_as_many_threads_as_the_api_runs_are_kept_for_reuse(postgres_url):
    """A connection given back is kept open for the next user, up to judge.db.POOL_SIZE of them at
    once: 16 threads that each use a connection twice make the server open 16 sessions, not more."""
    engine = make_engine(postgres_url, ping=False)
    both_held = threading.Barrier(16)

    def use_twice():
        for _ in range(2):
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
                both_held.wait(10)  # all 16 connections are out at once

    before = _server_sessions(postgres_url)
    threads = [threading.Thread(target=use_twice) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert engine.pool.checkedin() == 16
    assert _server_sessions(postgres_url) - before == 16
    engine.dispose()


def test_without_ping_a_dropped_connection_fails_one_use_and_the_next_connects_anew(postgres_url):
    """The API's engine (``ping=False``): a connection the server ended fails the statement that
    finds it (OperationalError: the API answers 503) and every older connection is then replaced."""
    engine = make_engine(postgres_url, ping=False)
    with engine.connect() as first, engine.connect() as second:  # two connections in the pool
        pids = [first.scalar(text("SELECT pg_backend_pid()")), second.scalar(text("SELECT pg_backend_pid()"))]
    with make_engine(postgres_url).connect() as admin:
        for pid in pids:
            admin.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    with pytest.raises(OperationalError), engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    for _ in range(2):
        with engine.connect() as conn:
            assert conn.scalar(text("SELECT pg_backend_pid()")) not in pids
    engine.dispose()


def test_a_writer_waiting_for_another_process_gets_the_lock_when_it_commits(sessions, sqlite_url, monkeypatch):
    """A writer that finds the file lock held by another process waits for it (in the kernel, by the
    lock's waiting thread) and writes once the holder commits; then the lock is free again for other
    processes: a second holder process writes without waiting out its timeout."""
    import subprocess
    import sys
    import time

    monkeypatch.setattr(judge.db, "SQLITE_LOCK_TIMEOUT_S", 20)

    def hold():
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, sqlite_url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        return holder

    def let_go(holder):
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        assert holder.wait(30) == 0

    holder = hold()
    errors: list[Exception | None] = []
    writer = threading.Thread(target=lambda: errors.append(_write_from_another_thread(sessions, 8)))
    writer.start()
    time.sleep(0.3)  # the writer is waiting for the holder
    assert writer.is_alive()
    let_go(holder)
    writer.join(30)
    assert errors == [None]
    monkeypatch.setattr(judge.db, "SQLITE_LOCK_TIMEOUT_S", 0.3)
    let_go(hold())  # another process takes the lock this process let go of
    assert _write_from_another_thread(sessions, 9) is None
    with sessions() as s:
        assert sorted(s.scalars(text("SELECT x FROM t"))) == [7, 7, 8, 9]


def _free_for_another_thread(lock: judge.db.WriterLock) -> bool:
    """Whether another thread can take ``lock`` now (it gives it back at once)."""
    taken: list[bool] = []
    thread = threading.Thread(target=lambda: taken.append(lock.acquire(0.05)))
    thread.start()
    thread.join(10)
    if taken[0]:
        lock.release()
    return taken[0]


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_the_lock_is_held_until_sqlite_has_ended_the_transaction(sessions, end):
    """The next writer is let in only once SQLite has run this one's COMMIT (its fsync, any
    checkpoint) or ROLLBACK, never while it runs: it would meet the transaction in SQLite's busy
    handler. SQLite's trace callback sees the statement as it starts."""
    free_at_end: list[bool] = []
    with sessions() as s:
        s.execute(text("INSERT INTO t VALUES (1)"))
        connection = s.connection().connection.dbapi_connection
        lock = connection.writer_lock

        def trace(statement: str) -> None:
            if statement.strip().upper() in ("COMMIT", "ROLLBACK"):
                free_at_end.append(_free_for_another_thread(lock))

        connection.set_trace_callback(trace)
        s.commit() if end == "commit" else s.rollback()
        connection.set_trace_callback(None)
        assert free_at_end == [False]
        assert _free_for_another_thread(lock)


def test_connections_fsync_each_commit_and_leave_checkpoints_to_the_checkpointer(sqlite_url):
    """Every connection runs with synchronous=FULL (an accepted submission is on disk once its
    commit returns) and checkpoints itself only past WAL_AUTOCHECKPOINT_PAGES."""
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == judge.db.WAL_AUTOCHECKPOINT_PAGES
    engine.dispose()


def _write_pages(engine, commits: int) -> None:
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS pages (b BLOB)"))
    for _ in range(commits):  # a page or more per commit: past SQLite's default of 1000 WAL pages
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO pages VALUES (randomblob(4000))"))


def test_commits_never_copy_the_wal_into_the_file_the_checkpointer_does(sqlite_url, monkeypatch):
    """1200 commits of a page each leave the database file as it was (SQLite's default would
    have checkpointed inside the commit that passed 1000 pages); the Checkpointer thread then copies
    them into the file, and ends once its engine is gone."""
    import gc
    import os
    import time

    path = sqlite_url.split("///", 1)[1]
    monkeypatch.setattr(judge.db, "CHECKPOINT_EVERY_S", 3600)  # no round while the commits run
    engine = make_engine(sqlite_url)
    _write_pages(engine, 1)
    size = os.path.getsize(path)
    _write_pages(engine, 1200)
    assert os.path.getsize(path) == size
    engine.dispose()
    del engine
    monkeypatch.setattr(judge.db, "CHECKPOINT_EVERY_S", 0.05)
    engine = make_engine(sqlite_url)
    _write_pages(engine, 1)
    deadline = time.monotonic() + 60
    while os.path.getsize(path) < size + 1200 * 4000 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.getsize(path) >= size + 1200 * 4000
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM pages").scalar() == 1202
    engine.dispose()

    def checkpointers() -> int:
        return sum(t.name == "sqlite-checkpoint" and t.is_alive() for t in threading.enumerate())

    assert checkpointers() >= 1
    del engine, conn
    gc.collect()
    while checkpointers() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert checkpointers() == 0


def test_upgrade_runs_while_another_connection_reads(tmp_path):
    """Every CLI command upgrades first, while a server may hold a read transaction open: the
    migration neither waits for it nor fails, and the reader still sees its snapshot."""
    import sqlite3
    from contextlib import closing

    from judge.db import upgrade

    url = f"sqlite:///{tmp_path / 'judge.db'}"
    upgrade(url, "0001")
    with closing(sqlite3.connect(tmp_path / "judge.db", isolation_level=None)) as reader:
        reader.execute("BEGIN")
        before = reader.execute("SELECT count(*) FROM sqlite_master").fetchone()
        upgrade(url)
        assert reader.execute("SELECT count(*) FROM sqlite_master").fetchone() == before
        reader.execute("COMMIT")
        tables = {name for (name,) in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"package_archives", "submissions", "users"} <= tables
