"""The worker's writes while it judges (``judge.worker``): made by the claim's writer thread, so that
the judging never waits for them; every test result is stored by the time the verdict is, a write
that fails is made again, and a claim found lost (here by a lease renewal) stops the judging at
its next test while the worker goes on.

The judging itself is replaced by one that reports made-up AC tests (``made_up_judging``): what is
tested is what the worker does with them, not the sandbox.
"""

from __future__ import annotations

import shutil
import threading
import time
from types import SimpleNamespace

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from judge import lifecycle
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker
from judge.judging import JudgingOutcome
from judge.judging import TestOutcome as Outcome
from judge.models import PackageArchive, Problem, Submission, TestResult
from judge.worker import Worker
from tests.slots import WORK_ROOT, slot

SLOT = slot(97)


@pytest.fixture
def sessions(migrated_sqlite_file, tmp_path):
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    shutil.copyfile(migrated_sqlite_file, tmp_path / "judge.db")
    made = make_sessionmaker(make_engine(url))
    with made() as session:
        session.add(PackageArchive(sha256="0" * 64, archive=b"", size_bytes=0))
        session.add(Problem(id="p", name="P", package_sha256="0" * 64, time_limit_ms=1000, memory_kib=1024))
        session.commit()
    made.url = url  # type: ignore[attr-defined]
    return made


def make_worker(sessions, monkeypatch, lease_seconds: float = 30.0) -> Worker:
    settings = Settings(database_url=sessions.url, work_dir=WORK_ROOT / "worker-writes", lease_seconds=lease_seconds)
    worker = Worker(settings, slot=SLOT)
    worker.languages = ["cpp"]  # no self-test: nothing is compiled here
    monkeypatch.setattr("judge.worker.cached_package", lambda *args: None)
    return worker


def submit(sessions) -> int:
    with sessions() as session:
        row = Submission(problem_id="p", package_sha256="0" * 64, language="cpp", source="x")
        session.add(row)
        session.commit()
        return row.id


def made_up_judging(monkeypatch, tests: int, between=lambda ordinal: None) -> list[int]:
    """Make the worker's judging report ``tests`` AC tests, calling ``between(ordinal)`` after
    each is reported; returns the list of ordinals reported, filled as they are."""
    reported: list[int] = []

    def judge_submission(box, package, language, source, work, on_test, validator_cache, session):
        outcome = JudgingOutcome("AC")
        for ordinal in range(1, tests + 1):
            test = Outcome(ordinal, SimpleNamespace(name=f"secret/{ordinal:03d}", group="secret"), "AC")
            outcome.tests.append(test)
            reported.append(ordinal)
            on_test(test)
            between(ordinal)
        return outcome

    monkeypatch.setattr("judge.worker.judge_submission", judge_submission)
    return reported


def stored(sessions, submission_id: int) -> tuple[Submission, list[tuple[int, int]]]:
    """The submission and its stored (attempt, ordinal) results."""
    with sessions() as session:
        row = session.get(Submission, submission_id)
        results = session.execute(
            select(TestResult.attempt, TestResult.ordinal)
            .where(TestResult.submission_id == submission_id)
            .order_by(TestResult.attempt, TestResult.ordinal)
        ).all()
        session.expunge_all()
    return row, [tuple(result) for result in results]


def test_the_judging_goes_on_while_its_results_are_written(sessions, monkeypatch):
    worker = make_worker(sessions, monkeypatch)
    monkeypatch.setattr("judge.worker.STORE_EVERY_S", 0.0)  # a write after every test
    writing, last_test_reported = threading.Event(), threading.Event()
    waited: list[bool] = []
    store_tests = lifecycle.store_tests

    def slow_store_tests(*args):  # a write that lasts until the judging has reported every test
        writing.set()
        waited.append(last_test_reported.wait(5))
        return store_tests(*args)

    def between(ordinal: int) -> None:
        if ordinal == 1:
            assert writing.wait(5)  # the first result is being written...
        if ordinal == 5:
            last_test_reported.set()  # ...while the judging reports the others

    monkeypatch.setattr(lifecycle, "store_tests", slow_store_tests)
    made_up_judging(monkeypatch, 5, between)
    submission_id = submit(sessions)
    try:
        assert worker.judge_one()
    finally:
        worker.close()
    assert waited and all(waited)  # no test waited for a write
    row, results = stored(sessions, submission_id)
    assert (row.status, row.verdict, row.tests_total) == ("done", "AC", 5)
    assert results == [(1, ordinal) for ordinal in range(1, 6)]  # every one, once, with the verdict


def test_a_failed_write_is_made_again_and_the_verdict_comes_with_every_result(sessions, monkeypatch):
    worker = make_worker(sessions, monkeypatch)
    monkeypatch.setattr("judge.worker.STORE_EVERY_S", 0.0)
    store_tests = lifecycle.store_tests
    calls: list[int] = []

    def store_tests_failing_once(*args):
        calls.append(len(args[3]))
        if len(calls) == 1:
            raise OperationalError("INSERT INTO test_results", {}, Exception("the database went away"))
        return store_tests(*args)

    monkeypatch.setattr(lifecycle, "store_tests", store_tests_failing_once)
    made_up_judging(monkeypatch, 6, lambda ordinal: time.sleep(0.02))
    submission_id = submit(sessions)
    try:
        assert worker.judge_one()
    finally:
        worker.close()
    row, results = stored(sessions, submission_id)
    assert (row.status, row.verdict, row.judge_message, row.tests_total) == ("done", "AC", None, 6)
    assert results == [(1, ordinal) for ordinal in range(1, 7)]
    assert len(calls) >= 2  # the failed write was made again (with the verdict, or before it)


def test_a_lease_found_lost_stops_the_judging_at_its_next_test_and_the_worker_goes_on(sessions, monkeypatch):
    worker = make_worker(sessions, monkeypatch, lease_seconds=0.3)  # renewed every 0.1 s
    monkeypatch.setattr("judge.worker.STORE_EVERY_S", 1000.0)  # no results written before the verdict
    submission_id = submit(sessions)

    def rejudged_first(ordinal: int) -> None:
        if ordinal == 1:  # another judging takes over: the next renewal finds the claim lost
            with sessions() as session:
                assert lifecycle.rejudge(session, submission_id=submission_id) == [submission_id]
        time.sleep(0.01)

    reported = made_up_judging(monkeypatch, 300, rejudged_first)  # 3 s unless stopped
    try:
        assert worker.judge_one()
        assert len(reported) < 300  # stopped early, not at its end
        row, results = stored(sessions, submission_id)
        assert (row.status, results) == ("queued", [])  # nothing of the lost judging was written
        made_up_judging(monkeypatch, 2)
        assert worker.judge_one()  # the worker goes on: the new judging is its own
    finally:
        worker.close()
    row, results = stored(sessions, submission_id)
    assert (row.status, row.verdict, row.attempt, results) == ("done", "AC", 2, [(2, 1), (2, 2)])
