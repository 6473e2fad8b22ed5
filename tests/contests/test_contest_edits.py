"""Editing a contest re-decides what counts: the window as it is now decides which submissions count,
every edit is validated whole (or changes nothing), the freeze moves with the end, the unfreeze
waits for the end and can be undone, and a contest can be archived or deleted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from judge.clock import iso_utc
from judge.contests import ContestRuleError, edit_contest
from judge.models import Contest, utcnow

from .conftest import add_problems, add_submission, csv_rows, make_contest


@pytest.fixture
def running(app_db, api_client, teacher_client):
    """teacher1's ICPC contest on pa, pb that started 60 minutes ago and lasts 120, public board."""
    add_problems(app_db, "pa", "pb")
    return make_contest(
        app_db, start=utcnow() - timedelta(minutes=60), owner="teacher1", scoreboard_visibility="public"
    )


def row_of(client, contest_id: int, user: str = "student1") -> dict:
    board = client.get(f"/api/v1/contests/{contest_id}/scoreboard").json()
    return next(r for r in board["rows"] if r["user"] == user)


def patch(client, contest_id: int, **fields):
    return client.patch(f"/api/v1/contests/{contest_id}", json=fields)


def test_an_ac_after_an_earlier_end_no_longer_counts(app_db, api_client, teacher_client, running):
    add_submission(app_db, running, api_client.user_id, "pa", "AC", 30)
    add_submission(app_db, running, api_client.user_id, "pb", "AC", 50)
    assert row_of(teacher_client, running.id)["solved"] == 2
    new_end = running.start_at + timedelta(minutes=40)
    assert patch(teacher_client, running.id, end_at=iso_utc(new_end)).status_code == 200
    for client in (teacher_client, api_client, TestClient(teacher_client.app)):
        row = row_of(client, running.id)
        assert (row["solved"], row["penalty"], [c["solved"] for c in row["cells"]]) == (1, 30, [True, False])
    grades = csv_rows(teacher_client.get(f"/api/v1/contests/{running.id}/grades.csv").text)
    assert grades[1][3:] == ["1", "0", "1", "1", "30"]  # pb's AC at minute 50 is after the end


def test_a_wa_before_a_later_start_costs_nothing(app_db, api_client, teacher_client, running):
    add_submission(app_db, running, api_client.user_id, "pa", "WA", 5)
    add_submission(app_db, running, api_client.user_id, "pa", "AC", 30)
    assert row_of(teacher_client, running.id)["penalty"] == 30 + 20
    new_start = running.start_at + timedelta(minutes=10)
    assert patch(teacher_client, running.id, start_at=iso_utc(new_start)).status_code == 200
    row = row_of(teacher_client, running.id)
    assert (row["solved"], row["penalty"], row["cells"][0]["attempts"]) == (1, 20, 1)  # minute 20, no WA


def test_unknown_fields_and_nulls_are_refused_and_change_nothing(app_db, teacher_client, running):
    before = teacher_client.get(f"/api/v1/contests/{running.id}").json()
    for body in ({"nmae": "x"}, {"name": None}, {"start_at": None}, {"problems": None}, {"penalty_minutes": None}):
        reply = teacher_client.patch(f"/api/v1/contests/{running.id}", json=body)
        assert reply.status_code == 422, body
    late = iso_utc(running.start_at - timedelta(minutes=1))
    reply = patch(teacher_client, running.id, name="Renamed", end_at=late)  # one bad field: nothing changes
    assert reply.status_code == 422 and "end after it starts" in reply.json()["detail"]
    assert teacher_client.get(f"/api/v1/contests/{running.id}").json() == before
    new = {"name": "c", "start_at": iso_utc(utcnow()), "end_at": late, "problems": [{"problem": "pa"}]}
    assert teacher_client.post("/api/v1/contests", json=new | {"colour": "red"}).status_code == 422
    assert teacher_client.post("/api/v1/contests", json=new | {"unfrozen": True}).status_code == 422


def test_edit_contest_is_the_one_rule(app_db, running):
    """The rule function itself (pages and the command line call it): unknown fields and nulls."""
    with pytest.raises(ContestRuleError) as unknown:
        edit_contest(app_db, running, {"owner_id": 1}, utcnow())
    with pytest.raises(ContestRuleError) as null:
        edit_contest(app_db, running, {"end_at": None}, utcnow())
    assert (unknown.value.status, null.value.status) == (422, 422)
    assert "owner_id" in unknown.value.message


