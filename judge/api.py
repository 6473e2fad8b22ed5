"""The HTTP API (FastAPI; OpenAPI at /docs): submit, follow a submission, read problems and languages.

Bad input never crashes the service: unknown problem → 404, unknown or unavailable language → 422,
empty source → 422, source over 64 KiB → 413 (a body over 1 MiB is refused before it is parsed,
chunked ones as they arrive); ids outside the database's INTEGER range, text with a NUL character or
a lone surrogate, times outside 1970-3000 → 422 (``judge.schemas``; tests in ``tests/hostile``).

Access (issue #5, rules in ``judge.contests``): every endpoint needs a bearer token (``POST
/api/v1/auth/token``) except the problem statements, which are public unless their contest has not
started yet. A student sees only their own submissions, and of secret tests only the verdicts.
Contests, scoreboards, events and rejudging are in ``judge.api_contests``.
"""

from __future__ import annotations

import json
import math
from datetime import timedelta

from fastapi import Depends, FastAPI, HTTPException, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import queue
from judge.api_contests import ContestSubmissionIn, SubmissionView, TestResultView, include_contest_routes
from judge.api_ops import router as ops_router
from judge.auth import current_user, db_session, optional_user
from judge.config import Settings, load_settings
from judge.db import make_engine, make_sessionmaker
from judge.languages import LANGUAGES
from judge.models import Contest, Problem, Submission, TestResult, User, Worker, utcnow
from judge.package_store import cached_package
from judge.packages import PackageError
from judge.schemas import (
    LanguageOut,
    PathId,
    ProblemOut,
    ProblemSummary,
    SampleOut,
    SubmissionCreated,
    storable,
)

MAX_BODY_BYTES = 1 << 20
WORKER_ALIVE = timedelta(minutes=2)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the API app for ``settings`` (from the environment by default).

    The database must already be migrated (``judge serve`` and ``judge db upgrade`` do it).
    """
    settings = settings or load_settings()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    app = FastAPI(
        title="classjudge",
        version="0.1.0",
        max_body_size=MAX_BODY_BYTES,  # 413 past 1 MiB, chunked too
        description="Online judge for class contests: submit, follow verdicts, read problems.",
    )
    app.state.settings, app.state.engine, app.state.sessions = settings, engine, sessions
    include_contest_routes(app)
    app.include_router(ops_router)
    from judge.web import include_web_routes  # imported here: the pages import this module

    include_web_routes(app)  # the pages: /, /login, /problems/…, /contests/… (judge.web)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> Response:
        """422 with FastAPI's usual body, ASCII-escaped and strict: the input it echoes may hold a
        lone surrogate (no UTF-8 form) or 1e999 (no JSON form); FastAPI's own handler gave a 500."""
        body = json.dumps({"detail": _json_safe(jsonable_encoder(exc.errors()))}, ensure_ascii=True, allow_nan=False)
        return Response(body, status_code=422, media_type="application/json")

    db = db_session  # one session per request, shared with the auth dependencies (no pool deadlock)

    @app.get("/api/v1/languages", response_model=list[LanguageOut], dependencies=[Depends(current_user)])
    def languages(session: Session = Depends(db)):
        """Every judge language and whether a live worker can judge it."""
        live = _live_languages(session)
        return [
            LanguageOut(id=l.id, name=l.name, available=None if live is None else l.id in live)
            for l in LANGUAGES.values()
        ]

    @app.get("/api/v1/problems", response_model=list[ProblemSummary])
    def problems(session: Session = Depends(db), user: User | None = Depends(optional_user)):
        """All loaded problems the caller may see, by id (no token needed)."""
        rows = session.scalars(select(Problem).order_by(Problem.id)).all()
        now = utcnow()
        return [
            ProblemSummary(id=p.id, name=p.name, time_limit_ms=p.time_limit_ms, memory_kib=p.memory_kib)
            for p in rows
            if rules.problem_visible(session, user, p.id, now)
        ]

    @app.get("/api/v1/problems/{problem_id}", response_model=ProblemOut)
    def problem(
        problem_id: str, lang: str = "en", session: Session = Depends(db), user: User | None = Depends(optional_user)
    ):
        """A problem's statement (Markdown, ``?lang=ro``), limits and sample tests (no token needed;
        hidden until its contest starts)."""
        # an id with a NUL character names no problem (PostgreSQL refuses even to look it up)
        row = session.get(Problem, problem_id) if storable(problem_id) else None
        if row is None or not rules.problem_visible(session, user, problem_id, utcnow()):
            raise HTTPException(404, f"no problem {problem_id!r}")
        try:
            package = cached_package(session, row.package_sha256, row.id, settings.work_dir / "packages")
        except PackageError as exc:
            raise HTTPException(500, f"package of {problem_id} cannot be read: {exc}") from exc
        shown = lang if lang in package.statements else "en"
        samples = [
            SampleOut(
                name=t.name,
                input=t.input_path.read_text(errors="replace"),
                answer=t.answer_path.read_text(errors="replace"),
            )
            for t in package.tests
            if t.group == "sample"
        ]
        return ProblemOut(
            id=row.id,
            name=row.name,
            time_limit_ms=row.time_limit_ms,
            memory_kib=row.memory_kib,
            statement=package.statement(shown),
            statement_language=shown,
            statement_languages=sorted(package.statements),
            output_limit_bytes=package.output_bytes,
            input_file=package.input_file,
            output_file=package.output_file,
            samples=samples,
        )

    @app.post("/api/v1/submissions", status_code=202, response_model=SubmissionCreated)
    def submit(body: ContestSubmissionIn, session: Session = Depends(db), user: User = Depends(current_user)):
        """Queue a submission; 404 unknown problem, 422 bad language or empty source, 413 over 64 KiB;
        to a contest (``contest`` id, ``problem`` letter): 403 with the reason outside its window or
        for a non-participant; 429 with ``Retry-After`` when a student submits too often."""
        now = utcnow()
        target = rules.submission_target(session, user, body.problem, body.contest, now)
        row = target.problem
        _check_language(session, body.language)
        size = len(body.source.encode("utf-8"))
        if size > settings.max_source_bytes:
            raise HTTPException(413, f"source is {size} bytes; the limit is {settings.max_source_bytes}")
        if not body.source.strip():
            raise HTTPException(422, "source is empty")
        if "\x00" in body.source:
            raise HTTPException(422, "source contains a NUL character")
        rules.take_submission_slot(session, user, app.state.submit_interval_s, now)
        submission = Submission(
            problem_id=row.id,
            package_sha256=row.package_sha256,
            language=body.language,
            source=body.source,
            status="queued",
            created_at=now,
            user_id=user.id,
            contest_id=target.contest.id if target.contest else None,
            is_jury=target.is_jury,
            **queue.queue_position(session, user.id, queue.CONTEST if target.contest else queue.PRACTICE),
        )
        session.add(submission)
        session.commit()
        return SubmissionCreated(id=submission.id, status=submission.status, url=f"/api/v1/submissions/{submission.id}")

    @app.get("/api/v1/submissions/{submission_id}", response_model=SubmissionView)
    def submission(submission_id: PathId, session: Session = Depends(db), user: User = Depends(current_user)):
        """A submission's status, verdict and the results of its latest judging (its author and the jury)."""
        row = session.get(Submission, submission_id)
        if row is None or not rules.can_view_submission(session, user, row):
            raise HTTPException(404, f"no submission {submission_id}")
        return submission_out(session, row, user)

    return app


