"""A submission as the API shows it to one viewer (``GET /api/v1/submissions/{id}``, the pages),
and the version that fixes every byte of that view, from which its ``ETag`` is made
(``judge.api.etag``)."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from pydantic import BaseModel
from sqlalchemy import Integer, Select, bindparam, func, select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.models import Contest, Submission, TestResult, User
from judge.package_store import package_pass_fail
from judge.schemas import UtcStamp
from judge.vocabulary import DetailLevel, Status


class TestResultView(BaseModel):
    """One test case's result as the viewer may see it: CPU time (ms), wall time (ms), peak memory
    (KiB), the checker's message and its structured feedback (a JSON object drawn by
    ``judge.pictures``). For a student's secret test only the verdict (the name becomes
    ``secret/<ordinal>``, times and memory null, no message or feedback) unless the contest shows
    details."""

    ordinal: int
    test: str
    group: str
    verdict: str
    time_ms: int | None = None
    wall_ms: int | None = None
    memory_kib: int | None = None
    message: str | None = None
    feedback: dict | None = None


class SubmissionView(BaseModel):
    """A submission as the viewer may see it: status queued/judging/done, verdict once done, largest
    CPU time (ms) and peak memory (KiB) over the tests whose figures the viewer sees
    (``judge.contests.shown_figures``: null when it sees none), results of its current judging,
    author, contest and letter, jury flag, judging attempt, and while it is queued, how many queued
    submissions a worker would claim before it (``judge.lifecycle.queued_ahead``)."""

    id: int
    problem: str
    language: str
    status: str
    verdict: str | None
    compile_message: str | None
    judge_message: str | None
    time_ms: int | None
    memory_kib: int | None
    tests_passed: int | None
    tests_total: int | None
    # by a scoring package's grading, out of max_score (null: unbounded, not graded, or a pass-fail
    # package, whose submissions have a verdict and no score)
    score: float | None = None
    max_score: float | None = None
    created_at: UtcStamp
    finished_at: UtcStamp | None
    results: list[TestResultView]
    user: str | None = None
    contest: int | None = None
    letter: str | None = None
    is_jury: bool = False
    attempt: int = 0
    queue_position: int | None = None  # queued submissions to be claimed before it; null unless queued


class Shown(NamedTuple):
    """What a submission's view holds beside its own row and results: the viewer's detail level,
    the author's name, the contest letter, the queue position and whether its package is a
    pass-fail one (``judge.package_store.package_pass_fail``) (``submission_out``)."""

    level: DetailLevel
    author: str | None
    letter: str | None
    queue_position: int | None
    pass_fail: bool


def shown(session: Session, row: Submission, viewer: User) -> Shown:
    """The parts of ``row``'s view for ``viewer`` that come from other rows than its own and its results."""
    author = session.get(User, row.user_id) if row.user_id else None
    contest = session.get(Contest, row.contest_id) if row.contest_id else None
    entry = next((p for p in contest.problems if p.problem_id == row.problem_id), None) if contest else None
    return Shown(
        rules.detail_level(session, viewer, row),
        author.name if author else None,
        entry.letter if entry else None,
        lifecycle.queued_ahead(session, row),
        package_pass_fail(session, row.package_sha256),
    )


def submission_version(session: Session, row: Submission, around: Shown) -> tuple:
    """What fixes every byte of ``row``'s view (``submission_out``): the columns of the row it reads,
    ``around``, and how many test results of the current attempt are stored (they are only ever
    added, each attempt's apart, and hidden while queued). One COUNT query at most."""
    queued = row.status == Status.QUEUED
    stored = 0 if queued else session.scalar(_stored_statement(), {"id": row.id, "attempt": row.attempt})
    return (
        *(row.id, row.problem_id, row.language, row.status, row.verdict, row.compile_message, row.judge_message),
        *(row.tests_passed, row.tests_total, row.score, row.max_score, row.created_at, row.finished_at),
        *(row.user_id, row.contest_id, row.is_jury, row.attempt, row.time_ms, row.memory_kib),
        *around,
        stored,
    )


@cache
def _stored_statement() -> Select[int]:
    """The count of a submission's stored test results of one attempt (bound: ``id``, ``attempt``),
    built once per process."""
    submission, attempt = bindparam("id", type_=Integer), bindparam("attempt", type_=Integer)
    where = (TestResult.submission_id == submission, TestResult.attempt == attempt)
    return select(func.count()).select_from(TestResult).where(*where)


def submission_out(session: Session, row: Submission, viewer: User, around: Shown | None = None) -> SubmissionView:
    """The API view of a submission for ``viewer`` (who may see it): results of its current attempt,
    shown per ``judge.contests.shown_test`` (samples whole; secret tests: the jury sees everything, a
    student the verdict, or also names, times and resource reasons when the contest shows details;
    a secret test's checker message, which could reveal its data, only to the jury). ``around``:
    ``shown(session, row, viewer)`` when the caller has it already. Every column of ``row`` read here
    is part of ``submission_version`` (``judge.contests.shown_figures`` reads its ``time_ms`` and
    ``memory_kib``). A pass-fail package's submission shows no score: its stored score (the tests
    passed, of those run) is what an IOI contest's board scores it by (``judge.scoring``), not a
    grade of its own."""
    results = (
        []
        if row.status == Status.QUEUED  # queued again: the old results are stale
        else session.scalars(
            select(TestResult)
            .where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
            .order_by(TestResult.ordinal)
        ).all()
    )
    level, author, letter, queue_position, pass_fail = around or shown(session, row, viewer)
    time_ms, memory_kib = rules.shown_figures(row, list(results), level)
    return SubmissionView(
        id=row.id,
        problem=row.problem_id,
        language=row.language,
        status=row.status,
        verdict=row.verdict,
        compile_message=row.compile_message,
        judge_message=row.judge_message if level == DetailLevel.JURY else None,  # may name judge internals
        time_ms=time_ms,
        memory_kib=memory_kib,
        tests_passed=row.tests_passed,
        tests_total=row.tests_total,
        score=None if pass_fail else row.score,
        max_score=None if pass_fail else row.max_score,
        created_at=row.created_at,
        finished_at=row.finished_at,
        user=author,
        contest=row.contest_id,
        letter=letter,
        is_jury=row.is_jury,
        attempt=row.attempt,
        queue_position=queue_position,
        results=[TestResultView.model_validate(rules.shown_test(r, level)) for r in results],
    )
