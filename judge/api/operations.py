"""Operations: ``GET /api/v1/workers`` (jury only) and Prometheus metrics at ``/metrics``.

Metrics are read from the database at scrape time, so any API process on any host reports the whole
judge: queue length by status, verdict counts, judging latency (queued → done) of recent
submissions, and each worker's heartbeat age. Format: Prometheus text exposition, via the
``prometheus_client`` library.

Who reads them: a scraper with the ``metrics_token`` setting as its bearer token, or a teacher or an
admin. What they tell no one: a verdict hidden by a contest's freeze counts as ``hidden`` until the
contest is unfrozen (the scoreboard's rule, ``judge.scoreboard``), and workers are numbered by their
start, not named by host and process id.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric, SummaryMetricFamily
from pydantic import BaseModel
from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session, sessionmaker

from judge.auth import db_session, is_jury, jury_user, user_for_token
from judge.clock import utcnow
from judge.models import Contest, Submission, User, Worker
from judge.schemas import UtcStamp
from judge.vocabulary import Status

router = APIRouter(tags=["operations"])
HIDDEN = "hidden"  # the verdict label of a submission under a contest's freeze
LATENCY_WINDOW = 1000  # recent finished submissions the latency summary covers


class WorkerOut(BaseModel):
    """A judge worker: host, sandbox slots, the submission it judges now, its last heartbeat and age (s)."""

    id: str
    host: str
    slots: int
    languages: list[str]
    current_submission: int | None
    started_at: UtcStamp
    last_heartbeat: UtcStamp
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
            verdicts = GaugeMetricFamily(
                "judge_verdicts", "Judged submissions by verdict (hidden: under a contest's freeze)", labels=["verdict"]
            )
            frozen = and_(Contest.unfrozen.is_(False), Submission.created_at >= Contest.freeze_at)
            shown = case((frozen, HIDDEN), else_=func.coalesce(Submission.verdict, "none")).label("shown")
            for verdict, count in session.execute(
                select(shown, func.count())
                .select_from(Submission)
                .outerjoin(Contest, Contest.id == Submission.contest_id)
                .where(Submission.status == Status.DONE)
                .group_by(shown)
            ).all():
                verdicts.add_metric([verdict], count)
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
                "judge_worker_heartbeat_age_seconds",
                "Seconds since a worker's heartbeat; workers numbered by start time",
                labels=["worker"],
            )
            for number, w in enumerate(session.scalars(select(Worker).order_by(Worker.started_at, Worker.id)), 1):
                heartbeat.add_metric([str(number)], (now - w.last_heartbeat).total_seconds())
            yield heartbeat


_scraper = HTTPBearer(auto_error=False)


def metrics_reader(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(_scraper),
    session: Session = Depends(db_session),
) -> None:
    """Let in the scraper (the ``metrics_token`` setting as bearer token) or a teacher or admin's
    login token; 401 without a token or with an unknown one, 403 for a student."""
    given = credentials.credentials if credentials else ""
    expected = request.app.state.settings.metrics_token
    if given and expected and hmac.compare_digest(given.encode(), expected.encode()):
        return
    user = user_for_token(session, given) if given else None
    if user is None:
        raise HTTPException(
            401, "metrics need a token: JUDGE_METRICS_TOKEN, or a teacher's", {"WWW-Authenticate": "Bearer"}
        )
    if not is_jury(user):
        raise HTTPException(403, "only a teacher, an admin or the metrics scraper may read metrics")


@router.get("/metrics", include_in_schema=False, dependencies=[Depends(metrics_reader)])
def metrics(request: Request) -> Response:
    """Prometheus text exposition of the judge's state."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(request.app.state.sessions))
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