def submission_out(session: Session, row: Submission, viewer: User) -> SubmissionView:
    """The API view of a submission for ``viewer`` (who may see it): results of its current attempt,
    shown per ``judge.contests.shown_test`` (samples whole; secret tests: the jury sees everything, a
    student the verdict, or also names, times and resource reasons when the contest shows details;
    a secret test's checker message, which could reveal its data, only to the jury)."""
    results = (
        []
        if row.status == "queued"
        else session.scalars(  # queued again: the old results are stale
            select(TestResult)
            .where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
            .order_by(TestResult.ordinal)
        ).all()
    )
    level = rules.detail_level(session, viewer, row)
    author = session.get(User, row.user_id) if row.user_id else None
    contest = session.get(Contest, row.contest_id) if row.contest_id else None
    entry = next((p for p in contest.problems if p.problem_id == row.problem_id), None) if contest else None
    return SubmissionView(
        id=row.id,
        problem=row.problem_id,
        language=row.language,
        status=row.status,
        verdict=row.verdict,
        compile_message=row.compile_message,
        judge_message=row.judge_message if level == rules.JURY_VIEW else None,  # may name judge internals
        time_ms=row.time_ms,
        memory_kib=row.memory_kib,
        tests_passed=row.tests_passed,
        tests_total=row.tests_total,
        created_at=row.created_at,
        finished_at=row.finished_at,
        user=author.name if author else None,
        contest=row.contest_id,
        letter=entry.letter if entry else None,
        is_jury=row.is_jury,
        attempt=row.attempt,
        results=[TestResultView(**rules.shown_test(r, level)) for r in results],
    )


def _json_safe(value):
    """``value`` (JSON-like) with every infinite or NaN float as text: JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    return value


def _live_languages(session: Session) -> set[str] | None:
    """Languages some live worker passed the self-test for; None when no worker is alive (none has
    reported yet, or all are down for a restart: submissions then wait in the queue for them, where
    refusing them would tell students that every language failed its self-test)."""
    since = utcnow() - WORKER_ALIVE
    live = session.scalars(select(Worker).where(Worker.last_heartbeat >= since)).all()
    if not live:
        return None
    return {lang for w in live for lang in (w.languages or [])}


def _check_language(session: Session, language: str) -> None:
    if language not in LANGUAGES:
        raise HTTPException(422, f"unknown language {language!r}; see GET /api/v1/languages")
    live = _live_languages(session)
    if live is not None and language not in live:
        raise HTTPException(422, f"language {language!r} is unavailable: no worker passed its self-test")
