"""The judging queue: a submission row is the job.

- ``claim``: a worker takes the oldest queued submission atomically (``UPDATE … WHERE id = (SELECT …
  FOR UPDATE SKIP LOCKED) RETURNING`` on PostgreSQL; the same statement on SQLite, where the single
  writer lock makes it atomic), sets ``status = judging``, increments ``attempt`` (the fencing
  token) and takes a lease until ``lease_expires_at``.
- ``renew``: extends the lease while judging; returns False once the lease was lost.
- Every write of results is fenced: it applies only while the row is still ``judging`` under the
  worker's attempt, so a worker presumed dead can never overwrite a newer judging.
- ``requeue_expired``: a submission whose lease expired goes back to the queue, or ends as JE after
  ``max_attempts`` judgings.
- Order: ``priority`` first (contest before practice before rejudge), then ``fair_rank`` (a user's
  tenth waiting submission waits behind everyone's first), then age.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, func, select, update
from sqlalchemy.orm import Session

from judge.models import Submission, utcnow
from judge.verdicts import JE

CONTEST, PRACTICE, REJUDGE = 0, 1, 2  # priorities: lower is judged first


def queue_position(session: Session, user_id: int | None, priority: int) -> dict[str, int]:
    """Column values that place a new (or re-queued) submission of ``user_id`` in the queue:
    ``priority`` and ``fair_rank`` = how many of that user's submissions are already waiting."""
    waiting = 0
    if user_id is not None:
        waiting = (
            session.scalar(
                select(func.count())
                .select_from(Submission)
                .where(Submission.user_id == user_id, Submission.status.in_(("queued", "judging")))
            )
            or 0
        )
    return {"priority": priority, "fair_rank": waiting}


@dataclass(frozen=True)
class Claim:
    """A worker's hold on one submission: its id and the attempt number that fences its writes."""

    submission_id: int
    attempt: int


def claim(
    session: Session, worker_id: str, lease_seconds: float, languages: Collection[str] | None = None
) -> Claim | None:
    """Claim the first queued submission (by priority, fair rank, age) for ``worker_id``; None when
    the queue is empty.

    Two workers never get the same submission: the row is locked (PostgreSQL, SKIP LOCKED) or the
    whole database is (SQLite), and the UPDATE re-checks ``status = 'queued'``. ``languages``: only
    submissions in these languages (those the worker's self-test passed); None for any.
    """
    now = utcnow()
    waiting = Submission.status == "queued"
    if languages is not None:
        waiting = and_(waiting, Submission.language.in_(list(languages)))
    oldest = (
        select(Submission.id)
        .where(waiting)
        .order_by(Submission.priority, Submission.fair_rank, Submission.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    row = session.execute(
        update(Submission)
        .where(and_(Submission.id == oldest, Submission.status == "queued"))
        .values(
            status="judging",
            attempt=Submission.attempt + 1,
            worker_id=worker_id,
            lease_expires_at=now + timedelta(seconds=lease_seconds),
            started_at=now,
        )
        .returning(Submission.id, Submission.attempt)
        .execution_options(synchronize_session=False)
    ).first()
    session.commit()
    return Claim(row[0], row[1]) if row else None


def holds(claim_: Claim):
    """SQL condition: the submission is still being judged under this claim."""
    return and_(
        Submission.id == claim_.submission_id,
        Submission.attempt == claim_.attempt,
        Submission.status == "judging",
    )


def renew(session: Session, claim_: Claim, lease_seconds: float) -> bool:
    """Extend the lease by ``lease_seconds``; False if this worker no longer holds it."""
    result = session.execute(
        update(Submission)
        .where(holds(claim_))
        .values(lease_expires_at=utcnow() + timedelta(seconds=lease_seconds))
        .execution_options(synchronize_session=False)
    )
    session.commit()
    return result.rowcount == 1


def release(session: Session, claim_: Claim) -> bool:
    """Give the submission back to the queue (graceful stop); False if the lease was already lost."""
    result = session.execute(
        update(Submission)
        .where(holds(claim_))
        .values(status="queued", worker_id=None, lease_expires_at=None)
        .execution_options(synchronize_session=False)
    )
    session.commit()
    return result.rowcount == 1


def requeue_expired(session: Session, max_attempts: int) -> int:
    """Put submissions with an expired lease back in the queue; once ``max_attempts`` judgings of a
    submission were lost this way, end it as JE with the reason. Returns how many rows changed.

    Lost judgings are counted apart from ``attempt``, which rejudges also advance.
    """
    now = utcnow()
    expired = and_(Submission.status == "judging", Submission.lease_expires_at < now)
    failed = session.execute(
        update(Submission)
        .where(and_(expired, Submission.lost_judgings + 1 >= max_attempts))
        .values(
            status="done",
            verdict=JE,
            finished_at=now,
            worker_id=None,
            lease_expires_at=None,
            lost_judgings=Submission.lost_judgings + 1,
            judge_message=f"judging was interrupted {max_attempts} times (worker lost)",
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    requeued = session.execute(
        update(Submission)
        .where(expired)
        .values(status="queued", worker_id=None, lease_expires_at=None, lost_judgings=Submission.lost_judgings + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    session.commit()
    return failed + requeued
