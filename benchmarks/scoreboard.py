"""Scoreboard benchmark: a contest of 300 students × 12 problems × 30,000 submissions (each with 10
test results) built in the database. Prints, measured side by side in one run, for ICPC and IOI:

- a view (jury, public) as the API serves it (built and made JSON-ready): from the submissions
  (every cell re-derived, ``judge.board.derive``: the baseline), from the kept summary rows with the
  cache empty (cold), from the cache, and the first view after a final verdict (the cached board
  brought up to date from the cells stamped since, what a class sees after each verdict); goal
  < 20 ms for each;
- the CPU per final verdict of ``judge.lifecycle.finish`` with the board kept in its transaction,
  against the same verdict store without it (the baseline); goal < 1 ms more;
- a rejudge of a whole problem (``lifecycle.rejudge``), which re-derives the board, against the same
  rejudge without it; goal < 2 s.

Ratios are against the baseline measured in the same run. Asserts nothing about time; it does check
that the kept board equals the one re-derived from the submissions.

Run: ``.venv/bin/python benchmarks/scoreboard.py`` (SQLite in a temporary folder), or
``--database-url postgresql+psycopg://postgres@127.0.0.1:5432/some_empty_db``.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, insert, select, text, update

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge import board, lifecycle, scoreboard  # noqa: E402
from judge.contests import ContestSpec, ProblemEntry, create_contest, edit_contest  # noqa: E402
from judge.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from judge.models import Contest, PackageArchive, Problem, Submission, TestResult, User, utcnow  # noqa: E402
from judge.scoreboard import compute_scoreboard, hidden_after  # noqa: E402
from judge.vocabulary import ScoreboardView  # noqa: E402

VERDICTS = ["AC"] * 3 + ["WA"] * 4 + ["TLE", "RTE", "CE", "MLE", "JE"]
SEED = 5


def build(session, students: int, problems: int, submissions: int, tests: int) -> int:
    """Insert the users, problems, the contest (5 hours, frozen for the last hour) and the
    submissions with their test results; returns the contest id."""
    rng = random.Random(SEED)
    session.add(PackageArchive(sha256="0" * 64, archive=b"", size_bytes=0))
    ids = [f"p{i:02d}" for i in range(problems)]
    session.add_all(
        Problem(id=p, name=p.upper(), package_sha256="0" * 64, time_limit_ms=1000, memory_kib=262144) for p in ids
    )
    session.execute(
        insert(User),
        [
            {"name": f"s{i:03d}", "display_name": f"Student {i:03d}", "role": "student", "password_hash": "!"}
            for i in range(students)
        ],
    )
    session.commit()
    start = utcnow() - timedelta(hours=5)
    contest = create_contest(
        session,
        ContestSpec(
            name="Benchmark",
            start_at=start,
            end_at=start + timedelta(hours=5),
            freeze_at=start + timedelta(hours=4),
            problems=[ProblemEntry(chr(ord("A") + i), p) for i, p in enumerate(ids)],
        ),
    )
    user_ids = list(range(1, students + 1))
    times = sorted(rng.uniform(0, 5 * 3600) for _ in range(submissions))
    rows: list[dict] = []
    results: list[dict] = []
    for n, seconds in enumerate(times, start=1):
        verdict = rng.choice(VERDICTS)
        passed = tests if verdict == "AC" else 0 if verdict == "CE" else rng.randrange(tests)
        ran = 0 if verdict == "CE" else tests
        rows.append(
            {
                "id": n,
                "problem_id": rng.choice(ids),
                "package_sha256": "0" * 64,
                "language": "cpp",
                "source": "int main(){}",
                "status": "done",
                "verdict": verdict,
                "attempt": 1,
                "user_id": rng.choice(user_ids),
                "contest_id": contest.id,
                "is_jury": False,
                "created_at": start + timedelta(seconds=seconds),
                "finished_at": start + timedelta(seconds=seconds + 5),
                "tests_passed": passed,
                "tests_total": ran,
            }
        )
        results.extend(
            {
                "submission_id": n,
                "attempt": 1,
                "ordinal": t + 1,
                "test_name": f"secret/{t + 1:02d}",
                "test_group": "sample" if t == 0 else "secret",
                "verdict": "AC" if t < passed else "WA",
            }
            for t in range(ran)
        )
    for chunk in range(0, len(rows), 5000):
        session.execute(insert(Submission), rows[chunk : chunk + 5000])
    for chunk in range(0, len(results), 20000):
        session.execute(insert(TestResult), results[chunk : chunk + 20000])
    if session.get_bind().dialect.name == "postgresql":  # the ids were given: the next ones follow them
        session.execute(text("SELECT setval(pg_get_serial_sequence('submissions', 'id'), max(id)) FROM submissions"))
    board.rebuild(session, contest)  # the rows were written in bulk, past the judge's paths
    session.commit()
    return contest.id


def refresh_statistics(engine) -> None:
    """What a live database has done by itself long before 30,000 submissions: planner statistics
    (both) and, on PostgreSQL, the visibility map that lets the covering index answer alone."""
    with engine.connect() as connection:
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        connection.exec_driver_sql("VACUUM ANALYZE" if engine.dialect.name == "postgresql" else "ANALYZE")


def timed_ms(action) -> tuple[float, float]:
    """(wall ms, CPU ms of this process) of one call of ``action``. SQLite runs in the process, so on
    a busy machine the CPU time shows the work and the wall time the wait for a core."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def median_ms(action, runs: int) -> tuple[float, float]:
    """Median wall ms and median CPU ms of ``runs`` calls of ``action``."""
    samples = [timed_ms(action) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def derived_cells(session, contest, view) -> dict:
    """Every cell of ``view`` re-derived from the submissions (the work the kept rows save)."""
    variant = "live" if hidden_after(contest, view) is None else "frozen"
    names = ("attempts", "pending", "score", "first_id", "first_at")
    rows = [
        (row["user_id"], row["problem_id"], *(row[f"{variant}_{n}"] for n in names))
        for row in board.derive(session, contest)
    ]
    return scoreboard.cells_of(contest, rows)


def views(session, contest, scoring: str, runs: int) -> None:
    """Print the view times: re-derived from the submissions, kept rows (cache empty), cached."""
    for view in (ScoreboardView.JURY, ScoreboardView.PUBLIC):
        view_times(session, contest, scoring, view, runs)


def view_times(session, contest, scoring: str, view: ScoreboardView, runs: int) -> None:
    """Print one view's times (see ``views``) after checking the kept board equals the re-derived one."""
    now = utcnow()
    derived = compute_scoreboard(session, contest, view, now, cells=derived_cells(session, contest, view))
    assert compute_scoreboard(session, contest, view, now).to_dict() == derived.to_dict(), "the boards differ"
    base_ms, base_cpu = median_ms(
        lambda: compute_scoreboard(session, contest, view, cells=derived_cells(session, contest, view)).to_dict(),
        max(3, runs // 5),
    )

    def cold() -> None:
        scoreboard._boards.clear()
        compute_scoreboard(session, contest, view).to_dict()

    cold_ms, cold_cpu = median_ms(cold, runs)
    cached_ms, cached_cpu = median_ms(lambda: compute_scoreboard(session, contest, view).to_dict(), runs)
    after_ms, after_cpu = after_verdict_ms(session, contest, view, runs)
    now = utcnow()
    derived = compute_scoreboard(session, contest, view, now, cells=derived_cells(session, contest, view))
    assert compute_scoreboard(session, contest, view, now).to_dict() == derived.to_dict(), "the boards differ"
    worst = max(cold_ms, cached_ms, after_ms)
    print(
        f"{scoring:4} {view:6} view: from the submissions {base_ms:6.1f} ms ({base_cpu:6.1f} CPU); "
        f"kept rows {cold_ms:5.1f} ms ({cold_cpu:5.1f} CPU) = {base_ms / cold_ms:4.1f}× faster; "
        f"cached {cached_ms:5.2f} ms ({cached_cpu:5.2f} CPU) = {base_ms / cached_ms:5.0f}× faster; "
        f"after a verdict {after_ms:5.2f} ms ({after_cpu:5.2f} CPU); goal < 20 ms {'met' if worst < 20 else 'missed'}"
    )


def after_verdict_ms(session, contest, view: ScoreboardView, runs: int) -> tuple[float, float]:
    """Median wall ms and CPU ms of the first view after a final verdict (stored in a session of its
    own, as a worker does; not timed), the board cached before it."""
    rng = random.Random(SEED + runs)
    enqueue_some(session, contest, runs, rng)
    factory = make_sessionmaker(session.get_bind())
    samples = []
    for _ in range(runs):
        claim = lifecycle.claim(session, "bench", 60)
        assert claim is not None
        session.commit()
        compute_scoreboard(session, contest, view).to_dict()  # cached before the verdict
        session.commit()
        finish_apart(factory, claim, rng.choice(VERDICTS))
        samples.append(timed_ms(lambda: compute_scoreboard(session, contest, view).to_dict()))
        session.commit()
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def enqueue_some(session, contest, count: int, rng: random.Random) -> None:
    """``count`` new queued submissions of random students to random problems of ``contest``."""
    problems = [session.get(Problem, p.problem_id) for p in contest.problems]
    users = session.scalars(select(User.id).where(User.role == "student")).all()
    for _ in range(count):
        lifecycle.enqueue(
            session,
            problem=rng.choice(problems),
            language="cpp",
            source="int main(){}",
            user_id=rng.choice(users),
            contest_id=contest.id,
            is_jury=False,
            now=utcnow() - timedelta(minutes=rng.uniform(60, 290)),
        )
    session.commit()


def finish(session, claim, verdict: str) -> None:
    """A worker's final write: ``verdict`` with 10 tests run."""
    lifecycle.finish(
        session,
        claim,
        verdict=verdict,
        compile_message=None,
        judge_message=None,
        time_ms=5,
        memory_kib=1024,
        tests_passed=10 if verdict == "AC" else 3,
        tests_total=10,
    )


def finish_apart(factory, claim, verdict: str) -> None:
    """``finish`` in a session of its own, as the worker stores a verdict."""
    with factory() as session:
        finish(session, claim, verdict)


def verdicts_ms(session, contest, count: int, rng: random.Random) -> tuple[float, float]:
    """Median wall ms and CPU ms of ``lifecycle.finish`` over ``count`` claimed submissions, each in
    a new session (as the worker does)."""
    enqueue_some(session, contest, count, rng)
    factory = make_sessionmaker(session.get_bind())
    samples = []
    for _ in range(count):
        claim = lifecycle.claim(session, "bench", 60)
        assert claim is not None
        samples.append(timed_ms(functools.partial(finish_apart, factory, claim, rng.choice(VERDICTS))))
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def without_board(action):
    """Run ``action`` with ``judge.board.refresh`` doing nothing (the baseline: no board kept)."""
    kept = board.refresh
    board.refresh = lambda session, keys: None
    try:
        return action()
    finally:
        board.refresh = kept


def verdicts(session, contest, scoring: str, count: int) -> None:
    """Print the CPU per final verdict with and without the board kept, measured alternately."""
    rng = random.Random(SEED)
    base_ms, base_cpu = without_board(lambda: verdicts_ms(session, contest, count, rng))
    kept_ms, kept_cpu = verdicts_ms(session, contest, count, rng)
    board.rebuild(session, contest)  # the baseline's verdicts were not kept: re-derive before going on
    session.commit()
    extra = kept_cpu - base_cpu
    print(
        f"{scoring:4} final verdict: {kept_cpu:.2f} ms CPU ({kept_ms:.2f} wall) with the board kept, "
        f"{base_cpu:.2f} ms CPU ({base_ms:.2f} wall) without = {kept_cpu / base_cpu:.2f}×; "
        f"the board costs {extra:.2f} ms CPU per verdict; goal < 1 ms {'met' if extra < 1 else 'missed'}"
    )


def rebuild_board(session, contest) -> None:
    """Re-derive the whole board of ``contest`` and commit."""
    board.rebuild(session, contest)
    session.commit()


def rejudge(session, contest, scoring: str) -> None:
    """Print a whole problem's rejudge with the board re-derived against the same rejudge without."""

    def once(problem_id: str) -> tuple[float, float]:
        ms = timed_ms(lambda: lifecycle.rejudge(session, contest_id=contest.id, problem_id=problem_id))
        session.execute(  # judged again, as the workers would (not timed)
            update(Submission)
            .where(Submission.contest_id == contest.id, Submission.problem_id == problem_id)
            .values(status="done", verdict="WA", tests_passed=3, tests_total=10)
        )
        session.commit()
        return ms

    base_ms, base_cpu = without_board(lambda: once(contest.problems[1].problem_id))
    kept_ms, kept_cpu = once(contest.problems[0].problem_id)
    count = session.scalar(
        select(func.count()).where(Submission.contest_id == contest.id, Submission.problem_id == "p00")
    )
    rebuild_ms, rebuild_cpu = timed_ms(functools.partial(rebuild_board, session, contest))
    print(
        f"{scoring:4} rejudge of a whole problem ({count:,} submissions): {kept_ms:.0f} ms ({kept_cpu:.0f} CPU) "
        f"with the board re-derived, {base_ms:.0f} ms ({base_cpu:.0f} CPU) without = {kept_ms / base_ms:.1f}×; "
        f"goal < 2 s {'met' if kept_ms < 2000 else 'missed'}; whole contest re-derived in {rebuild_ms:.0f} ms "
        f"({rebuild_cpu:.0f} CPU)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="", help="an empty database (default: SQLite in a temp folder)")
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--problems", type=int, default=12)
    parser.add_argument("--submissions", type=int, default=30000)
    parser.add_argument("--tests", type=int, default=10, help="test results per judged submission")
    parser.add_argument("--runs", type=int, default=15, help="runs of each view (median reported)")
    parser.add_argument("--verdicts", type=int, default=300, help="final verdicts stored each way")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        upgrade(url)
        engine = make_engine(url)
        with make_sessionmaker(engine)() as session:
            began = time.perf_counter()
            contest = session.get(Contest, build(session, args.students, args.problems, args.submissions, args.tests))
            refresh_statistics(engine)
            print(
                f"built {args.students} students × {args.problems} problems × {args.submissions:,} submissions "
                f"({args.submissions * args.tests:,} test results) on {engine.dialect.name} "
                f"in {time.perf_counter() - began:.1f} s; load average {os.getloadavg()[0]:.1f}"
            )
            for scoring in ("icpc", "ioi"):
                edit_contest(session, contest, {"scoring": scoring}, utcnow())  # re-derives the board
                views(session, contest, scoring, args.runs)
                verdicts(session, contest, scoring, args.verdicts)
                rejudge(session, contest, scoring)
        loop_ms, _ = timed_ms(lambda: sum(i * i for i in range(3_000_000)))
        print(
            f"machine: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; a fixed pure-Python "
            f"loop (3 million multiply-adds) took {loop_ms:.0f} ms"
        )
        engine.dispose()


if __name__ == "__main__":
    main()
