"""The submission's life: the one module that writes a submission's ``status``, lease and attempt
columns (``tests/judge/test_lifecycle_owner.py`` fails on a write anywhere else).

A submission row is the queue's job::

    enqueue → queued ─claim→ judging ─store_tests…→ finish → done
                 ↑             │ give_back (worker stops)      │
                 └─────────────┴─ requeue_expired (lease lost) │
                 └──────────────── rejudge ────────────────────┘

- ``claim``: a worker takes the first queued submission atomically (``UPDATE … WHERE id = (SELECT …
  FOR UPDATE SKIP LOCKED) RETURNING`` on PostgreSQL; the same statement on SQLite, where the single
  writer lock makes it atomic), sets ``status = judging``, increments ``attempt`` (the fencing
  token) and takes a lease until ``lease_expires_at``.
- ``renew``, ``store_tests``, ``finish``, ``give_back`` are fenced: each applies only while the row
  is still ``judging`` under the claim's attempt (``holds``), so a worker presumed dead never
  overwrites a newer judging, and each reports whether it applied.
- ``requeue_expired``: a submission whose lease expired goes back to the queue, or ends as JE after
  ``max_attempts`` lost judgings.
- ``rejudge``: done or judging submissions go back to the queue; the next claim's attempt fences off
  any worker still judging the old one.
- Scoreboards: every change here that a scoreboard shows re-derives its cell in the same transaction:
  finished, ended as JE, rejudged by ``judge.board.refresh`` here; a submission added (``enqueue``,
  ``record_judged``) by the session at commit (``judge.board.keep``). Claims, leases, test results and
  give-backs change nothing a board shows (queued and judging are both pending).
- Order of claims: ``priority`` first (contest, practice, rejudge: ``Priority``), then ``fair_rank``
  (a user's tenth waiting submission waits behind everyone's first), then age.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import cast

from sqlalchemy import (
    ColumnElement,
    CursorResult,
    Integer,
    Select,
    Table,
    and_,
    bindparam,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert, ReturningUpdate, Update
from sqlalchemy.sql.elements import BindParameter

from judge import board
from judge.clock import utcnow
from judge.db import one_of
from judge.models import Problem, Submission, TestResult
from judge.vocabulary import Priority, Status, Verdict

SUBMISSIONS, RESULTS = cast(Table, Submission.__table__), cast(Table, TestResult.__table__)
MESSAGE_LIMIT = 2000  # characters of a checker's or the judge's message kept
# a test result row given to ``store_tests`` and ``finish``: {column: value} of ``TestResult``, with
# at least ordinal, test_name, test_group and verdict; a column left out takes its value here
ResultRow = Mapping[str, object]
RESULT_DEFAULTS: dict[str, object] = dict(
    time_ms=0, wall_ms=0, memory_kib=0, exit_code=None, signal=None, message=None, feedback=None, output=None
)


@dataclass(frozen=True)
class Claim:
    """A worker's hold on one submission: its id and the attempt number that fences its writes."""

    submission_id: int
    attempt: int


def waiting_count(user_id: int | BindParameter[int] | None) -> ColumnElement[int]:
    """``fair_rank`` of a new submission of ``user_id``, as SQL: a scalar subquery counting that
    user's submissions already waiting (queued or judging), computed by the database inside the
    INSERT that uses it; 0 without a user."""
    if user_id is None:
        return literal(0, Integer)
    return (
        select(func.count())
        .select_from(Submission)
        .where(Submission.user_id == user_id, one_of(Submission.status, (Status.QUEUED, Status.JUDGING)))
        .scalar_subquery()
    )


def queue_position(session: Session, user_id: int | None, priority: Priority) -> dict[str, int]:
    """Column values that place a submission of ``user_id`` in the queue now: ``priority`` and
    ``fair_rank`` = how many of that user's submissions are already waiting."""
    return {"priority": int(priority), "fair_rank": session.scalar(select(waiting_count(user_id))) or 0}


