"""The HTTP API (FastAPI; OpenAPI at /docs): submit, follow a submission, read problems and languages.

Bad input never crashes the service: unknown problem → 404, unknown or unavailable language → 422,
empty source → 422, source over 64 KiB → 413 (a body over 1 MiB is refused before it is parsed).
"""
from __future__ import annotations

from datetime import timedelta

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.config import Settings, load_settings
from judge.db import make_engine, make_sessionmaker
from judge.languages import LANGUAGES
from judge.models import Problem, Submission, TestResult, Worker, utcnow
from judge.package_store import cached_package
from judge.packages import PackageError
from judge.schemas import (
    LanguageOut,
    ProblemOut,
    ProblemSummary,
    SampleOut,
    SubmissionCreated,
    SubmissionIn,
    SubmissionOut,
    TestResultOut,
)
from judge.verdicts import MLE, OLE, RTE, TLE

MAX_BODY_BYTES = 1 << 20
WORKER_ALIVE = timedelta(minutes=2)
DETAIL_VERDICTS = (TLE, MLE, OLE, RTE)  # their reasons hold no test data


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the API app for ``settings`` (from the environment by default).

    The database must already be migrated (``judge serve`` and ``judge db upgrade`` do it).
    """
    settings = settings or load_settings()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    app = FastAPI(title="classjudge", version="0.1.0",
                  description="Online judge for class contests: submit, follow verdicts, read problems.")
    app.state.settings, app.state.engine = settings, engine

    def db():
        with sessions() as session:
            yield session

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": f"request body over {MAX_BODY_BYTES} bytes"}, status_code=413)
        return await call_next(request)

    @app.get("/api/v1/languages", response_model=list[LanguageOut])
    def languages(session: Session = Depends(db)):
        """Every judge language and whether a live worker can judge it."""
        live = _live_languages(session)
        return [LanguageOut(id=l.id, name=l.name, available=None if live is None else l.id in live)
                for l in LANGUAGES.values()]

    @app.get("/api/v1/problems", response_model=list[ProblemSummary])
    def problems(session: Session = Depends(db)):
        """All loaded problems, by id."""
        rows = session.scalars(select(Problem).order_by(Problem.id)).all()
        return [ProblemSummary(id=p.id, name=p.name, time_limit_ms=p.time_limit_ms, memory_kib=p.memory_kib)
                for p in rows]

    @app.get("/api/v1/problems/{problem_id}", response_model=ProblemOut)
    def problem(problem_id: str, lang: str = "en", session: Session = Depends(db)):
        """A problem's statement (Markdown, ``?lang=ro``), limits and sample tests."""
        row = session.get(Problem, problem_id)
        if row is None:
            raise HTTPException(404, f"no problem {problem_id!r}")
        try:
            package = cached_package(session, row.package_sha256, row.id, settings.work_dir / "packages")
        except PackageError as exc:
            raise HTTPException(500, f"package of {problem_id} cannot be read: {exc}") from exc
        shown = lang if lang in package.statements else "en"
        samples = [SampleOut(name=t.name, input=t.input_path.read_text(errors="replace"),
                             answer=t.answer_path.read_text(errors="replace"))
                   for t in package.tests if t.group == "sample"]
        return ProblemOut(
            id=row.id, name=row.name, time_limit_ms=row.time_limit_ms, memory_kib=row.memory_kib,
            statement=package.statement(shown), statement_language=shown,
            statement_languages=sorted(package.statements), output_limit_bytes=package.output_bytes,
            input_file=package.input_file, output_file=package.output_file, samples=samples,
        )

    @app.post("/api/v1/submissions", status_code=202, response_model=SubmissionCreated)
    def submit(body: SubmissionIn, session: Session = Depends(db)):
        """Queue a submission; 404 unknown problem, 422 bad language or empty source, 413 over 64 KiB."""
        row = session.get(Problem, body.problem)
        if row is None:
            raise HTTPException(404, f"no problem {body.problem!r}")
        _check_language(session, body.language)
        size = len(body.source.encode("utf-8"))
        if size > settings.max_source_bytes:
            raise HTTPException(413, f"source is {size} bytes; the limit is {settings.max_source_bytes}")
        if not body.source.strip():
            raise HTTPException(422, "source is empty")
        if "\x00" in body.source:
            raise HTTPException(422, "source contains a NUL character")
        submission = Submission(problem_id=row.id, package_sha256=row.package_sha256,
                                language=body.language, source=body.source, status="queued")
        session.add(submission)
        session.commit()
        return SubmissionCreated(id=submission.id, status=submission.status,
                                 url=f"/api/v1/submissions/{submission.id}")

    @app.get("/api/v1/submissions/{submission_id}", response_model=SubmissionOut)
    def submission(submission_id: int, session: Session = Depends(db)):
        """A submission's status, verdict and the results of its latest judging."""
        row = session.get(Submission, submission_id)
        if row is None:
            raise HTTPException(404, f"no submission {submission_id}")
        return submission_out(session, row)

    return app


def submission_out(session: Session, row: Submission) -> SubmissionOut:
    """The API view of a submission: results of its current attempt; checker messages only for
    samples (a secret test's message could reveal its data)."""
    results = session.scalars(
        select(TestResult).where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
        .order_by(TestResult.ordinal)
    ).all()
    return SubmissionOut(
        id=row.id, problem=row.problem_id, language=row.language, status=row.status, verdict=row.verdict,
        compile_message=row.compile_message, judge_message=row.judge_message, time_ms=row.time_ms,
        memory_kib=row.memory_kib, tests_passed=row.tests_passed, tests_total=row.tests_total,
        created_at=row.created_at, finished_at=row.finished_at,
        results=[TestResultOut(ordinal=r.ordinal, test=r.test_name, group=r.test_group, verdict=r.verdict,
                               time_ms=r.time_ms, wall_ms=r.wall_ms, memory_kib=r.memory_kib,
                               message=r.message if (r.test_group == "sample" or r.verdict in DETAIL_VERDICTS) else None)
                 for r in results],
    )


def _live_languages(session: Session) -> set[str] | None:
    """Languages some live worker passed the self-test for; None when no worker has ever reported."""
    workers = session.scalars(select(Worker)).all()
    if not workers:
        return None
    since = utcnow() - WORKER_ALIVE
    return {lang for w in workers if w.last_heartbeat >= since for lang in (w.languages or [])}


def _check_language(session: Session, language: str) -> None:
    if language not in LANGUAGES:
        raise HTTPException(422, f"unknown language {language!r}; see GET /api/v1/languages")
    live = _live_languages(session)
    if live is not None and language not in live:
        raise HTTPException(422, f"language {language!r} is unavailable: no worker passed its self-test")
