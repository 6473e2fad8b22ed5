"""Live events as server-sent events (``judge.events``): ``/api/v1/contests/{id}/events`` (scoreboard,
verdicts and clarifications as the caller may see them) and ``/api/v1/submissions/{id}/events`` (one submission's
status, test results and verdict).

A stream holds a slot (``judge.throttle.StreamSlots``) while it is open: at most
``max_streams_per_user`` per account, ``max_streams_per_address`` per client address for streams
without a token; one more is 429 with ``Retry-After``. A ``poll`` below ``min_poll_s`` is raised to it.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.errors import answers
from judge.api.lookups import events_view, viewable_submission
from judge.auth import current_user, db_session, optional_user
from judge.events import ContestFeed, SubmissionFeed, event_response
from judge.models import User
from judge.schemas import PathId

router = APIRouter(prefix="/api/v1", tags=["events"])


def stream_answers(*events: str) -> dict[int | str, dict]:
    """OpenAPI answers of an event stream: 200 ``text/event-stream`` whose events are named
    ``events`` and carry one JSON ``data`` line each; 404, 429 (too many streams) and the rest."""
    event = {
        "type": "object",
        "properties": {
            "event": {"type": "string", "enum": [*events, "gone", "end"]},
            "id": {"type": "string", "description": "the event's number in this stream"},
            "data": {"type": "string", "contentMediaType": "application/json"},
            "retry": {"type": "integer", "description": "ms a client waits before it reconnects"},
        },
    }
    ok = {
        "description": "server-sent events until the stream ends",
        "content": {"text/event-stream": {"schema": event}},
    }
    return {**answers(404, 429), 200: ok}


POLL_HELP = "seconds between two looks at the database; below the server's floor (JUDGE_MIN_POLL_S, 1 s) it is raised"


@router.get(
    "/contests/{contest_id}/events",
    response_class=StreamingResponse,
    responses=stream_answers("scoreboard", "verdict", "clarification"),
)
def contest_events(
    request: Request,
    contest_id: PathId,
    user: User | None = Depends(optional_user),
    session: Session = Depends(db_session),
    poll: float = Query(1.0, ge=0.05, le=30, description=POLL_HELP),
    max_seconds: float = Query(600, gt=0, le=3600, description="seconds until the stream ends (then reconnect)"),
):
    """Server-sent events: ``scoreboard`` (the board, at once and on every change in the caller's
    view; none when the caller may not see the board), ``verdict`` (the jury: every submission; a
    student: their own) and ``clarification`` (a question, answer or announcement the caller sees,
    as ``GET /api/v1/clarifications/{id}``, when new or changed). 401 without a token when the
    board is not public; 429 when the caller holds too many streams."""
    contest, view = events_view(session, user, contest_id)
    return event_response(request, session, user, ContestFeed(contest.id, user, view), poll, max_seconds)


@router.get(
    "/submissions/{submission_id}/events",
    response_class=StreamingResponse,
    responses=stream_answers("status", "test", "verdict"),
)
def submission_events(
    request: Request,
    submission_id: PathId,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
    poll: float = Query(1.0, ge=0.05, le=30, description=POLL_HELP),
    max_seconds: float = Query(600, gt=0, le=3600, description="seconds until the stream ends"),
):
    """Server-sent events of one submission: ``status``, ``test`` per finished test case (as much as
    the caller may see), ``verdict``, then the stream ends. 429 when the caller holds too many streams."""
    row = viewable_submission(session, user, submission_id)
    level = rules.detail_level(session, user, row)
    return event_response(request, session, user, SubmissionFeed(row.id, level), poll, max_seconds)
