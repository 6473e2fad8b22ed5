"""Submitting to a contest over HTTP: the window, participants, jury submissions, letters, the rate limit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from judge import board as kept_board
from judge.models import Submission, User, utcnow
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import ScoreboardView

from ..conftest import make_account
from .conftest import add_problems, make_contest

SOURCE = "int main() { return 0; }\n"


def post(client, problem: str, contest: int | None = None, source: str = SOURCE):
    return client.post(
        "/api/v1/submissions", json={"problem": problem, "language": "cpp", "source": source, "contest": contest}
    )


@pytest.fixture
def contests(app_db, api_client, teacher_client):
    """Problems pa, pb; contests that are running, not started, over, and one for student2 only."""
    add_problems(app_db, "pa", "pb", "pz")  # pz: in no contest, for practice
    now = utcnow()
    return {
        "running": make_contest(app_db, start=now - timedelta(minutes=5), owner="teacher1"),
        "future": make_contest(app_db, start=now + timedelta(hours=1)),
        "past": make_contest(app_db, start=now - timedelta(hours=3)),
        "closed": make_contest(app_db, start=now - timedelta(minutes=5), participants=["teacher1"]),
    }


def test_a_running_contests_problem_is_not_open_for_practice(api_client, teacher_client, contests):
    refused = post(api_client, "pa")
    assert refused.status_code == 403 and "running contest" in refused.json()["detail"]
    assert f"contest {contests['running'].id}," in refused.json()["detail"]  # where to submit it
    assert post(teacher_client, "pa").status_code == 202  # the jury may try it out
    assert post(api_client, "pz").status_code == 202


def test_a_participant_submits_by_letter_inside_the_window(api_client, app_db, contests):
    reply = post(api_client, "b", contests["running"].id)
    assert reply.status_code == 202, reply.text
    row = app_db.get(Submission, reply.json()["id"])
    assert (row.problem_id, row.contest_id, row.user_id, row.is_jury) == (
        "pb",
        contests["running"].id,
        api_client.user_id,
        False,
    )
    assert api_client.get(reply.json()["url"]).json()["letter"] == "B"
    assert post(api_client, "Q", contests["running"].id).status_code == 404
    assert post(api_client, "A", 9999).status_code == 404


def test_submissions_outside_the_window_are_refused_with_the_reason(api_client, app_db, contests):
    before = post(api_client, "A", contests["future"].id)
    after = post(api_client, "A", contests["past"].id)
    assert (before.status_code, after.status_code) == (403, 403)
    assert "not started" in before.json()["detail"] and "over" in after.json()["detail"]
    assert app_db.query(Submission).count() == 0


def test_a_student_who_does_not_take_part_is_refused(api_client, app_db, contests):
    """A contest the student cannot see answers as one that does not exist, whatever the letter; one
    whose board is public refuses with 403, the same for every letter, naming only its id."""
    closed = contests["closed"]
    unseen = [post(api_client, letter, closed.id) for letter in ("A", "Q")]
    missing = post(api_client, "A", 9999)
    assert [r.status_code for r in unseen] == [404, 404]
    assert [r.json()["detail"] for r in unseen] == [f"no contest {closed.id}"] * 2
    assert missing.json()["detail"] == "no contest 9999"
    closed.scoreboard_visibility = "public"
    app_db.commit()
    seen = [post(api_client, letter, closed.id) for letter in ("A", "Q")]
    assert [r.status_code for r in seen] == [403, 403]
    assert {r.json()["detail"] for r in seen} == {f"you do not take part in contest {closed.id}"}
    assert closed.name not in seen[0].text


def test_teachers_may_always_submit_as_jury_and_stay_off_the_scoreboard(teacher_client, api_client, app_db, contests):
    for name in ("future", "past", "running"):
        reply = post(teacher_client, "A", contests[name].id)
        assert reply.status_code == 202, (name, reply.text)
        assert app_db.get(Submission, reply.json()["id"]).is_jury
    app_db.execute(update(Submission).values(status="done", verdict="AC"))
    kept_board.rebuild(app_db, contests["running"])  # written behind the judge's back: re-derive the kept board
    app_db.commit()
    board = compute_scoreboard(app_db, contests["running"], ScoreboardView.JURY)
    assert "teacher1" not in [r.user for r in board.rows] and not any(r.solved for r in board.rows)


def test_rate_limit_answers_429_with_retry_after(api_app, api_client, teacher_client, app_db, contests):
    api_app.state.settings = api_app.state.settings.model_copy(update={"submit_interval_s": 10})
    assert post(api_client, "pz").status_code == 202  # practice: by problem id
    second = post(api_client, "B", contests["running"].id)
    assert second.status_code == 429
    assert 1 <= int(second.headers["retry-after"]) <= 10
    assert "try again" in second.json()["detail"]
    assert post(api_client, "pz").status_code == 429  # practice too: the limit is per user
    _, other = make_account(api_app, "student2")
    assert post(TestClient(api_app, headers=other), "pz").status_code == 202  # another student is not held up
    assert post(teacher_client, "pz").status_code == 202 and post(teacher_client, "pz").status_code == 202
    app_db.execute(
        update(User).where(User.id == api_client.user_id).values(last_submission_at=utcnow() - timedelta(seconds=11))
    )
    app_db.commit()
    assert post(api_client, "B", contests["running"].id).status_code == 202  # the interval has passed


def test_a_refused_submission_does_not_use_up_the_rate_limit(api_app, api_client, contests):
    api_app.state.settings = api_app.state.settings.model_copy(update={"submit_interval_s": 10})
    assert post(api_client, "pz", source="   ").status_code == 422  # empty source
    assert post(api_client, "A", contests["future"].id).status_code == 403
    assert post(api_client, "pz").status_code == 202
