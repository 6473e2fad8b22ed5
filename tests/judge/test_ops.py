"""Issue #6 operations: the workers endpoint, Prometheus metrics, and migrations that match the models."""

from __future__ import annotations

import warnings
from datetime import timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, text
from sqlalchemy.schema import CreateIndex

from judge.db import make_engine
from judge.models import Base, PackageArchive, Problem, Submission, Worker, utcnow


def test_migrations_build_exactly_the_models_schema(database_url):
    """No drift: after ``alembic upgrade head`` autogenerate finds nothing to change (SQLite and
    PostgreSQL). SQLite cannot reflect an index on an expression, which autogenerate then skips
    (with a warning): those are looked up by name and definition in ``sqlite_master`` instead."""
    engine = make_engine(database_url)
    with engine.connect() as connection, warnings.catch_warnings():
        if engine.dialect.name == "sqlite":
            warnings.filterwarnings(
                "ignore", "(autogenerate skipping|Skipped unsupported reflection).*expression-based"
            )
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        if engine.dialect.name == "sqlite":
            made = dict(connection.execute(text("SELECT name, sql FROM sqlite_master WHERE type = 'index'")).all())
            for table in Base.metadata.tables.values():
                for index in table.indexes:
                    if any(not isinstance(part, Column) for part in index.expressions):
                        assert index.name in made, index.name
                        shown = str(CreateIndex(index).compile(dialect=engine.dialect))
                        assert " ".join(made[index.name].split()) == " ".join(shown.split())
    engine.dispose()
    assert diff == []


def _submission(status, verdict, created_at, finished_at, **fields) -> Submission:
    return Submission(
        problem_id="p",
        package_sha256="0" * 64,
        language="cpp",
        source="x",
        status=status,
        verdict=verdict,
        created_at=created_at,
        finished_at=finished_at,
        **fields,
    )


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
            s.add(_submission(status, verdict, now - timedelta(seconds=4), now if status == "done" else None))
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


def test_metrics_report_queue_verdicts_latency_and_heartbeats(api_app, teacher_client):
    _add_state(api_app)
    text = teacher_client.get("/metrics").text
    lines = set(text.splitlines())
    assert "judge_queue_length 2.0" in lines
    assert 'judge_submissions{status="judging"} 1.0' in lines
    assert 'judge_verdicts{verdict="AC"} 2.0' in lines and 'judge_verdicts{verdict="WA"} 1.0' in lines
    assert "judge_judging_latency_seconds_count 3.0" in lines
    total = next(l for l in lines if l.startswith("judge_judging_latency_seconds_sum"))
    assert 11.9 < float(total.split()[1]) < 12.1  # three judged submissions, 4 s each
    assert any(l.startswith('judge_worker_heartbeat_age_seconds{worker="1"}') for l in lines)
    assert "hostA" not in text  # no host name, no process id


def test_metrics_are_for_the_scraper_and_the_jury(api_app, api_client, teacher_client):
    """Without a token 401, a student 403; the configured scraper token or a teacher's login 200."""
    from fastapi.testclient import TestClient

    from judge.api import create_app

    _add_state(api_app)
    scraped = create_app(api_app.state.settings.model_copy(update={"metrics_token": "scrape-me"}))
    anonymous, scraper = TestClient(scraped), TestClient(scraped, headers={"Authorization": "Bearer scrape-me"})
    wrong = TestClient(scraped, headers={"Authorization": "Bearer scrape-you"})
    assert [anonymous.get("/metrics").status_code, wrong.get("/metrics").status_code] == [401, 401]
    assert api_client.get("/metrics").status_code == 403
    assert scraper.get("/metrics").status_code == teacher_client.get("/metrics").status_code == 200
    assert "judge_queue_length 2.0" in scraper.get("/metrics").text.splitlines()


def test_metrics_count_a_frozen_verdict_as_hidden_until_the_unfreeze(api_app, teacher_client):
    """A frozen AC and a frozen WA give the same metrics; after the unfreeze each counts as itself."""
    from judge.models import Contest

    _add_state(api_app)
    now = utcnow()
    with api_app.state.sessions() as s:
        contest = Contest(name="c", start_at=now - timedelta(hours=2), end_at=now - timedelta(minutes=1))
        contest.freeze_at = now - timedelta(hours=1)
        s.add(contest)
        s.flush()
        for minutes_ago, verdict in ((90, "WA"), (30, "AC")):  # before the freeze, after it
            s.add(_submission("done", verdict, now - timedelta(minutes=minutes_ago), now, contest_id=contest.id))
        s.commit()
        contest_id, frozen_id = contest.id, s.query(Submission).order_by(Submission.id.desc()).first().id

    def verdicts():
        lines = teacher_client.get("/metrics").text.splitlines()
        return sorted(l for l in lines if l.startswith("judge_verdicts{"))

    as_ac = verdicts()
    with api_app.state.sessions() as s:
        s.get(Submission, frozen_id).verdict = "WA"
        s.commit()
    assert verdicts() == as_ac
    assert 'judge_verdicts{verdict="hidden"} 1.0' in as_ac and 'judge_verdicts{verdict="WA"} 2.0' in as_ac
    with api_app.state.sessions() as s:
        s.get(Contest, contest_id).unfrozen = True
        s.commit()
    assert 'judge_verdicts{verdict="WA"} 3.0' in verdicts()


def test_user_names_that_differ_only_in_case_stop_the_upgrade_and_keep_every_row(database_url):
    """``0015_user_names``: with ``Alice`` and ``alice`` both in the database the upgrade refuses,
    naming them, and changes nothing; once one is renamed it makes the index, which then refuses a
    third spelling even past the application's own check."""
    from alembic import command
    from sqlalchemy import insert, select, update
    from sqlalchemy.exc import IntegrityError

    from judge.db import alembic_config, upgrade
    from judge.models import User

    command.downgrade(alembic_config(database_url), "0014_board_stamps")
    engine = make_engine(database_url)
    user = {"display_name": "A", "role": "student", "password_hash": "x", "created_at": utcnow(), "active": True}
    with engine.begin() as connection:
        connection.execute(insert(User), [{"name": n, **user} for n in ["Alice", "alice", "bob", "BOB", "carol"]])
    with pytest.raises(Exception, match="these accounts do not: Alice \\(id 1\\), alice \\(id 2\\); bob") as refused:
        upgrade(database_url)
    reason = str(refused.value)
    assert "UPDATE users SET name = 'alice-2' WHERE id = 2" in reason and "Nothing was changed" in reason
    names = ["Alice", "alice", "bob", "BOB", "carol"]
    with engine.connect() as connection:
        assert connection.scalars(select(User.name).order_by(User.id)).all() == names
    with engine.begin() as connection:
        connection.execute(update(User).where(User.id.in_([2, 4])).values(name=User.name + "-2"))
    upgrade(database_url)
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(insert(User).values(name="ALICE", **user))
    engine.dispose()
