"""Files the jury downloads: a contest's problem set as PDF and its sources as one zip (its jury only),
and password slips as PDF for accounts whose passwords the caller was just given. The PDFs are
``judge.printouts``' (WeasyPrint), the zip ``judge.source_archive``'s; the teacher's pages and the CLI
call the same functions."""

from __future__ import annotations

import tarfile
from pathlib import Path

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import printouts, users
from judge.api.errors import answers
from judge.api.lookups import jury_contest
from judge.auth import current_user, db_session, jury_user, named_any
from judge.models import Contest, Problem, User
from judge.package_store import cached_package
from judge.packages import PackageError
from judge.schemas import MAX_IMPORTED_USERS, PathId, RequestBody, Text, storable
from judge.source_archive import contest_sources_zip

router = APIRouter(prefix="/api/v1", tags=["downloads"])
LANGUAGE = Query("en", pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$", description="statement language (en, ro, …)")


class SlipIn(RequestBody):
    """One account's slip: its user name and the password just generated for it (null: unknown here)."""

    name: Text = Field(max_length=64)
    password: Text | None = Field(None, max_length=200)


class SlipsIn(RequestBody):
    """The slips to print (in this order) and the sign-in address printed on them (default: this server's)."""

    accounts: list[SlipIn] = Field(min_length=1, max_length=MAX_IMPORTED_USERS)
    sign_in_url: Text | None = Field(None, max_length=300)


class PdfResponse(Response):
    """A PDF document (``application/pdf``)."""

    media_type = "application/pdf"


class ZipResponse(Response):
    """A zip archive (``application/zip``)."""

    media_type = "application/zip"


def sources_download(session: Session, contest: Contest) -> Response:
    """``contest-<id>-sources.zip`` as a download (``judge.source_archive``)."""
    return ZipResponse(
        contest_sources_zip(session, contest),
        headers={"Content-Disposition": f'attachment; filename="contest-{contest.id}-sources.zip"'},
    )


def pdf_response(data: bytes, file_name: str) -> Response:
    """PDF bytes as a download named ``file_name``, never cached (slips hold passwords)."""
    return PdfResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="{file_name}"', "Cache-Control": "no-store"},
    )


def _print(make, *args) -> bytes:
    try:
        return make(*args)
    except printouts.PrintError as exc:
        raise HTTPException(500, str(exc)) from exc


def problem_set(session: Session, contest: Contest, language: str, work_dir: Path) -> bytes:
    """The contest's problem set as PDF bytes (``judge.printouts.problem_set_pdf``); 500 when a
    package cannot be read or the PDF cannot be made."""
    entries = []
    for entry in contest.problems:
        problem = session.get(Problem, entry.problem_id)
        assert problem is not None  # the foreign key
        try:
            package = cached_package(session, problem.package_sha256, problem.id, work_dir / "packages")
        except (PackageError, tarfile.TarError, OSError) as exc:  # an archive that does not unpack
            raise HTTPException(500, f"the package of {problem.id} cannot be read: {exc}") from exc
        entries.append(printouts.PrintedProblem(entry.letter, problem.name, package, problem.package_sha256))
    return _print(printouts.problem_set_pdf, contest.name, (contest.start_at, contest.end_at), entries, language)


def slips(session: Session, actor: User | None, accounts: list[tuple[str, str | None]], sign_in_url: str) -> bytes:
    """Password slips as PDF bytes for ``accounts`` (user name, password), in that order. Each must
    be an account whose password ``actor`` may reset (``judge.users.may_manage``; None: the server's
    operator, any account): 404 for an unknown one, 403 for one it may not manage; the display names
    come from the database."""
    if not 1 <= len(accounts) <= MAX_IMPORTED_USERS:
        raise HTTPException(422, f"1 to {MAX_IMPORTED_USERS} accounts at once")
    names = [name for name, _ in accounts]
    found = {u.name.lower(): u for u in session.scalars(select(User).where(named_any(filter(storable, names))))}
    out = []
    for name, password in accounts:
        account = found.get(name.lower())
        if account is None:
            raise HTTPException(404, f"no user {name[:64]!r}")
        if actor is not None and not users.may_manage(actor, account.role):
            raise HTTPException(403, f"a {actor.role} may not print slips for {account.role} accounts")
        out.append(printouts.Slip(account.name, account.display_name, password))
    return _print(printouts.slips_pdf, out, sign_in_url)


@router.get("/contests/{contest_id}/problemset.pdf", response_class=PdfResponse, responses=answers(403, 404, 422))
def get_problem_set(
    request: Request,
    contest_id: PathId,
    language: str = LANGUAGE,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """The contest's problem set as one PDF (its jury): a cover with the problems by letter, then each
    statement in ``language`` (English where a problem lacks it) with its limits and samples."""
    contest = jury_contest(session, user, contest_id)
    data = problem_set(session, contest, language, request.app.state.settings.work_dir)
    return pdf_response(data, f"contest-{contest.id}-problems-{language}.pdf")


@router.post("/printouts/slips.pdf", response_class=PdfResponse, responses=answers(403, 404))
def post_slips(
    body: SlipsIn, request: Request, user: User = Depends(jury_user), session: Session = Depends(db_session)
):
    """Password slips as one PDF, one per account, to cut apart: send the names and the passwords
    that ``POST /api/v1/users``, ``/users/import`` or ``/users/{name}/password`` just returned
    (teachers: students only; admins: anyone). Nothing is stored."""
    url = body.sign_in_url or str(request.base_url).rstrip("/") + "/login"
    return pdf_response(slips(session, user, [(a.name, a.password) for a in body.accounts], url), "slips.pdf")


@router.get("/contests/{contest_id}/sources.zip", response_class=ZipResponse, responses=answers(403, 404))
def get_sources_zip(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Every source of the contest as one zip: a folder per student, files named by problem letter,
    submission, verdict and time (the contest's jury)."""
    return sources_download(session, jury_contest(session, user, contest_id))
