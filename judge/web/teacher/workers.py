"""The workers and the queue as a page: what ``GET /api/v1/workers`` knows (``worker_views``) and
how many submissions wait, are being judged and are done (``status_counts``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from judge.accept import WORKER_ALIVE
from judge.api.operations import status_counts, worker_views
from judge.auth import db_session
from judge.models import User
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import jury_viewer

router = APIRouter(route_class=PageRoute, include_in_schema=False)


@router.get("/teacher/workers")
def workers_page(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """Each worker (host, slots, languages, what it judges, heartbeat age; down past ``WORKER_ALIVE``)
    and the queue's counts; the page refreshes itself every few seconds."""
    return page(
        request,
        "teacher/workers.html",
        user=user,
        workers=worker_views(session),
        counts=status_counts(session),
        alive_s=WORKER_ALIVE.total_seconds(),
    )
