"""Live events as server-sent events (``judge.events``): ``/api/v1/contests/{id}/events`` (scoreboard
and verdicts as the caller may see them) and ``/api/v1/submissions/{id}/events`` (one submission's
status, test results and verdict)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.lookups import board_view, viewable_submission
from judge.auth import current_user, db_session, optional_user
from judge.events import ContestFeed, SubmissionFeed, event_response
from judge.models import User
from judge.schemas import PathId

router = APIRouter(prefix="/api/v1", tags=["events"])


@router.get("/contests/{contest_id}/events")
def contest_events(
    request: Request,
    contest_id: PathId,
    user: User | None = Depends(optional_user),
    session: Session = Depends(db_session),
    poll: float = Query(1.0, ge=0.05, le=30),
    max_seconds: float = Query(600, gt=0, le=3600),
):
    """Server-sent events: ``scoreboard`` (the board, at once and on every change in the caller's
    view) and ``verdict`` (the jury: every submission; a student: their own)."""
    contest, view = board_view(session, user, contest_id)
    return event_response(request, session, ContestFeed(contest.id, user, view), poll, max_seconds)


@router.get("/submissions/{submission_id}/events")
def submission_events(
    request: Request,
    submission_id: PathId,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
    poll: float = Query(0.5, ge=0.05, le=30),
    max_seconds: float = Query(600, gt=0, le=3600),
):
    """Server-sent events of one submission: ``status``, ``test`` per finished test case (as much as
    the caller may see), ``verdict``, then the stream ends."""
    row = viewable_submission(session, user, submission_id)
    level = rules.detail_level(session, user, row)
    return event_response(request, session, SubmissionFeed(row.id, level), poll, max_seconds)
