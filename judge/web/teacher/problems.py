"""The teacher's problems page: every problem (loaded or unloaded) with its limits, a form to upload
a package zip, and a button to unload a problem or load it again. The upload is the API's own
(``judge.package_zip.store_zip``, as ``POST /api/v1/problems``), unloading the CLI's
(``judge.package_store.unload_problem``, as ``judge problem unload``). The upload form posts to a
router of its own (``upload_router``), included with the API upload's body limit
(``judge.api.problems.upload_body_limit``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request, UploadFile
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.auth import db_session
from judge.clock import utcnow
from judge.models import Problem, User
from judge.package_store import unload_problem
from judge.package_zip import refusal_status, store_upload
from judge.packages import PackageError
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import csrf, jury_viewer, redirect

router = APIRouter(route_class=PageRoute, include_in_schema=False)
upload_router = APIRouter(route_class=PageRoute, include_in_schema=False)


def _problems_page(
    request: Request, session: Session, user: User, error: str | None = None, notice: str | None = None, status=200
) -> Response:
    problems = session.scalars(select(Problem).order_by(Problem.archived, Problem.id)).all()
    return page(
        request, "teacher/problems.html", status=status, user=user, problems=problems, error=error, notice=notice
    )


@router.get("/teacher/problems")
def problems_page(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """Every problem, the upload form and the unload buttons."""
    return _problems_page(request, session, user)


@upload_router.post("/teacher/problems", dependencies=csrf)
def upload(
    request: Request,
    file: UploadFile | None = None,
    replace: bool = Form(False),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Load an uploaded package zip; a refusal (too big, a bad or unsafe zip, an id taken, a problem
    of another teacher's contest) is shown above the form with the API's status (413, 422, 409)."""
    if file is None or not file.filename:
        return _problems_page(request, session, user, "choose a package zip", status=422)
    settings = request.app.state.settings
    scratch = settings.work_dir / "uploads"
    try:
        row = store_upload(
            session,
            file.file,
            file.filename,
            scratch,
            max_bytes=settings.max_package_bytes,
            replace=replace,
            replaceable=lambda problem_id: rules.package_change_refusal(session, user, problem_id, utcnow()),
        )
    except PackageError as exc:
        session.rollback()
        return _problems_page(request, session, user, str(exc), status=refusal_status(exc))
    session.commit()
    return _problems_page(request, session, user, notice=f"loaded {row.id} ({row.name})")


@router.post("/teacher/problems/{problem_id}/unload", dependencies=csrf)
def unload(
    request: Request,
    problem_id: str,
    undo: bool = Form(False),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Unload the problem (or with ``undo`` load it again), then back to the list; a problem of
    another teacher's contest that has not ended is left as it is (409, the reason on the page)."""
    refusal = rules.package_change_refusal(session, user, problem_id, utcnow())
    if refusal is not None:
        return _problems_page(request, session, user, refusal, status=409)
    unload_problem(session, problem_id, undo=undo)
    return redirect("/teacher/problems")
