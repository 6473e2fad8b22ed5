"""``/api/ccs/contests/{id}/event-feed`` (NDJSON notifications, ``judge.ccs.feed``), a submission's
files as a zip, and a problem's package as a zip (the jury's), in the Contest API of
``judge.api.ccs`` (same auth, same views, same error form)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse

from judge.api.ccs import CcsRoute, ccs_user, contest_view
from judge.api.errors import SpecErrorOut, answers
from judge.ccs.feed import EventFeed, snapshots, stream, valid_token
from judge.ccs.objects import ContestView
from judge.ccs.package import package_zip, source_zip
from judge.models import PackageArchive, Problem, Submission, User
from judge.schemas import whole_number

router = APIRouter(prefix="/api/ccs/contests/{contest_id}", tags=["contest api"], route_class=CcsRoute)


def body_answers(media_type: str, what: str, *statuses: int) -> dict[int | str, dict]:
    """OpenAPI answers of a route whose 200 is ``what`` as ``media_type`` (not JSON), and
    ``statuses`` in the specification's error form (``judge.api.ccs``)."""
    ok = {"description": what, "content": {media_type: {"schema": {"type": "string", "description": what}}}}
    return {200: ok, **answers(*statuses, form=SpecErrorOut)}


FEED_ANSWERS = body_answers(
    "application/x-ndjson",
    'one JSON notification per line (Contest_API.md, "Event feed"), an empty line as keep-alive',
    400,
    401,
)
FEED_ANSWERS[400]["description"] = "a since_token (or since_id) this feed never gave"
ZIP_ANSWERS = body_answers("application/zip", "a zip archive", 401)


@router.get("/event-feed", response_class=StreamingResponse, responses=FEED_ANSWERS)
def event_feed(
    request: Request,
    view: ContestView = Depends(contest_view),
    user: User | None = Depends(ccs_user),
    since_token: str | None = Query(None, max_length=40),
    since_id: str | None = Query(None, max_length=40, description="the name of since_token before 2022-07"),
    max_seconds: float | None = Query(None, gt=0, le=86400, description="end the stream after this long"),
    poll_s: float = Query(1.0, alias="poll", ge=0.05, le=30, description="seconds between looks at the database"),
):
    """NDJSON notifications of every object the caller may see, then of each change; ends after
    ``end_of_updates``. ``since_token``: reconnect (400 for a token this feed never gave)."""
    contest_id = view.contest.id
    for token in (since_token, since_id):
        if token is not None and not valid_token(contest_id, token):
            raise HTTPException(400, f"unknown token {token!r}")
    poll = snapshots(request.app.state.sessions, contest_id, view.view, user.id if user else None, view.cache_dir)
    view.session.close()  # the stream opens a session per poll: it must not hold a pooled connection
    return StreamingResponse(
        stream(EventFeed(contest_id), poll, poll_s, request.is_disconnected, max_seconds),
        media_type="application/x-ndjson",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get("/submissions/{submission_id}/files", response_class=Response, responses=ZIP_ANSWERS)
def submission_files(submission_id: str, view: ContestView = Depends(contest_view)):
    """The submission's source file in a zip (the jury only; 404 for anyone else)."""
    number = whole_number(submission_id)
    row = view.session.get(Submission, number) if number else None
    if row is None or row.contest_id != view.contest.id or row.is_jury or not view.jury:
        raise HTTPException(404, f"no files of submission {submission_id!r}")
    return Response(source_zip(row.language, row.source), media_type="application/zip")


@router.get("/problems/{problem_id}/package", response_class=Response, responses=ZIP_ANSWERS)
def problem_package(problem_id: str, view: ContestView = Depends(contest_view)):
    """The problem's package as a zip (the jury only)."""
    entry = next((e for e in view.contest.problems if e.problem_id == problem_id), None)
    problem = view.session.get(Problem, problem_id) if entry else None
    archive = view.session.get(PackageArchive, problem.package_sha256) if problem else None
    if archive is None or not view.jury:
        raise HTTPException(404, f"no package of problem {problem_id!r}")
    return Response(package_zip(archive.archive), media_type="application/zip")
