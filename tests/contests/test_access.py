"""Each access rule of issue #5, tried from a student account (and without a token) over HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from judge.auth import authenticate, create_user, ensure_admin, issue_token
from judge.models import utcnow
from judge.package_store import load_problem

from ..conftest import make_account
from .conftest import add_submission, make_contest
from .test_freeze_api import sse_events

SECRET_INPUT = "7 11\n"


def write_package(root, problem_id: str):
    """A tiny real package: one sample (1 2 -> 3) and one secret test whose data must never leak."""
    folder = root / problem_id
    (folder / "statement").mkdir(parents=True)
    (folder / "problem.yaml").write_text(f"name: Sum {problem_id}\nlimits:\n  time_limit: 1\n")
    (folder / "statement" / "problem.en.md").write_text("Print the sum of two integers.\n")
    for group, name, data, answer in (("sample", "01", "1 2\n", "3\n"), ("secret", "01-big", SECRET_INPUT, "18\n")):
        (folder / "data" / group).mkdir(parents=True, exist_ok=True)
        (folder / "data" / group / f"{name}.in").write_text(data)
        (folder / "data" / group / f"{name}.ans").write_text(answer)
    return folder


@pytest.fixture
def world(api_app, app_db, api_client, teacher_client, tmp_path):
    """Problems ``sum`` (practice) and ``later`` (only in a contest that starts tomorrow); a running
    contest of teacher1 on ``sum``; student1 (the api_client) and student2 with finished submissions."""
    for problem_id in ("sum", "later"):
        load_problem(app_db, write_package(tmp_path / "pkgs", problem_id))
    app_db.commit()
    teacher = teacher_client.user_id
    running = make_contest(
        app_db, problems=["sum"], start=utcnow() - timedelta(minutes=10), owner="teacher1", name="Running"
    )
    make_contest(app_db, problems=["later"], start=utcnow() + timedelta(days=1), owner="teacher1", name="Tomorrow")
    other_id, other_headers = make_account(api_app, "student2")
    tests = [("sample", "AC"), ("secret", "WA")]
    mine = add_submission(app_db, running, api_client.user_id, "sum", "WA", 1, tests=tests)
    theirs = add_submission(app_db, running, other_id, "sum", "AC", 2, tests=[("sample", "AC"), ("secret", "AC")])
    return dict(contest=running, mine=mine, theirs=theirs, other=other_headers, teacher=teacher)


def test_every_endpoint_but_public_statements_needs_a_token(api_app, world):
    anonymous = TestClient(api_app)
    cid, sid = world["contest"].id, world["mine"]
    for method, url in [
        ("get", "/api/v1/languages"),
        ("get", f"/api/v1/submissions/{sid}"),
        ("get", "/api/v1/submissions"),
        ("get", f"/api/v1/submissions/{sid}/source"),
        ("get", f"/api/v1/submissions/{sid}/events"),
        ("get", "/api/v1/contests"),
        ("get", f"/api/v1/contests/{cid}"),
        ("get", f"/api/v1/contests/{cid}/scoreboard"),
        ("get", f"/api/v1/contests/{cid}/grades.csv"),
        ("get", "/api/v1/users"),
        ("get", "/api/v1/auth/me"),
    ]:
        reply = getattr(anonymous, method)(url)
        assert reply.status_code == 401, url
        assert reply.headers["www-authenticate"] == "Bearer"
    reply = anonymous.post("/api/v1/submissions", json={"problem": "sum", "language": "cpp", "source": "x"})
    assert reply.status_code == 401
    assert anonymous.get("/api/v1/problems/sum").status_code == 200  # public statement
    assert [p["id"] for p in anonymous.get("/api/v1/problems").json()] == ["sum"]
    bad = TestClient(api_app, headers={"Authorization": "Bearer not-a-token"})
    assert bad.get("/api/v1/problems").status_code == 401  # a wrong token is refused, not ignored


def test_log_in_with_the_password_and_log_out(api_app, app_db):
    client = TestClient(api_app)
    with api_app.state.sessions() as session:
        create_user(session, "eve", "student", "Eve", password="correct horse")
        session.commit()
    assert client.post("/api/v1/auth/token", data={"username": "eve", "password": "wrong"}).status_code == 401
    assert client.post("/api/v1/auth/token", data={"username": "nobody", "password": "x"}).status_code == 401
    reply = client.post("/api/v1/auth/token", data={"username": "eve", "password": "correct horse"})
    assert reply.status_code == 200 and reply.json()["token_type"] == "bearer"
    headers = {"Authorization": f"Bearer {reply.json()['access_token']}"}
    assert client.get("/api/v1/auth/me", headers=headers).json()["role"] == "student"
    assert client.post("/api/v1/auth/logout", headers=headers).status_code == 204
    assert client.get("/api/v1/auth/me", headers=headers).status_code == 401


def test_passwords_are_stored_as_argon2_hashes(app_db):
    user, generated = create_user(app_db, "frank", "student")
    assert user.password_hash.startswith("$argon2id$") and generated not in user.password_hash
    assert authenticate(app_db, "frank", generated) is user
    assert authenticate(app_db, "frank", generated + "x") is None


def test_a_student_sees_only_their_own_submissions_and_code(api_client, world):
    assert api_client.get(f"/api/v1/submissions/{world['theirs']}").status_code == 404
    assert api_client.get(f"/api/v1/submissions/{world['theirs']}/source").status_code == 404
    assert api_client.get(f"/api/v1/submissions/{world['theirs']}/events").status_code == 404
    assert api_client.get(f"/api/v1/submissions/{world['mine']}/source").json()["source"] == "int main(){}"
    assert [s["id"] for s in api_client.get("/api/v1/submissions").json()] == [world["mine"]]
    listed = api_client.get(f"/api/v1/contests/{world['contest'].id}/submissions").json()
    assert [s["id"] for s in listed] == [world["mine"]]


def test_a_student_sees_sample_details_but_only_the_verdict_of_secret_tests(api_client, world):
    state = api_client.get(f"/api/v1/submissions/{world['mine']}").json()
    sample, secret = state["results"]
    assert sample["test"] == "sample/01" and sample["message"] and sample["time_ms"] == 10
    assert secret["verdict"] == "WA"
    assert (secret["test"], secret["time_ms"], secret["wall_ms"], secret["memory_kib"], secret["message"]) == (
        "secret/2",
        None,
        None,
        None,
        None,
    )
    assert SECRET_INPUT.strip() not in str(state)


def test_per_test_details_when_the_teacher_turns_them_on(api_client, teacher_client, world):
    cid = world["contest"].id
    assert teacher_client.patch(f"/api/v1/contests/{cid}", json={"show_test_details": True}).status_code == 200
    secret = api_client.get(f"/api/v1/submissions/{world['mine']}").json()["results"][1]
    assert secret["test"] == "secret/02" and secret["time_ms"] == 20 and secret["memory_kib"] == 1024
    assert secret["message"] is None  # a WA's checker message may quote the answer: still jury only


def test_the_teacher_sees_everything_in_their_contest(teacher_client, world):
    state = teacher_client.get(f"/api/v1/submissions/{world['theirs']}").json()
    assert state["user"] == "student2" and state["results"][1]["message"] == "checker says: expected 2"
    assert teacher_client.get(f"/api/v1/submissions/{world['theirs']}/source").status_code == 200
    assert len(teacher_client.get(f"/api/v1/contests/{world['contest'].id}/submissions").json()) == 2


def test_another_teacher_does_not_see_a_contest_they_do_not_run(api_app, world):
    _, headers = make_account(api_app, "teacher2", "teacher")
    other = TestClient(api_app, headers=headers)
    cid = world["contest"].id
    assert other.get(f"/api/v1/submissions/{world['theirs']}").status_code == 404
    assert other.get(f"/api/v1/contests/{cid}/grades.csv").status_code == 404
    assert other.post(f"/api/v1/contests/{cid}/unfreeze").status_code == 404


def test_a_student_cannot_do_the_teachers_work(api_client, world):
    cid = world["contest"].id
    denied = [
        api_client.get("/api/v1/users"),
        api_client.post("/api/v1/users", json={"name": "mallory", "role": "admin"}),
        api_client.post("/api/v1/users", json={"name": "mallory2"}),
        api_client.post("/api/v1/users/import", json=[{"name": "mallory3"}]),
        api_client.post(
            "/api/v1/contests",
            json={
                "name": "Mine",
                "start_at": utcnow().isoformat(),
                "end_at": (utcnow() + timedelta(hours=1)).isoformat(),
                "problems": [{"problem": "sum"}],
            },
        ),
        api_client.patch(f"/api/v1/contests/{cid}", json={"end_at": (utcnow() + timedelta(days=9)).isoformat()}),
        api_client.post(f"/api/v1/contests/{cid}/unfreeze"),
        api_client.get(f"/api/v1/contests/{cid}/grades.csv"),
        api_client.post(f"/api/v1/contests/{cid}/rejudge", json={}),
        api_client.post(f"/api/v1/submissions/{world['mine']}/rejudge"),
    ]
    assert [r.status_code for r in denied] == [403] * len(denied), [r.text for r in denied]
    assert api_client.post(f"/api/v1/submissions/{world['theirs']}/rejudge").status_code == 404


def test_a_teacher_creates_students_but_not_admins(teacher_client):
    created = teacher_client.post(
        "/api/v1/users/import", json=[{"name": "s1", "display_name": "Sam One"}, {"name": "s2", "password": "given"}]
    )
    assert created.status_code == 201
    assert created.json()[0]["password"] and created.json()[1]["password"] is None
    assert teacher_client.post("/api/v1/users", json={"name": "boss", "role": "admin"}).status_code == 403
    assert teacher_client.post("/api/v1/users", json={"name": "s1"}).status_code == 409
    partial = teacher_client.post("/api/v1/users/import", json=[{"name": "s3"}, {"name": "bad name!"}])
    assert partial.status_code == 422
    names = [u["name"] for u in teacher_client.get("/api/v1/users").json()]
    assert "s3" not in names and {"s1", "s2"} <= set(names)  # all or none


def test_a_problem_of_a_contest_not_started_stays_hidden(api_app, api_client, teacher_client, world):
    assert api_client.get("/api/v1/problems/later").status_code == 404
    assert TestClient(api_app).get("/api/v1/problems/later").status_code == 404
    assert "later" not in [p["id"] for p in api_client.get("/api/v1/problems").json()]
    reply = api_client.post("/api/v1/submissions", json={"problem": "later", "language": "cpp", "source": "x"})
    assert reply.status_code == 404
    assert teacher_client.get("/api/v1/problems/later").status_code == 200
    tomorrow = next(c for c in teacher_client.get("/api/v1/contests").json() if c["name"] == "Tomorrow")
    assert [p["letter"] for p in tomorrow["problems"]] == ["A"]
    as_student = api_client.get(f"/api/v1/contests/{tomorrow['id']}").json()
    assert as_student["phase"] == "before" and as_student["problems"] == []


def test_scoreboard_visibility_settings(api_app, api_client, teacher_client, world):
    cid = world["contest"].id
    anonymous = TestClient(api_app)
    assert anonymous.get(f"/api/v1/contests/{cid}/scoreboard").status_code == 401
    assert api_client.get(f"/api/v1/contests/{cid}/scoreboard").status_code == 200  # a participant
    teacher_client.patch(f"/api/v1/contests/{cid}", json={"scoreboard_visibility": "jury"})
    assert api_client.get(f"/api/v1/contests/{cid}/scoreboard").status_code == 404
    assert api_client.get(f"/api/v1/contests/{cid}/scoreboard.csv").status_code == 404
    events = sse_events(api_client, f"/api/v1/contests/{cid}/events")  # a participant's: clarifications, no board
    assert "scoreboard" not in {name for name, _ in events}
    teacher_client.patch(f"/api/v1/contests/{cid}", json={"scoreboard_visibility": "public"})
    board = anonymous.get(f"/api/v1/contests/{cid}/scoreboard")
    assert board.status_code == 200 and board.json()["view"] == "public"
    teacher_client.patch(
        f"/api/v1/contests/{cid}", json={"scoreboard_visibility": "participants", "participants": ["student2"]}
    )
    assert api_client.get(f"/api/v1/contests/{cid}/scoreboard").status_code == 404  # no longer taking part


def test_an_expired_token_is_refused(api_app, app_db):
    user, _ = create_user(app_db, "gina", "student", password="pw")
    token, _ = issue_token(app_db, user, lifetime=timedelta(seconds=-1))
    assert TestClient(api_app).get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_the_first_start_creates_one_admin_and_only_once(app_db):
    password = ensure_admin(app_db)
    assert authenticate(app_db, "admin", password).role == "admin"
    assert ensure_admin(app_db) is None  # accounts exist: nothing created, nothing printed
