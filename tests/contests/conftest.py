"""Helpers of the contest tests: problems, accounts, contests and finished submissions written
straight into the database (no sandbox: a test states the verdicts it needs)."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta

import pytest

from judge import lifecycle
from judge.contests import ContestSpec, ProblemEntry, create_contest
from judge.db import make_engine, make_sessionmaker
from judge.models import PackageArchive, Problem, Submission, TestResult, User, utcnow

HASH = "0" * 64


def csv_rows(text: str) -> list[list[str]]:
    """The cells of an export (``judge.exports``), after checking its byte order mark and CRLF line ends."""
    assert text.startswith("\ufeff") and text.endswith("\r\n"), text[:80]
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
    assert text.count("\r\n") >= len(rows), text  # every record ends with CRLF (a cell may hold more)
    return rows


def add_problems(session, *problem_ids: str) -> None:
    """Problem rows pointing at an empty archive (enough for submissions and scoreboards)."""
    if session.get(PackageArchive, HASH) is None:
        session.add(PackageArchive(sha256=HASH, archive=b"", size_bytes=0))
    for problem_id in problem_ids:
        session.add(
            Problem(
                id=problem_id, name=f"Problem {problem_id}", package_sha256=HASH, time_limit_ms=1000, memory_kib=262144
            )
        )
    session.commit()


def add_users(session, *names: str, role: str = "student") -> dict[str, int]:
    """Accounts without a usable password (a fixed dummy hash: Argon2 is slow and not tested here)."""
    users = [User(name=n, display_name=n.capitalize(), role=role, password_hash="!") for n in names]
    session.add_all(users)
    session.commit()
    return {u.name: u.id for u in users}


def make_contest(session, problems=("pa", "pb"), *, start: datetime, minutes: int = 120, **fields):
    """A contest starting at ``start`` with ``problems`` as A, B, …; ``fields`` as in ContestSpec."""
    entries = [
        ProblemEntry(chr(ord("A") + i), p if isinstance(p, str) else p[0], None if isinstance(p, str) else p[1])
        for i, p in enumerate(problems)
    ]
    spec = ContestSpec(
        name=fields.pop("name", "Class contest"),
        start_at=start,
        end_at=start + timedelta(minutes=minutes),
        problems=entries,
        **fields,
    )
    return create_contest(session, spec)


def add_submission(
    session,
    contest,
    user_id: int,
    problem_id: str,
    verdict: str | None,
    minute: float,
    *,
    tests: list[tuple[str, str]] | None = None,
    is_jury: bool = False,
    status: str | None = None,
) -> int:
    """A submission made ``minute`` minutes after the contest start, already judged as ``verdict``
    (status done) or still queued (``verdict`` None). ``tests``: (group, verdict) per test case, stored
    as the results of attempt 1; without them the counters say 1/1 passed for AC, 0/1 otherwise."""
    tests = tests if tests is not None else ([] if verdict in (None, "CE") else [("secret", verdict)])
    done = verdict is not None
    package = session.get(Problem, problem_id).package_sha256
    row = Submission(
        problem_id=problem_id,
        package_sha256=package,
        language="cpp",
        source="int main(){}",
        status=status or ("done" if done else "queued"),
        verdict=verdict,
        attempt=1 if done else 0,
        user_id=user_id,
        contest_id=contest.id if contest else None,
        is_jury=is_jury,
        created_at=(contest.start_at if contest else utcnow()) + timedelta(minutes=minute),
        tests_passed=sum(v == "AC" for _, v in tests) if done else None,
        tests_total=len(tests) if done else None,
        finished_at=utcnow() if done else None,
    )
    session.add(row)
    session.flush()
    for ordinal, (group, test_verdict) in enumerate(tests, start=1):
        session.add(
            TestResult(
                submission_id=row.id,
                attempt=1,
                ordinal=ordinal,
                test_name=f"{group}/{ordinal:02d}",
                test_group=group,
                verdict=test_verdict,
                time_ms=10 * ordinal,
                wall_ms=12 * ordinal,
                memory_kib=1024,
                message=f"checker says: expected {ordinal}",
            )
        )
    session.commit()
    return row.id


def judge_next(session, verdict: str, tests: list[tuple[str, str]] | None = None) -> int:
    """Do what a worker does to the oldest queued submission: claim it (attempt + 1), store test
    results under that attempt, and write the verdict, every write fenced by the claim."""
    claim = lifecycle.claim(session, "test-worker", 30)
    assert claim is not None, "nothing queued"
    finish_claimed(session, claim, "test-worker", verdict, tests if tests is not None else [("secret", verdict)])
    return claim.submission_id


def finish_claimed(
    session,
    claim: lifecycle.Claim,
    worker: str,
    verdict: str,
    tests: list[tuple[str, str]],
    score: float | None = None,
    max_score: float | None = None,
) -> None:
    """Store ``tests`` ((test group, verdict) each) under ``claim`` of ``worker``, one by one as a
    worker finishes them, then the ``verdict`` and graded ``score`` of ``max_score``."""
    for ordinal, (group, test_verdict) in enumerate(tests, start=1):
        result = dict(ordinal=ordinal, test_name=f"{group}/{ordinal:02d}", test_group=group, verdict=test_verdict)
        assert lifecycle.store_tests(session, claim, worker, [result])
    assert lifecycle.finish(
        session,
        claim,
        verdict=verdict,
        compile_message=None,
        judge_message=None,
        time_ms=None,
        memory_kib=None,
        tests_passed=sum(v == "AC" for _, v in tests),
        tests_total=len(tests),
        score=score,
        max_score=max_score,
    )


@pytest.fixture
def db(database_url):
    """A session on a fresh migrated database, SQLite and PostgreSQL (see tests/conftest.py)."""
    engine = make_engine(database_url)
    with make_sessionmaker(engine)() as session:
        yield session
    engine.dispose()


@pytest.fixture
def app_db(api_app):
    """A session on the database of the ``api_app`` fixture (SQLite)."""
    with api_app.state.sessions() as session:
        yield session