def queued_ahead(session: Session, row: Submission) -> int | None:
    """How many queued submissions a worker able to judge every language would claim before ``row``
    (by priority, fair rank, age: ``claim``'s order); None unless ``row`` is queued. Read when someone
    asks, never stored: it changes with every claim."""
    if row.status != Status.QUEUED:
        return None
    return session.scalar(_ahead_statement(), {"priority": row.priority, "rank": row.fair_rank, "id": row.id}) or 0


@cache
def _ahead_statement() -> Select[int]:
    """``queued_ahead``'s count, built once per process (bound: the row's priority, rank and id)."""
    priority, rank = bindparam("priority", type_=Integer), bindparam("rank", type_=Integer)
    row_id = bindparam("id", type_=Integer)
    ahead = or_(
        Submission.priority < priority,
        and_(Submission.priority == priority, Submission.fair_rank < rank),
        and_(Submission.priority == priority, Submission.fair_rank == rank, Submission.id < row_id),
    )
    return select(func.count()).select_from(Submission).where(Submission.status == Status.QUEUED, ahead)


def enqueue(
    session: Session,
    *,
    problem: Problem,
    language: str,
    source: str,
    user_id: int | None,
    contest_id: int | None,
    is_jury: bool,
    now: datetime,
) -> Submission:
    """Add a queued submission of ``source`` to ``problem``'s current package (flushed, not
    committed: the caller commits it with whatever else accepting it changed)."""
    submission = Submission(
        problem_id=problem.id,
        package_sha256=problem.package_sha256,
        language=language,
        source=source,
        status=Status.QUEUED,
        created_at=now,
        user_id=user_id,
        contest_id=contest_id,
        is_jury=is_jury,
        priority=int(_priority(contest_id)),
        fair_rank=waiting_count(user_id),  # evaluated by the INSERT itself
    )
    session.add(submission)
    session.flush()
    return submission


ENQUEUED = ("language", "source", "status", "created_at", "user_id", "contest_id", "is_jury", "priority")


def enqueue_where(problems: Select[str, str]) -> ReturningInsert[int, str]:
    """An ``INSERT … SELECT … RETURNING id`` that queues a submission as ``enqueue`` does, in one
    statement: the problem (id, package hash) is the first row of ``problems``, a SELECT whose WHERE
    clause carries every condition the submission must meet. Its parameters are named after the
    columns (``enqueue_parameters``); executed, it returns the new submission's (id, problem id), or
    no row (and adds nothing) when ``problems`` selects none. Build it once and execute it many times: the
    database driver's statement cache then serves every execution."""
    column = Submission.__table__.c
    user_id = bindparam("user_id", type_=Integer)
    picked = problems.add_columns(
        *(bindparam(name, type_=column[name].type) for name in ENQUEUED), waiting_count(user_id)
    ).limit(1)
    names = ["problem_id", "package_sha256", *ENQUEUED, "fair_rank"]
    return insert(Submission).from_select(names, picked).returning(Submission.id, Submission.problem_id)


def enqueue_parameters(
    *, language: str, source: str, user_id: int, contest_id: int | None, is_jury: bool, now: datetime
) -> dict[str, object]:
    """The parameters of an ``enqueue_where`` statement for a submission made at ``now`` (UTC)."""
    return {
        "language": language,
        "source": source,
        "status": Status.QUEUED,
        "created_at": now,
        "user_id": user_id,
        "contest_id": contest_id,
        "is_jury": is_jury,
        "priority": int(_priority(contest_id)),
    }


def _priority(contest_id: int | None) -> Priority:
    return Priority.CONTEST if contest_id is not None else Priority.PRACTICE


def _refresh(session: Session, rows: Iterable) -> None:
    """Re-derive the scoreboard cells of ``rows`` (submissions or result rows with ``contest_id``,
    ``user_id``, ``problem_id``, ``is_jury``) in the caller's transaction."""
    board.refresh(session, {key for key in map(board.key_of, rows) if key is not None})


