"""``/api/v1/problems``: the problems the caller may see and one problem's statement, limits and
sample tests (no token needed: a statement is public unless its contest has not started yet), and a
teacher's upload of a package zip."""

from __future__ import annotations

from fastapi import APIRouter, Depends, File, Form, HTTPException, Request, UploadFile
from pydantic import BaseModel
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.auth import db_session, jury_user, optional_user
from judge.clock import utcnow
from judge.models import Problem, User
from judge.package_store import cached_package
from judge.package_zip import refusal_status, store_upload
from judge.packages import PackageError
from judge.schemas import storable

router = APIRouter(prefix="/api/v1", tags=["problems"])


class ProblemSummary(BaseModel):
    """A problem in the list: CPU time limit per test (ms), memory limit (KiB)."""

    id: str
    name: str
    time_limit_ms: int
    memory_kib: int


class SampleOut(BaseModel):
    """A sample test: its input and the judge's answer, as text; for an interactive problem, the
    sample conversation too (``>`` lines the submission writes, ``<`` lines it reads;
    None otherwise)."""

    name: str
    input: str
    answer: str
    interaction: str | None = None


class ProblemOut(ProblemSummary):
    """A problem: statement in the requested language (its source: ``statement_format`` ``md``
    Markdown or ``tex`` LaTeX, Kattis problem package format), its languages, limits (output in
    bytes), file names when the problem reads or writes files instead of the standard streams, samples."""

    statement: str
    statement_format: str
    statement_language: str
    statement_languages: list[str]
    output_limit_bytes: int
    input_file: str | None
    output_file: str | None
    samples: list[SampleOut]


@router.get("/problems", response_model=list[ProblemSummary])
def problems(session: Session = Depends(db_session), user: User | None = Depends(optional_user)):
    """All loaded problems the caller may see, by id (no token needed; unloaded ones left out)."""
    return [
        ProblemSummary(id=p.id, name=p.name, time_limit_ms=p.time_limit_ms, memory_kib=p.memory_kib)
        for p in rules.listed_problems(session, user, utcnow())
    ]


@router.get("/problems/{problem_id}", response_model=ProblemOut)
def problem(
    request: Request,
    problem_id: str,
    lang: str = "en",
    session: Session = Depends(db_session),
    user: User | None = Depends(optional_user),
):
    """A problem's statement (Markdown or LaTeX, ``?lang=ro``), limits and sample tests (no token needed;
    hidden until its contest starts)."""
    # an id with a NUL character names no problem (PostgreSQL refuses even to look it up)
    row = session.get(Problem, problem_id) if storable(problem_id) else None
    if row is None or not rules.problem_visible(session, user, problem_id, utcnow()):
        raise HTTPException(404, f"no problem {problem_id!r}")
    work_dir = request.app.state.settings.work_dir
    try:
        package = cached_package(session, row.package_sha256, row.id, work_dir / "packages")
    except PackageError as exc:
        raise HTTPException(500, f"package of {problem_id} cannot be read: {exc}") from exc
    shown = lang if lang in package.statements else "en"
    samples = [
        SampleOut(
            name=t.name,
            input=t.input_path.read_text(errors="replace"),
            answer=t.answer_path.read_text(errors="replace"),
            interaction=package.interaction(t),
        )
        for t in package.tests
        if t.sample
    ]
    return ProblemOut(
        id=row.id,
        name=row.name,
        time_limit_ms=row.time_limit_ms,
        memory_kib=row.memory_kib,
        statement=package.statement(shown),
        statement_format=path.suffix.lstrip(".") if (path := package.statement_path(shown)) else "md",
        statement_language=shown,
        statement_languages=sorted(package.statements),
        output_limit_bytes=package.output_bytes,
        input_file=package.input_file,
        output_file=package.output_file,
        samples=samples,
    )


# A package zip is far over the API's 1 MiB body limit; its own limit, JUDGE_MAX_PACKAGE_BYTES, is
# applied as the upload is copied (store_upload). This is only the route's outer bound (bytes).
UPLOAD_BODY_BYTES = 4 << 30


@router.post("/problems", response_model=ProblemSummary, status_code=201, max_body_size=UPLOAD_BODY_BYTES)
def upload_problem(
    request: Request,
    file: UploadFile = File(..., description="a package zip: problem.yaml at its top or in one top folder"),
    replace: bool = Form(False, description="replace the package of an existing problem of that id"),
    session: Session = Depends(db_session),
    user: User = Depends(jury_user),
):
    """Load a problem package zip (Kattis problem package format) sent as multipart ``file``
    (teachers and admins). 413 for a zip over ``JUDGE_MAX_PACKAGE_BYTES``; 409 when the id exists
    and ``replace`` is not set; 422 with the reason for a bad, unsafe or unloadable package."""
    settings = request.app.state.settings
    try:
        row = store_upload(
            session,
            file.file,
            file.filename or "package.zip",
            settings.work_dir / "uploads",
            max_bytes=settings.max_package_bytes,
            replace=replace,
        )
    except PackageError as exc:
        raise HTTPException(refusal_status(exc), str(exc)) from exc
    session.commit()
    return ProblemSummary(id=row.id, name=row.name, time_limit_ms=row.time_limit_ms, memory_kib=row.memory_kib)
