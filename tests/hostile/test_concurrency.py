"""Many clients at once against a real uvicorn: event streams left open or abandoned, a burst of
submissions from several students, and a student racing the rate limit with simultaneous requests.

No timings are asserted: a starved server shows up as a request that fails (httpx's timeout or a
500), not as a slow number.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
from sqlalchemy import func, select

from judge.auth import create_user, issue_token
from judge.models import Submission, utcnow

from ..contests.conftest import make_contest
from .conftest import served

OPEN_STREAMS = 24  # more than the SQLAlchemy pool's 5 + 10 connections


def _accounts(app, *names: str) -> dict[str, dict[str, str]]:
    """Bearer headers of new student accounts ``names`` (and ``tess``, a teacher)."""
    headers = {}
    with app.state.sessions() as session:
        for name in (*names, "tess"):
            user, _ = create_user(session, name, "teacher" if name == "tess" else "student", password="pw-12345")
            headers[name] = {"Authorization": f"Bearer {issue_token(session, user)[0]}"}
    return headers


def test_open_event_streams_hold_no_database_connection(any_db_app):
    """Each open stream once kept its request's pooled connection to the end: 16 open streams (a
    class watching its verdicts) made every other request wait 30 s for a connection, then fail."""
    headers = _accounts(any_db_app, "ana")
    settings = any_db_app.state.settings  # one account holds them all here: lift its stream cap
    any_db_app.state.settings = settings.model_copy(update={"max_streams_per_user": OPEN_STREAMS})
    with any_db_app.state.sessions() as session:
        contest = make_contest(session, problems=["lee"], start=utcnow())
    with served(any_db_app) as url, httpx.Client(base_url=url, timeout=20) as client, ExitStack() as streams:
        sid = client.post(
            "/api/v1/submissions",
            headers=headers["ana"],  # to the running contest, by letter
            json={"problem": "A", "contest": contest.id, "language": "python3", "source": "print(1)"},
        ).json()["id"]
        readers = []  # each stream's line reader is kept: a reader collected as garbage closes its stream
        for i in range(OPEN_STREAMS):  # no worker: the submission stays queued, its stream stays open
            path = f"/api/v1/submissions/{sid}/events" if i % 2 else f"/api/v1/contests/{contest.id}/events"
            reply = streams.enter_context(
                client.stream("GET", path, headers=headers["ana"], params={"poll": 30, "max_seconds": 60})
            )
            assert reply.status_code == 200
            lines = reply.iter_lines()
            while not next(lines).startswith("data:"):  # the first event: its poll is over
                pass
            readers.append(lines)
        assert any_db_app.state.engine.pool.checkedout() == 0
        assert client.get("/api/v1/submissions", headers=headers["ana"]).status_code == 200
        streams.close()  # abandoned mid-stream, as a closed browser tab does
        assert client.get(f"/api/v1/submissions/{sid}", headers=headers["ana"]).json()["status"] == "queued"


def test_a_burst_of_submissions_from_several_students_loses_nothing(any_db_app):
    names = [f"s{i}" for i in range(5)]
    headers = _accounts(any_db_app, *names)
    with served(any_db_app) as url, httpx.Client(base_url=url, timeout=60) as client:

        def submit(i: int) -> tuple[str, int, int]:
            name = names[i % len(names)]
            reply = client.post(
                "/api/v1/submissions",
                headers=headers[name],
                json={"problem": "basic", "language": "python3", "source": f"print({i})"},
            )
            return name, reply.status_code, reply.json().get("id")

        with ThreadPoolExecutor(max_workers=25) as pool:
            results = list(pool.map(submit, range(50)))
        assert [status for _, status, _ in results] == [202] * 50
        ids = {sid for _, _, sid in results}
        assert len(ids) == 50
        for name in names:  # each student lists exactly their own ten, with their own sources
            listed = client.get("/api/v1/submissions", headers=headers[name]).json()
            assert {s["id"] for s in listed} == {sid for n, _, sid in results if n == name}
            assert all(s["user"] == name and s["status"] == "queued" for s in listed)
    with any_db_app.state.sessions() as session:
        sources = dict(session.execute(select(Submission.id, Submission.source)).all())
    assert sorted(sources.values()) == sorted(f"print({i})" for i in range(50))


def test_simultaneous_submissions_race_the_rate_limit_and_one_wins(any_db_app):
    any_db_app.state.settings = any_db_app.state.settings.model_copy(update={"submit_interval_s": 60})
    headers = _accounts(any_db_app, "ana")
    racers = 12
    start = threading.Barrier(racers)
    with served(any_db_app) as url:

        def submit(i: int) -> int:
            with httpx.Client(base_url=url, timeout=60) as client:
                start.wait()
                return client.post(
                    "/api/v1/submissions",
                    headers=headers["ana"],
                    json={"problem": "basic", "language": "python3", "source": f"print({i})"},
                ).status_code

        with ThreadPoolExecutor(max_workers=racers) as pool:
            statuses = sorted(pool.map(submit, range(racers)))
    assert statuses == [202] + [429] * (racers - 1)
    with any_db_app.state.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 1