def record_judged(
    session: Session,
    *,
    problem: Problem,
    language: str,
    source: str,
    user_id: int,
    contest_id: int,
    created_at: datetime,
    started_at: datetime,
    finished_at: datetime,
    verdict: str,
    time_ms: int | None,
    results: list[TestResult],
) -> Submission:
    """Add a submission judged elsewhere (a contest package's import, ``judge.ccs.package``): done,
    as attempt 1, with ``results`` (ordinal, test name, group, verdict, times) stored under it and
    the tests passed and run counted from them (flushed, not committed)."""
    submission = Submission(
        problem_id=problem.id,
        package_sha256=problem.package_sha256,
        language=language,
        source=source,
        status=Status.DONE,
        verdict=verdict,
        attempt=1,
        created_at=created_at,
        started_at=started_at,
        finished_at=finished_at,
        time_ms=time_ms,
        tests_passed=sum(r.verdict == Verdict.AC for r in results),
        tests_total=len(results),
        user_id=user_id,
        contest_id=contest_id,
        is_jury=False,
        priority=int(Priority.CONTEST),
    )
    session.add(submission)
    session.flush()
    for result in results:
        result.submission_id, result.attempt = submission.id, 1
        session.add(result)
    session.flush()
    return submission


def claim(
    session: Session, worker_id: str, lease_seconds: float, languages: Collection[str] | None = None
) -> Claim | None:
    """Claim the first queued submission (by priority, fair rank, age) for ``worker_id`` with a lease
    of ``lease_seconds`` (s); None when the queue is empty. Committed.

    Two workers never get the same submission: the row is locked (PostgreSQL, SKIP LOCKED) or the
    whole database is (SQLite), and the UPDATE re-checks ``status = 'queued'``. ``languages``: only
    submissions in these languages (those the worker's self-test passed); None for any.
    """
    now = utcnow()
    parameters: dict[str, object] = {
        "claim_worker": worker_id,
        "claim_lease": now + timedelta(seconds=lease_seconds),
        "claim_now": now,
    }
    if languages is not None:
        parameters["claim_languages"] = list(languages)
    row = session.execute(_claim_statement(languages is not None), parameters).first()
    session.commit()
    return Claim(row[0], row[1]) if row else None


