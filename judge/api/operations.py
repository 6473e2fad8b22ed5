"""Operations: ``GET /api/v1/workers`` (jury only) and Prometheus metrics at ``/metrics``.

Metrics are read from the database at scrape time, so any API process on any host reports the whole
judge: queue length by status, verdict counts, judging latency (queued → done) of recent
submissions, and each worker's heartbeat age. Format: Prometheus text exposition, via the
``prometheus_client`` library.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from fastapi import APIRouter, Depends, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric, SummaryMetricFamily
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from judge.auth import db_session, jury_user
from judge.clock import utcnow
from judge.models import Submission, User, Worker
from judge.vocabulary import Status

router = APIRouter(tags=["operations"])
LATENCY_WINDOW = 1000  # recent finished submissions the latency summary covers


class WorkerOut(BaseModel):
    """A judge worker: host, sandbox slots, the submission it judges now, its last heartbeat and age (s)."""

    id: str
    host: str
    slots: int
    languages: list[str]
    current_submission: int | None
    started_at: datetime
    last_heartbeat: datetime
    heartbeat_age_s: float


def worker_views(session: Session) -> list[WorkerOut]:
    """Every worker that has registered, most recently seen first, with its heartbeat's age."""
    now = utcnow()
    rows = session.scalars(select(Worker).order_by(Worker.last_heartbeat.desc())).all()
    return [
        WorkerOut(
            id=w.id,
            host=w.host,
            slots=w.slots,
            languages=w.languages or [],
            current_submission=w.current_submission_id,
            started_at=w.started_at,
            last_heartbeat=w.last_heartbeat,
            heartbeat_age_s=(now - w.last_heartbeat).total_seconds(),
        )
        for w in rows
    ]


def status_counts(session: Session) -> dict[str, int]:
    """How many submissions are in each ``Status`` (every status present, 0 when none)."""
    counts = dict(session.execute(select(Submission.status, func.count()).group_by(Submission.status)).all())
    return {status.value: counts.get(status, 0) for status in Status}


@router.get("/api/v1/workers", response_model=list[WorkerOut])
def workers(session: Session = Depends(db_session), _user: User = Depends(jury_user)):
    """Every worker that has registered, most recently seen first (teachers and admins only)."""
    return worker_views(session)


class DatabaseCollector:
    """A Prometheus collector that queries the judge's database on every scrape."""

    def __init__(self, sessions: sessionmaker):
        self.sessions = sessions

    def collect(self) -> Iterator[Metric]:
        """The metrics of this scrape: submissions by status, queue length, verdicts, latency, heartbeats."""
        with self.sessions() as session:
            by_status = GaugeMetricFamily("judge_submissions", "Submissions by status", labels=["status"])
            counts = status_counts(session)
            for status, count in counts.items():
                by_status.add_metric([status], count)
            yield by_status
            yield GaugeMetricFamily(
                "judge_queue_length", "Submissions waiting for a worker", value=counts[Status.QUEUED]
            )
            verdicts = GaugeMetricFamily("judge_verdicts", "Judged submissions by verdict", labels=["verdict"])
            for verdict, count in session.execute(
                select(Submission.verdict, func.count())
                .where(Submission.status == Status.DONE)
                .group_by(Submission.verdict)
            ).all():
                verdicts.add_metric([verdict or "none"], count)
            yield verdicts
            recent = session.execute(
                select(Submission.created_at, Submission.finished_at)
                .where(Submission.finished_at.is_not(None))
                .order_by(Submission.id.desc())
                .limit(LATENCY_WINDOW)
            ).all()
            latencies = [(done - made).total_seconds() for made, done in recent]
            yield SummaryMetricFamily(
                "judge_judging_latency_seconds",
                f"Queued-to-verdict time of the last {LATENCY_WINDOW} judged submissions",
                count_value=len(latencies),
                sum_value=sum(latencies),
            )
            now = utcnow()
            heartbeat = GaugeMetricFamily(
                "judge_worker_heartbeat_age_seconds", "Seconds since a worker's heartbeat", labels=["worker", "host"]
            )
            for w in session.scalars(select(Worker)).all():
                heartbeat.add_metric([w.id, w.host], (now - w.last_heartbeat).total_seconds())
            yield heartbeat


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """Prometheus text exposition of the judge's state."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(request.app.state.sessions))
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
