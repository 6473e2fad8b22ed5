"""A teacher runs a contest over the API: accounts, the contest, its changes, rejudging, grades."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from judge.models import utcnow

from .conftest import add_problems, csv_rows, judge_next


def log_in(app, name: str, password: str) -> TestClient:
    client = TestClient(app)
    reply = client.post("/api/v1/auth/token", data={"username": name, "password": password})
    assert reply.status_code == 200, reply.text
    client.headers["Authorization"] = f"Bearer {reply.json()['access_token']}"
    return client


def test_a_contest_run_entirely_over_the_api(api_app, app_db, teacher_client):
    add_problems(app_db, "pa", "pb")
    accounts = teacher_client.post(
        "/api/v1/users/import", json=[{"name": "ana", "display_name": "Ana"}, {"name": "bob", "display_name": "Bob"}]
    ).json()
    ana, bob = (log_in(api_app, a["user"]["name"], a["password"]) for a in accounts)
    start = datetime.now(UTC) - timedelta(minutes=30)  # a zone-aware time is stored as UTC
    reply = teacher_client.post(
        "/api/v1/contests",
        json={
            "name": "Lab 2",
            "start_at": start.isoformat(),
            "end_at": (start + timedelta(hours=2)).isoformat(),
            "problems": [{"problem": "pa"}, {"problem": "pb", "letter": "Z", "points": 40}],
            "scoring": "icpc",
        },
    )
    assert reply.status_code == 201, reply.text
    contest = reply.json()
    assert [(p["letter"], p["problem"], p["points"]) for p in contest["problems"]] == [
        ("A", "pa", 100),
        ("Z", "pb", 40),
    ]
    assert contest["phase"] == "running" and contest["owner"] == "teacher1"
    assert abs(datetime.fromisoformat(contest["start_at"]) - start) < timedelta(seconds=1)
    bad = teacher_client.patch(f"/api/v1/contests/{contest['id']}", json={"end_at": start.isoformat()})
    assert bad.status_code == 422 and "end after it starts" in bad.json()["detail"]

    ids = {}
    for who, client, letter in (("ana", ana, "A"), ("bob", bob, "Z")):
        reply = client.post(
            "/api/v1/submissions",
            json={"problem": letter, "language": "python3", "source": "print(1)", "contest": contest["id"]},
        )
        assert reply.status_code == 202, reply.text
        ids[who] = reply.json()["id"]
    judge_next(app_db, "WA", [("sample", "AC"), ("secret", "WA")])
    judge_next(app_db, "AC", [("sample", "AC"), ("secret", "AC")])
    listed = teacher_client.get(f"/api/v1/contests/{contest['id']}/submissions").json()
    assert [(s["user"], s["letter"], s["verdict"]) for s in listed] == [("ana", "A", "WA"), ("bob", "Z", "AC")]
    assert csv_rows(teacher_client.get(f"/api/v1/contests/{contest['id']}/grades.csv").text) == [
        ["user", "display name", "rank", "A: Problem pa", "Z: Problem pb", "solved", "attempts", "penalty"],
        ["ana", "Ana", "2", "0", "0", "0", "1", "0"],
        ["bob", "Bob", "1", "0", "1", "1", "1", "30"],
    ]

    rejudged = teacher_client.post(f"/api/v1/contests/{contest['id']}/rejudge", json={"only_non_ac": True}).json()
    assert rejudged == {"rejudged": [ids["ana"]]}
    state = ana.get(f"/api/v1/submissions/{ids['ana']}").json()
    assert (state["status"], state["verdict"], state["results"]) == ("queued", None, [])
    judge_next(app_db, "AC", [("sample", "AC"), ("secret", "AC")])
    board = ana.get(f"/api/v1/contests/{contest['id']}/scoreboard").json()
    assert [(r["user"], r["rank"], r["solved"], r["penalty"]) for r in board["rows"]] == [
        ("ana", 1, 1, 30),
        ("bob", 1, 1, 30),
    ]  # a tie shares the rank
    assert teacher_client.post(f"/api/v1/submissions/{ids['bob']}/rejudge").json() == {"rejudged": [ids["bob"]]}
    assert ana.get("/api/v1/contests").json()[0]["name"] == "Lab 2"
    assert utcnow() < datetime.fromisoformat(contest["end_at"])
