"""Accepting a submission: every rule a new submission passes before it joins the queue, in one
function that the API and the browser pages both call.

The rules, in order: the target (problem visible to the user; for a contest, its window and
participants; a practice submission to a problem of a running contest refused), the language (known,
and judged by a live worker when any worker is alive), the source (at most ``max_source_bytes``, not
blank, no NUL character), then the student's rate limit. Each refusal is a ``ContestRuleError`` with
its HTTP status and a one-line reason.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.clock import utcnow
from judge.config import Settings
from judge.contests import ContestRuleError
from judge.languages import LANGUAGES
from judge.models import Submission, User, Worker

WORKER_ALIVE = timedelta(minutes=2)  # a worker whose last heartbeat is older counts as down


def live_languages(session: Session) -> set[str] | None:
    """Languages some live worker passed the self-test for; None when no worker is alive (none has
    reported yet, or all are down for a restart: submissions then wait in the queue for them, where
    refusing them would tell students that every language failed its self-test)."""
    since = utcnow() - WORKER_ALIVE
    live = session.scalars(select(Worker).where(Worker.last_heartbeat >= since)).all()
    if not live:
        return None
    return {lang for w in live for lang in (w.languages or [])}


def check_language(session: Session, language: str) -> None:
    """Raise ContestRuleError (422) for an unknown language or one no live worker can judge."""
    if language not in LANGUAGES:
        raise ContestRuleError(422, f"unknown language {language!r}; see GET /api/v1/languages")
    live = live_languages(session)
    if live is not None and language not in live:
        raise ContestRuleError(422, f"language {language!r} is unavailable: no worker passed its self-test")


def accept_submission(
    session: Session,
    settings: Settings,
    user: User,
    *,
    problem: str,
    language: str,
    source: str,
    contest_id: int | None = None,
    now: datetime | None = None,
) -> Submission:
    """Queue ``user``'s ``source`` in ``language`` for ``problem`` (a problem id, or a letter when
    ``contest_id`` is given) and return the new submission (committed).

    Raises ContestRuleError: 404 unknown or hidden problem or contest; 403 with the reason outside the
    contest's window, for a non-participant, or for practice on a running contest's problem; 422
    bad language, blank source or a NUL character; 413 source over ``settings.max_source_bytes``;
    429 (``RateLimited``, with the seconds to wait) when a student submits too often. A refused
    submission changes nothing.
    """
    now = now or utcnow()
    target = rules.submission_target(session, user, problem, contest_id, now)
    check_language(session, language)
    size = len(source.encode("utf-8"))
    if size > settings.max_source_bytes:
        raise ContestRuleError(413, f"source is {size} bytes; the limit is {settings.max_source_bytes}")
    if not source.strip():
        raise ContestRuleError(422, "source is empty")
    if "\x00" in source:
        raise ContestRuleError(422, "source contains a NUL character")
    rules.take_submission_slot(session, user, settings.submit_interval_s, now)
    submission = lifecycle.enqueue(
        session,
        problem=target.problem,
        language=language,
        source=source,
        user_id=user.id,
        contest_id=target.contest.id if target.contest else None,
        is_jury=target.is_jury,
        now=now,
    )
    session.commit()
    return submission
