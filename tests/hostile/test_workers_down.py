"""All judge workers down for a while (a crash, a host reboot, a slow restart): students can still
submit and their submissions wait in the queue. They were refused with 422 "no worker passed its
self-test", as if every language were broken, and had to submit again once a worker was back."""

from __future__ import annotations

from datetime import timedelta

from judge.models import Worker, utcnow

from ..contests.conftest import add_problems
from .conftest import client_of


def _worker(app, name: str, languages: list[str], minutes_ago: float) -> None:
    with app.state.sessions() as session:
        seen = utcnow() - timedelta(minutes=minutes_ago)
        session.add(
            Worker(id=name, host="judgehost", slots=1, languages=languages, started_at=seen, last_heartbeat=seen)
        )
        session.commit()


def _submit(client, language: str):
    return client.post("/api/v1/submissions", json={"problem": "lee", "language": language, "source": "print(1)"})


def test_submissions_queue_while_every_worker_is_down(api_app):
    student = client_of(api_app, "ana")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
    _worker(api_app, "w1", ["python3", "c"], minutes_ago=30)
    reply = _submit(student, "python3")
    assert reply.status_code == 202, reply.text
    assert student.get(f"/api/v1/submissions/{reply.json()['id']}").json()["status"] == "queued"
    assert {entry["available"] for entry in student.get("/api/v1/languages").json()} == {None}  # unknown


def test_a_language_no_live_worker_can_judge_is_still_refused(api_app):
    student = client_of(api_app, "ana")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
    _worker(api_app, "w1", ["python3", "c"], minutes_ago=30)  # down: its languages count for nothing
    _worker(api_app, "w2", ["c"], minutes_ago=0)
    reply = _submit(student, "python3")
    assert reply.status_code == 422 and "unavailable" in reply.json()["detail"]
    assert _submit(student, "c").status_code == 202
    listed = {entry["id"]: entry["available"] for entry in student.get("/api/v1/languages").json()}
    assert (listed["c"], listed["python3"]) == (True, False)
