"""Account care over the API: a teacher resets and deactivates its students' accounts; a deactivated
account's tokens stop at once and it cannot sign in, while its submissions stay on the scoreboard;
reactivated, it signs in again."""

from __future__ import annotations

from fastapi.testclient import TestClient

from judge.auth import user_for_token
from tests.contests.conftest import add_problems, judge_next

from .conftest import log_in, make_class, running_contest


def test_a_deactivated_student_is_locked_out_and_keeps_its_place(api_app, app_db, teacher_client):
    add_problems(app_db, "pa")
    class_id, passwords = make_class(teacher_client, "12A", "ana", "bob")
    ana = log_in(api_app, "ana", passwords["ana"])
    contest = running_contest(teacher_client, "Lab", ["pa"], classes=[class_id])
    sent = ana.post(
        "/api/v1/submissions",
        json={"problem": "A", "language": "python3", "source": "print(1)", "contest": contest["id"]},
    )
    assert sent.status_code == 202
    judge_next(app_db, "AC")

    reply = teacher_client.post("/api/v1/users/ana/deactivate")
    assert reply.status_code == 200 and reply.json()["active"] is False
    assert ana.get("/api/v1/contests").status_code == 401  # the token ended at once
    token = ana.headers["Authorization"].removeprefix("Bearer ")
    assert user_for_token(app_db, token) is None
    login = TestClient(api_app).post("/api/v1/auth/token", data={"username": "ana", "password": passwords["ana"]})
    assert login.status_code == 401

    board = teacher_client.get(f"/api/v1/contests/{contest['id']}/scoreboard").json()
    ana_row = next(r for r in board["rows"] if r["user"] == "ana")
    assert ana_row["solved"] == 1 and ana_row["rank"] == 1
    assert teacher_client.get(f"/api/v1/submissions/{sent.json()['id']}").json()["verdict"] == "AC"
    listed = {u["name"]: u["active"] for u in teacher_client.get("/api/v1/users").json()}
    assert listed["ana"] is False and listed["bob"] is True

    assert teacher_client.post("/api/v1/users/ana/reactivate").json()["active"] is True
    assert log_in(api_app, "ana", passwords["ana"]).get("/api/v1/contests").status_code == 200


def test_who_may_deactivate_and_reset_whom(api_app, teacher_client, admin_client):
    _, passwords = make_class(teacher_client, "12B", "cid")
    assert teacher_client.post("/api/v1/users/boss/deactivate").status_code == 404  # an admin: not seen
    assert teacher_client.post("/api/v1/users/teacher1/deactivate").status_code == 403  # itself
    assert admin_client.post("/api/v1/users/boss/deactivate").status_code == 403  # itself
    assert admin_client.post("/api/v1/users/teacher1/deactivate").status_code == 200
    assert teacher_client.get("/api/v1/classes").status_code == 401
    assert admin_client.post("/api/v1/users/teacher1/reactivate").status_code == 200

    reset = TestClient(api_app)
    reset.headers.update(log_in(api_app, "teacher1", "pw-" + "x" * 8).headers)
    new = reset.post("/api/v1/users/cid/password")
    assert new.status_code == 200
    assert log_in(api_app, "cid", new.json()["password"]).get("/api/v1/classes").status_code == 200
    assert (
        TestClient(api_app)
        .post("/api/v1/auth/token", data={"username": "cid", "password": passwords["cid"]})
        .status_code
        == 401
    )
