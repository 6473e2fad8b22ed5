"""Every time the API sends is UTC written with ``Z`` and typed ``date-time`` in the OpenAPI schema;
the command line refuses a local time that a daylight-saving change skips or repeats."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.contests import LocalTimeError, parse_when
from judge.events import sse
from judge.models import Submission, Worker, utcnow

from .conftest import add_problems, add_submission, make_contest
from .test_freeze_api import sse_events

ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")


def times_in(value) -> list[str]:
    """Every string in a JSON value that reads as an ISO 8601 time."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in times_in(v)]
    if isinstance(value, list):
        return [t for v in value for t in times_in(v)]
    return [value] if isinstance(value, str) and ISO_TIME.fullmatch(value) else []


def test_every_time_the_api_sends_ends_in_z(api_app, app_db, api_client, teacher_client):
    add_problems(app_db, "pa")
    contest = make_contest(app_db, ("pa",), start=utcnow() - timedelta(minutes=5), owner="teacher1")
    contest.freeze_at = contest.end_at - timedelta(minutes=10)
    sid = add_submission(app_db, contest, api_client.user_id, "pa", "AC", 1)
    naive = datetime(2026, 11, 30, 22, 38, 52, 634929)  # a row written without a zone (an old database)
    app_db.add(Worker(id="w", host="h", slots=1, languages=[], started_at=naive, last_heartbeat=naive))
    app_db.get(Submission, sid).finished_at = naive
    app_db.commit()
    cid = contest.id
    replies = {
        f"{who} {path}": client.get(path).json()
        for who, client in (("student", api_client), ("teacher", teacher_client))
        for path in (
            "/api/v1/contests",
            f"/api/v1/contests/{cid}",
            f"/api/v1/contests/{cid}/scoreboard",
            f"/api/v1/contests/{cid}/submissions",
            "/api/v1/submissions",
            f"/api/v1/submissions/{sid}",
        )
    }
    replies["workers"] = teacher_client.get("/api/v1/workers").json()
    replies["token"] = teacher_client.post(
        "/api/v1/auth/token", data={"username": "teacher1", "password": "pw-" + "x" * 8}
    ).json()
    replies["events"] = sse_events(teacher_client, f"/api/v1/contests/{cid}/events")
    found = times_in(replies)
    assert len(found) >= 20 and [t for t in found if not t.endswith("Z")] == []
    assert "2026-11-30T22:38:52.634929Z" in found  # the naive time is read as UTC, and says so
    assert replies[f"student /api/v1/submissions/{sid}"]["finished_at"] == "2026-11-30T22:38:52.634929Z"


def test_an_event_writes_a_time_as_the_api_does():
    moment = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    data = json.loads(sse("x", {"at": moment, "naive": moment.replace(tzinfo=None)}).split("data: ")[1])
    assert data == {"at": "2026-03-29T01:30:00Z", "naive": "2026-03-29T01:30:00Z"}


def test_every_time_in_the_openapi_schema_is_a_date_time(api_app):
    schemas = api_app.openapi()["components"]["schemas"]
    times = {
        f"{name}.{field}": spec
        for name, schema in schemas.items()
        for field, spec in schema.get("properties", {}).items()
        if field.endswith("_at")
    }
    assert {"ScoreboardOut.computed_at", "SubmissionView.created_at", "TokenOut.expires_at"} <= set(times)
    untyped = [
        where
        for where, spec in times.items()
        if "date-time" not in [s.get("format") for s in [spec, *spec.get("anyOf", [])]]
    ]
    assert untyped == []


@pytest.fixture
def bucharest(monkeypatch):
    """The machine's zone set to Europe/Bucharest (EET/EEST): in 2026 the clocks go forward from
    03:00 to 04:00 on 29 March and back from 04:00 to 03:00 on 25 October."""
    monkeypatch.setenv("TZ", "Europe/Bucharest")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_local_times_that_a_clock_change_skips_or_repeats_are_refused(bucharest):
    now = utcnow()
    with pytest.raises(LocalTimeError, match="does not exist"):
        parse_when("2026-03-29T03:30", now)
    with pytest.raises(LocalTimeError, match="happens twice") as repeated:
        parse_when("2026-10-25T03:30", now)
    assert "+03:00" in str(repeated.value) and "+02:00" in str(repeated.value)
    assert parse_when("2026-10-25T03:30+02:00", now) == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)
    assert parse_when("2026-10-25T02:30", now) == datetime(2026, 10, 24, 23, 30, tzinfo=UTC)  # summer time
    assert parse_when("2026-12-01T09:00", now) == datetime(2026, 12, 1, 7, 0, tzinfo=UTC)  # winter time


def test_the_command_line_says_why_it_refuses_a_local_time(bucharest):
    result = CliRunner().invoke(app, ["contest", "create", "Lab", "--problems", "pa", "--start", "2026-03-29T03:15"])
    assert result.exit_code == 1
    assert "does not exist in the local time zone" in result.output and "2026-03-29T03:15+02:00" in result.output
