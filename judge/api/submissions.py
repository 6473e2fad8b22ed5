"""``/api/v1/submissions``: submit, follow one submission, list one's own, read a source, rejudge.

A student sees only their own submissions, and of secret tests only what ``judge.contests.shown_test``
allows; the jury sees everything. The rules of accepting a submission are ``judge.accept``'s.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.datastructures import State

from judge import lifecycle
from judge.accept import Outcome, SubmitRequest, accept_batch
from judge.api import etag
from judge.api.errors import answers
from judge.api.lookups import viewable_submission
from judge.api.submission_view import SubmissionView, shown, submission_out, submission_version
from judge.auth import bearer_token, current_user, db_session, token_refused
from judge.models import Contest, Submission, User
from judge.schemas import PathId, RequestBody, RowId, Text, UtcStamp
from judge.threads import LoopBatcher
from judge.vocabulary import Role, Status

router = APIRouter(prefix="/api/v1", tags=["submissions"])


class SubmissionIn(RequestBody):
    """POST /api/v1/submissions: problem id (a letter when ``contest`` is given), language id, source
    text (UTF-8, at most 64 KiB by default)."""

    problem: Text = Field(min_length=1, max_length=64)
    language: Text = Field(min_length=1, max_length=32)
    source: Text
    contest: RowId | None = None

    def rule_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``judge.accept.accept_submission``."""
        return {"problem": self.problem, "language": self.language, "source": self.source, "contest_id": self.contest}


class SubmissionCreated(BaseModel):
    """202 answer: the new submission's id and where to follow it."""

    id: int
    status: str
    url: str


class SubmissionSummary(BaseModel):
    """A line of a submission list (no source, no test results)."""

    id: int
    user: str | None
    problem: str
    letter: str | None
    language: str
    status: str
    verdict: str | None
    is_jury: bool
    created_at: UtcStamp


class SourceOut(BaseModel):
    """A submission's source text (its author and the jury only)."""

    id: int
    language: str
    source: str


class RejudgeOut(BaseModel):
    """The submissions put back in the queue."""

    rejudged: list[int]


def summaries(session: Session, rows: list[Submission]) -> list[SubmissionSummary]:
    """List lines of ``rows``: author name and contest letter looked up once for all of them."""
    names = dict(session.execute(select(User.id, User.name).where(User.id.in_({r.user_id for r in rows}))).all())
    letters: dict[tuple[int, str], str] = {}
    for contest_id in {r.contest_id for r in rows if r.contest_id}:
        contest = session.get(Contest, contest_id)
        for p in contest.problems if contest else []:
            letters[(contest_id, p.problem_id)] = p.letter
    return [
        SubmissionSummary(
            id=r.id,
            user=names.get(r.user_id) if r.user_id else None,
            problem=r.problem_id,
            letter=letters.get((r.contest_id, r.problem_id)) if r.contest_id else None,
            language=r.language,
            status=r.status,
            verdict=r.verdict,
            is_jury=r.is_jury,
            created_at=r.created_at,
        )
        for r in rows
    ]


SUBMIT_BATCH = 32  # the most submissions one API process writes in one transaction


def submit_batcher(state: State) -> LoopBatcher[SubmitRequest, int | None]:
    """How an API process accepts submissions (``app.state.submits``): one batch at a time
    (``judge.accept.accept_batch``, in a session of ``state.sessions``, under the settings
    ``state.settings`` holds then) of those that came while the last was being written, at most
    ``SUBMIT_BATCH``; each answer waits for its batch's commit."""

    def work(requests: list[SubmitRequest]) -> list[Outcome]:
        with state.sessions() as session:
            return accept_batch(session, state.settings, requests)

    return LoopBatcher(work, SUBMIT_BATCH)


@router.post("/submissions", status_code=202, response_model=SubmissionCreated, responses=answers(403, 404, 429))
async def submit(request: Request, body: SubmissionIn, token: str = Depends(bearer_token)):
    """Queue a submission; 404 unknown problem, 422 bad language or empty source, 413 over 64 KiB;
    to a contest (``contest`` id, ``problem`` letter): 403 with the reason outside its window or
    for a non-participant; 429 with ``Retry-After`` when a student submits too often. The 202 is
    sent once the submission is committed, with those that came at the same time
    (``submit_batcher``)."""
    wanted = SubmitRequest(token, body.problem, body.language, body.source, body.contest)
    submission_id = await request.app.state.submits.run(wanted)
    if submission_id is None:
        raise token_refused()
    created = SubmissionCreated(id=submission_id, status=Status.QUEUED, url=f"/api/v1/submissions/{submission_id}")
    return Response(created.model_dump_json(), 202, media_type="application/json")  # no thread hop to validate it


@router.get("/submissions", response_model=list[SubmissionSummary])
def my_submissions(
    user: User = Depends(current_user), session: Session = Depends(db_session), limit: int = Query(100, ge=1, le=1000)
):
    """The caller's own submissions, newest first."""
    rows = session.scalars(
        select(Submission).where(Submission.user_id == user.id).order_by(Submission.id.desc()).limit(limit)
    )
    return summaries(session, list(rows))


@router.get("/submissions/{submission_id}", response_model=SubmissionView, responses=etag.NOT_MODIFIED)
def submission(
    request: Request, submission_id: PathId, session: Session = Depends(db_session), user: User = Depends(current_user)
):
    """A submission's status, verdict, queue position and latest results (its author and the jury),
    with an ``ETag``: sent back in ``If-None-Match``, it gets 304 and no body while nothing changed.
    To follow a submission to its verdict, prefer ``GET /api/v1/submissions/{id}/events``."""
    row = viewable_submission(session, user, submission_id)
    around = shown(session, row, user)
    tag = etag.tag_of(submission_version(session, row, around))
    return etag.not_modified(request, tag) or etag.tagged_json(submission_out(session, row, user, around), tag)


@router.get("/submissions/{submission_id}/source", response_model=SourceOut)
def submission_source(
    submission_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """A submission's source: its author and the jury only."""
    row = viewable_submission(session, user, submission_id)
    return SourceOut(id=row.id, language=row.language, source=row.source)


@router.post("/submissions/{submission_id}/rejudge", response_model=RejudgeOut, responses=answers(403))
def rejudge_submission(
    submission_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Rejudge one submission (the jury of its contest; for practice submissions, a teacher who sees its author)."""
    row = viewable_submission(session, user, submission_id)
    if user.role == Role.STUDENT:
        raise HTTPException(403, "only a teacher or an admin may rejudge")
    return RejudgeOut(rejudged=lifecycle.rejudge(session, submission_id=row.id))
