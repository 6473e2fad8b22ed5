"""Who sees which class and whose students, over the API: a teacher never sees another teacher's
class or its students' data; a student sees its own classes only, never who else is in them; an
admin sees all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.contests.conftest import add_problems

from .conftest import log_in, make_class


def test_a_teacher_never_sees_another_teachers_class_or_students(api_app, app_db, teacher_client, second_teacher):
    add_problems(app_db, "pa")
    mine, passwords = make_class(teacher_client, "10A", "ana")
    theirs, _ = make_class(second_teacher, "10B", "bea")
    ana = log_in(api_app, "ana", passwords["ana"])
    practice = ana.post("/api/v1/submissions", json={"problem": "pa", "language": "python3", "source": "print(1)"})
    assert practice.status_code == 202

    assert [c["name"] for c in second_teacher.get("/api/v1/classes").json()] == ["10B"]
    assert second_teacher.get(f"/api/v1/classes/{mine}").status_code == 404
    names = {u["name"] for u in second_teacher.get("/api/v1/users").json()}
    assert "ana" not in names and {"bea", "teacher2"} <= names
    for path in ("password", "deactivate", "reactivate"):
        assert second_teacher.post(f"/api/v1/users/ana/{path}").status_code == 404, path
    assert second_teacher.get(f"/api/v1/submissions/{practice.json()['id']}").status_code == 404
    assert teacher_client.get(f"/api/v1/submissions/{practice.json()['id']}").status_code == 200
    assert practice.json()["id"] not in {s["id"] for s in second_teacher.get("/api/v1/submissions").json()}

    # nor can it take them: into its class, its contest, or change the class
    took = second_teacher.post(f"/api/v1/classes/{theirs}/students", json={"students": ["ana"]})
    assert took.status_code == 404 and "ana" in took.json()["detail"]
    clash = second_teacher.post(f"/api/v1/classes/{theirs}/import", json=[{"name": "ana"}])
    assert clash.status_code == 409  # a taken name, as when creating an account
    assert second_teacher.post(f"/api/v1/classes/{mine}/students", json={"students": ["bea"]}).status_code == 404
    assert second_teacher.delete(f"/api/v1/classes/{mine}/students/ana").status_code == 404
    assert second_teacher.delete(f"/api/v1/classes/{mine}").status_code == 404
    start = datetime.now(UTC)
    contest = {"name": "x", "start_at": start.isoformat(), "end_at": (start + timedelta(hours=1)).isoformat()}
    contest["problems"] = [{"problem": "pa"}]
    assert second_teacher.post("/api/v1/contests", json=contest | {"classes": [mine]}).status_code == 404
    assert second_teacher.post("/api/v1/contests", json=contest | {"participants": ["ana"]}).status_code == 404
    assert teacher_client.get(f"/api/v1/classes/{mine}").json()["students"][0]["name"] == "ana"


def test_a_student_sees_only_its_own_classes_and_not_their_members(api_app, teacher_client):
    first, passwords = make_class(teacher_client, "11A", "ana", "bob")
    other, _ = make_class(teacher_client, "11B", "cid")
    ana = log_in(api_app, "ana", passwords["ana"])
    listed = ana.get("/api/v1/classes").json()
    assert [(c["id"], c["name"], c["teacher"], c["students"]) for c in listed] == [(first, "11A", "teacher1", None)]
    assert ana.get(f"/api/v1/classes/{first}").json()["students"] is None
    assert ana.get(f"/api/v1/classes/{other}").status_code == 404
    assert ana.post(f"/api/v1/classes/{first}/students", json={"students": ["cid"]}).status_code == 403
    assert ana.post("/api/v1/classes", json={"name": "mine"}).status_code == 403
    assert ana.get("/api/v1/users").status_code == 403


def test_an_admin_sees_every_class_and_makes_one_for_a_teacher(teacher_client, second_teacher, admin_client):
    make_class(teacher_client, "A1", "ana")
    make_class(second_teacher, "B1", "bea")
    assert sorted(c["name"] for c in admin_client.get("/api/v1/classes").json()) == ["A1", "B1"]
    made = admin_client.post("/api/v1/classes", json={"name": "C1", "teacher": "teacher2"})
    assert made.status_code == 201 and made.json()["teacher"] == "teacher2"
    assert "C1" in {c["name"] for c in second_teacher.get("/api/v1/classes").json()}
    assert teacher_client.post("/api/v1/classes", json={"name": "D1", "teacher": "teacher2"}).status_code == 403
    assert teacher_client.post("/api/v1/classes", json={"name": "A1"}).status_code == 409
    assert admin_client.post("/api/v1/classes", json={"name": "x", "teacher": "ana"}).status_code == 404


def test_a_student_may_be_in_several_classes_and_leaving_one_keeps_the_account(teacher_client):
    first, _ = make_class(teacher_client, "Maths", "ana")
    second, _ = make_class(teacher_client, "Physics")
    assert teacher_client.post(f"/api/v1/classes/{second}/students", json={"students": ["ana"]}).status_code == 200
    again = teacher_client.post(f"/api/v1/classes/{second}/import", json=[{"name": "ana"}, {"name": "eve"}])
    assert again.status_code == 201, again.text
    assert [u["name"] for u in again.json()["added"]] == [] and [
        c["user"]["name"] for c in again.json()["created"]
    ] == ["eve"]
    assert teacher_client.get(f"/api/v1/classes/{second}").json()["size"] == 2
    refused = teacher_client.post(f"/api/v1/classes/{first}/import", json=[{"name": "eve", "password": "x" * 10}])
    assert refused.status_code == 409 and "leave its password out" in refused.json()["detail"]
    assert teacher_client.post(f"/api/v1/classes/{first}/students", json={"students": ["teacher1"]}).status_code == 422
    assert teacher_client.delete(f"/api/v1/classes/{first}/students/ana").status_code == 204
    assert teacher_client.delete(f"/api/v1/classes/{first}/students/ana").status_code == 404
    assert teacher_client.get(f"/api/v1/classes/{first}").json()["size"] == 0
    assert "ana" in {u["name"] for u in teacher_client.get("/api/v1/users").json()}