@cache
def _claim_statement(by_language: bool) -> ReturningUpdate:
    """``claim``'s UPDATE … RETURNING (id, attempt) on the table, built once per process (bound:
    ``claim_worker``, ``claim_lease``, ``claim_now`` and, ``by_language``, ``claim_languages``)."""
    column = SUBMISSIONS.c
    waiting = column.status == Status.QUEUED
    if by_language:
        waiting = and_(waiting, column.language.in_(bindparam("claim_languages", expanding=True)))
    oldest = (
        select(column.id)
        .where(waiting)
        .order_by(column.priority, column.fair_rank, column.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    return (
        update(SUBMISSIONS)
        .where(and_(column.id == oldest, column.status == Status.QUEUED))
        .values(
            status=Status.JUDGING,
            attempt=column.attempt + 1,
            worker_id=bindparam("claim_worker", type_=column.worker_id.type),
            lease_expires_at=bindparam("claim_lease", type_=column.lease_expires_at.type),
            started_at=bindparam("claim_now", type_=column.started_at.type),
        )
        .returning(column.id, column.attempt)
    )


_CELL = (Submission.contest_id, Submission.user_id, Submission.problem_id, Submission.is_jury)  # a row's cell


def holds(claim_: Claim) -> ColumnElement[bool]:
    """SQL condition: the submission is still being judged under this claim."""
    return and_(
        Submission.id == claim_.submission_id,
        Submission.attempt == claim_.attempt,
        Submission.status == Status.JUDGING,
    )


def _fenced(session: Session, claim_: Claim, **values: object) -> bool:
    """Set ``values`` on the claimed row if the claim still holds (not committed)."""
    result = session.execute(
        update(Submission).where(holds(claim_)).values(**values).execution_options(synchronize_session=False)
    )
    return cast(CursorResult, result).rowcount == 1


def renew(session: Session, claim_: Claim, lease_seconds: float) -> bool:
    """Extend the lease to ``lease_seconds`` (s) from now; False if the claim no longer holds. Committed."""
    held = _fenced_set(session, claim_, "lease_expires_at", utcnow() + timedelta(seconds=lease_seconds))
    session.commit()
    return held


def store_tests(session: Session, claim_: Claim, worker_id: str, results: Sequence[ResultRow]) -> bool:
    """Store test case ``results`` (``ResultRow``: new rows; their submission and attempt come
    from the claim) in one transaction while the claim holds; False, storing nothing, once it
    does not. Committed."""
    if not _fenced_set(session, claim_, "worker_id", worker_id):
        session.rollback()
        return False
    _add_results(session, claim_, results)
    session.commit()
    return True


def _fenced_set(session: Session, claim_: Claim, name: str, value: object) -> bool:
    """Set column ``name`` of the claimed row to ``value`` if the claim still holds (not
    committed), by a statement built once per column."""
    result = session.execute(_fenced_statement(name), {**_held_by(claim_), "fenced_value": value})
    return cast(CursorResult, result).rowcount == 1


def _held_by(claim_: Claim) -> dict[str, int]:
    """The parameters of ``_held``."""
    return {"held_id": claim_.submission_id, "held_attempt": claim_.attempt}


def _held() -> ColumnElement[bool]:
    """``holds`` on the table, bound (``held_id``, ``held_attempt``: ``_held_by``)."""
    column = SUBMISSIONS.c
    return and_(
        column.id == bindparam("held_id", type_=Integer),
        column.attempt == bindparam("held_attempt", type_=Integer),
        column.status == Status.JUDGING,
    )


@cache
def _fenced_statement(name: str) -> Update:
    """``_fenced_set``'s UPDATE of column ``name`` (bound: ``fenced_value`` and ``_held``'s)."""
    column = SUBMISSIONS.c[name]
    return update(SUBMISSIONS).where(_held()).values({name: bindparam("fenced_value", type_=column.type)})


def _add_results(session: Session, claim_: Claim, results: Sequence[ResultRow]) -> None:
    """Insert ``results`` under the claim's submission and attempt, messages cut to MESSAGE_LIMIT,
    in one statement of the table (no ORM objects: rows a worker writes are never read back
    through this session; not committed)."""
    if not results:
        return
    fenced = {"submission_id": claim_.submission_id, "attempt": claim_.attempt}
    rows = [
        {**RESULT_DEFAULTS, **result, **fenced, "message": str(result.get("message") or "")[:MESSAGE_LIMIT] or None}
        for result in results
    ]
    session.execute(insert(RESULTS), rows)


def finish(
    session: Session,
    claim_: Claim,
    *,
    verdict: str,
    compile_message: str | None,
    judge_message: str | None,
    time_ms: int | None,
    memory_kib: int | None,
    tests_passed: int,
    tests_total: int,
    score: float | None = None,
    max_score: float | None = None,
    results: Sequence[ResultRow] = (),
) -> bool:
    """End the judging with its ``verdict``, messages, largest CPU time (ms) and peak memory (KiB),
    the count of test cases passed and run, and its ``score`` out of ``max_score`` (the package's
    grading; None: not graded / unbounded), storing with it its test ``results`` not yet stored
    (``ResultRow``: new rows, as ``store_tests``); False, changing nothing, if the claim no longer holds.
    Committed in one transaction with the submission's scoreboard cell (``judge.board.refresh``)."""
    values = dict(
        verdict=verdict,
        compile_message=compile_message or None,
        judge_message=judge_message or None,
        time_ms=time_ms,
        memory_kib=memory_kib,
        finished_at=utcnow(),
        tests_passed=tests_passed,
        tests_total=tests_total,
        score=score,
        max_score=max_score,
    )
    parameters = {**_held_by(claim_), **{f"finish_{name}": value for name, value in values.items()}}
    done = session.execute(_finish_statement(), parameters).first()
    if done is None:
        session.rollback()
        return False
    _add_results(session, claim_, results)
    _refresh(session, [done])
    session.commit()
    return True


FINISHED = (
    "verdict",
    "compile_message",
    "judge_message",
    "time_ms",
    "memory_kib",
    "finished_at",
    "tests_passed",
    "tests_total",
    "score",
    "max_score",
)


@cache
def _finish_statement() -> ReturningUpdate:
    """``finish``'s UPDATE … RETURNING the cell's columns, built once per process (bound:
    ``finish_<column>`` for each of ``FINISHED``, and ``_held``'s)."""
    column = SUBMISSIONS.c
    return (
        update(SUBMISSIONS)
        .where(_held())
        .values(
            status=Status.DONE,
            lease_expires_at=None,
            **{name: bindparam(f"finish_{name}", type_=column[name].type) for name in FINISHED},
        )
        .returning(column.contest_id, column.user_id, column.problem_id, column.is_jury)
    )


def give_back(session: Session, claim_: Claim) -> bool:
    """Put the submission back in the queue (the worker stops); False if the claim no longer holds. Committed."""
    held = _fenced(session, claim_, status=Status.QUEUED, worker_id=None, lease_expires_at=None)
    session.commit()
    return held


def requeue_expired(session: Session, max_attempts: int) -> int:
    """Put submissions with an expired lease back in the queue; once ``max_attempts`` judgings of a
    submission were lost this way, end it as JE with the reason. Returns how many rows changed. Committed.

    Lost judgings are counted apart from ``attempt``, which rejudges also advance.
    """
    now = utcnow()
    expired = and_(Submission.status == Status.JUDGING, Submission.lease_expires_at < now)
    failed = session.execute(
        update(Submission)
        .where(and_(expired, Submission.lost_judgings + 1 >= max_attempts))
        .values(
            status=Status.DONE,
            verdict=Verdict.JE,
            finished_at=now,
            worker_id=None,
            lease_expires_at=None,
            lost_judgings=Submission.lost_judgings + 1,
            judge_message=f"judging was interrupted {max_attempts} times (worker lost)",
        )
        .returning(*_CELL)
        .execution_options(synchronize_session=False)
    ).all()
    _refresh(session, failed)
    requeued = session.execute(
        update(Submission)
        .where(expired)
        .values(status=Status.QUEUED, worker_id=None, lease_expires_at=None, lost_judgings=Submission.lost_judgings + 1)
        .execution_options(synchronize_session=False)
    )
    session.commit()
    return len(failed) + cast(CursorResult, requeued).rowcount


# rejudges wait behind live contest and practice submissions
_REJUDGE_RESET = dict(
    status=Status.QUEUED,
    verdict=None,
    compile_message=None,
    judge_message=None,
    time_ms=None,
    memory_kib=None,
    tests_passed=None,
    tests_total=None,
    score=None,
    max_score=None,
    worker_id=None,
    lease_expires_at=None,
    started_at=None,
    finished_at=None,
    priority=int(Priority.REJUDGE),
)


def rejudge_matches(
    *,
    submission_id: int | None = None,
    contest_id: int | None = None,
    problem_id: str | None = None,
    only_non_ac: bool = False,
) -> list[ColumnElement[bool]]:
    """SQL conditions on ``Submission``: the submissions ``rejudge`` with the same arguments moves."""
    conditions: list[ColumnElement[bool]] = [Submission.status.in_((Status.DONE, Status.JUDGING))]
    if submission_id is not None:
        conditions.append(Submission.id == submission_id)
    if contest_id is not None:
        conditions.append(Submission.contest_id == contest_id)
    if problem_id is not None:
        conditions.append(Submission.problem_id == problem_id)
    if only_non_ac:
        conditions.append(or_(Submission.verdict.is_(None), Submission.verdict != Verdict.AC))
    return conditions


def rejudge(
    session: Session,
    *,
    submission_id: int | None = None,
    contest_id: int | None = None,
    problem_id: str | None = None,
    only_non_ac: bool = False,
) -> list[int]:
    """Put the matching submissions back in the queue; returns their ids in order. Committed.

    Only ``done`` and ``judging`` submissions move (queued ones are waiting already). ``attempt`` is
    kept: the next claim increments it, so the new judging's test results are kept apart from the old
    ones, and a worker still judging the old attempt is fenced off (``holds`` needs ``status =
    judging``): its late writes are discarded.
    """
    conditions = rejudge_matches(
        submission_id=submission_id, contest_id=contest_id, problem_id=problem_id, only_non_ac=only_non_ac
    )
    moved = session.execute(
        update(Submission)
        .where(*conditions)
        .values(**_REJUDGE_RESET)
        .returning(Submission.id, *_CELL)
        .execution_options(synchronize_session=False)
    ).all()
    _refresh(session, moved)
    session.commit()
    return sorted(row.id for row in moved)
