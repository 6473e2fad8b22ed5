"""Issue #6 operations: the workers endpoint, Prometheus metrics, and migrations that match the models."""

from __future__ import annotations

from datetime import timedelta

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from judge.db import make_engine
from judge.models import Base, PackageArchive, Problem, Submission, Worker, utcnow


def test_migrations_build_exactly_the_models_schema(database_url):
    """No drift: after ``alembic upgrade head`` autogenerate finds nothing to change (SQLite and PostgreSQL)."""
    engine = make_engine(database_url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert diff == []


def _add_state(app):
    with app.state.sessions() as s:
        s.add(PackageArchive(sha256="0" * 64, archive=b"", size_bytes=0))
        s.add(Problem(id="p", name="P", package_sha256="0" * 64, time_limit_ms=1000, memory_kib=1024))
        now = utcnow()
        for status, verdict in [
            ("queued", None),
            ("queued", None),
            ("judging", None),
            ("done", "AC"),
            ("done", "WA"),
            ("done", "AC"),
        ]:
            s.add(
                Submission(
                    problem_id="p",
                    package_sha256="0" * 64,
                    language="cpp",
                    source="x",
                    status=status,
                    verdict=verdict,
                    created_at=now - timedelta(seconds=4),
                    finished_at=now if status == "done" else None,
                )
            )
        s.add(
            Worker(
                id="hostA:1:0",
                host="hostA",
                slots=1,
                languages=["cpp"],
                current_submission_id=3,
                last_heartbeat=now - timedelta(seconds=7),
            )
        )
        s.commit()


def test_workers_endpoint_is_for_the_jury(api_app, api_client, teacher_client):
    _add_state(api_app)
    assert api_client.get("/api/v1/workers").status_code == 403
    rows = teacher_client.get("/api/v1/workers").json()
    assert [(w["host"], w["current_submission"], w["languages"]) for w in rows] == [("hostA", 3, ["cpp"])]
    assert 6 <= rows[0]["heartbeat_age_s"] < 60


def test_metrics_report_queue_verdicts_latency_and_heartbeats(api_app, api_client):
    _add_state(api_app)
    text = api_client.get("/metrics").text
    lines = set(text.splitlines())
    assert "judge_queue_length 2.0" in lines
    assert 'judge_submissions{status="judging"} 1.0' in lines
    assert 'judge_verdicts{verdict="AC"} 2.0' in lines and 'judge_verdicts{verdict="WA"} 1.0' in lines
    assert "judge_judging_latency_seconds_count 3.0" in lines
    total = next(l for l in lines if l.startswith("judge_judging_latency_seconds_sum"))
    assert 11.9 < float(total.split()[1]) < 12.1  # three judged submissions, 4 s each
    assert any(l.startswith('judge_worker_heartbeat_age_seconds{host="hostA",worker="hostA:1:0"}') for l in lines)