def test_moving_the_end_moves_the_freeze_with_it(teacher_client, running):
    end = running.end_at
    freeze = patch(teacher_client, running.id, freeze_at=iso_utc(end - timedelta(minutes=30))).json()["freeze_at"]
    assert freeze == iso_utc(end - timedelta(minutes=30))
    moved = patch(teacher_client, running.id, end_at=iso_utc(end + timedelta(minutes=45))).json()
    assert (moved["end_at"], moved["freeze_at"]) == (
        iso_utc(end + timedelta(minutes=45)),
        iso_utc(end + timedelta(minutes=15)),
    )
    both = patch(teacher_client, running.id, end_at=iso_utc(end), freeze_at=iso_utc(end - timedelta(minutes=5))).json()
    assert both["freeze_at"] == iso_utc(end - timedelta(minutes=5))  # a freeze sent with the end is as sent
    cut = patch(teacher_client, running.id, end_at=iso_utc(running.start_at + timedelta(minutes=3)))
    assert cut.status_code == 422 and "freeze" in cut.json()["detail"]  # the freeze would fall before the start


def test_unfreeze_waits_for_the_end_and_can_be_undone(app_db, teacher_client, running):
    future = make_contest(
        app_db, start=utcnow() + timedelta(hours=1), owner="teacher1", freeze_at=utcnow() + timedelta(hours=2)
    )
    for contest in (future, running):
        reply = teacher_client.post(f"/api/v1/contests/{contest.id}/unfreeze")
        assert reply.status_code == 409 and not teacher_client.get(f"/api/v1/contests/{contest.id}").json()["unfrozen"]
    assert "has no freeze" in teacher_client.post(f"/api/v1/contests/{running.id}/unfreeze").json()["detail"]
    over = {"end_at": iso_utc(utcnow() - timedelta(minutes=1)), "freeze_at": iso_utc(running.start_at)}
    assert patch(teacher_client, running.id, **over).status_code == 200
    assert teacher_client.post(f"/api/v1/contests/{running.id}/unfreeze").json()["unfrozen"] is True
    again = patch(teacher_client, running.id, end_at=iso_utc(utcnow() + timedelta(hours=1)))
    assert again.status_code == 422 and "unfrozen" in again.json()["detail"]  # running again while revealed
    reopened = patch(teacher_client, running.id, end_at=iso_utc(utcnow() + timedelta(hours=1)), unfrozen=False)
    assert (reopened.json()["unfrozen"], reopened.json()["phase"]) == (False, "running")


def test_a_contest_is_archived_or_deleted(app_db, api_client, teacher_client, running):
    add_submission(app_db, running, api_client.user_id, "pa", "AC", 30)
    refused = teacher_client.delete(f"/api/v1/contests/{running.id}")
    assert refused.status_code == 409 and "archive" in refused.json()["detail"]
    assert patch(teacher_client, running.id, archived=True).json()["archived"] is True
    url = f"/api/v1/contests/{running.id}"
    answers = [api_client.get(url + path).status_code for path in ("", "/scoreboard", "/submissions")]
    assert answers == [404, 404, 404] and TestClient(teacher_client.app).get(url + "/scoreboard").status_code == 404
    assert api_client.get("/api/v1/contests").json() == []
    body = {"problem": "A", "language": "cpp", "source": "int main(){}", "contest": running.id}
    assert api_client.post("/api/v1/submissions", json=body).status_code == 404
    assert [c["id"] for c in teacher_client.get("/api/v1/contests").json()] == [running.id]  # the jury keeps it
    assert patch(teacher_client, running.id, archived=False).status_code == 200
    assert api_client.get(url).status_code == 200
    empty = make_contest(app_db, start=utcnow() + timedelta(hours=1), owner="teacher1")
    empty_id = empty.id
    assert teacher_client.delete(f"/api/v1/contests/{empty_id}").status_code == 204
    app_db.expire_all()
    assert (
        app_db.get(Contest, empty_id) is None and teacher_client.get(f"/api/v1/contests/{empty_id}").status_code == 404
    )
    assert api_client.delete(url).status_code == 403
