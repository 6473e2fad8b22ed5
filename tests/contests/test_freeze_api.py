"""The freeze over HTTP: nothing of a frozen verdict reaches a student or the public through any
endpoint; the jury sees the live board; unfreezing reveals it."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from judge import board
from judge.clock import iso_utc
from judge.models import Submission, utcnow

from ..conftest import make_account
from .conftest import add_problems, add_submission, csv_rows, make_contest


def sse_events(client, url: str) -> list[tuple[str, dict]]:
    """The (event, data) pairs of a short-lived event stream."""
    with client.stream("GET", url, params={"poll": 0.05, "max_seconds": 0.3}) as reply:
        assert reply.status_code == 200, url
        assert reply.headers["content-type"].startswith("text/event-stream")
        text = reply.read().decode()
    return [
        (m.group(1), json.loads(m.group(2))) for m in re.finditer(r"event: (\w+)\n(?:id: \d+\n)?data: (.*)\n\n", text)
    ]


def without_times(text: str) -> str:
    return re.sub(r'"computed_at":\s*"[^"]*",?', "", text)


@pytest.fixture
def frozen(api_app, app_db, api_client, teacher_client):
    """A public-scoreboard ICPC contest started 90 minutes ago, frozen 30 minutes ago (minute 60).
    student1 solved A at minute 20; student2 had a WA on A at 10, then after the freeze an AC on A
    (70) and the first AC on B (75)."""
    add_problems(app_db, "pa", "pb")
    contest = make_contest(
        app_db, start=utcnow() - timedelta(minutes=90), owner="teacher1", scoreboard_visibility="public"
    )
    contest.freeze_at = contest.start_at + timedelta(minutes=60)
    app_db.commit()
    other, headers = make_account(api_app, "student2")
    add_submission(app_db, contest, other, "pa", "WA", 10)
    own = add_submission(app_db, contest, api_client.user_id, "pa", "AC", 20)
    hidden = [
        add_submission(app_db, contest, other, "pa", "AC", 70),
        add_submission(app_db, contest, other, "pb", "AC", 75),
    ]
    return dict(contest=contest, hidden=hidden, own=own, other=TestClient(api_app, headers=headers))


def visible_to_others(api_app, api_client, setup) -> dict[str, str]:
    """Every response student1 and an anonymous visitor get that could carry contest results."""
    cid, responses = setup["contest"].id, {}
    for who, client in (("student", api_client), ("anonymous", TestClient(api_app))):
        for path in ("scoreboard", "scoreboard.csv", "", "submissions", "grades.csv"):
            reply = client.get(f"/api/v1/contests/{cid}/{path}".rstrip("/"))
            responses[f"{who} {path}"] = f"{reply.status_code} {without_times(reply.text)}"
        for sid in setup["hidden"]:
            for suffix in ("", "/source", "/events"):
                responses[f"{who} {sid}{suffix}"] = str(client.get(f"/api/v1/submissions/{sid}{suffix}").status_code)
        responses[f"{who} events"] = str(sse_events(client, f"/api/v1/contests/{cid}/events"))
    responses["own list"] = without_times(api_client.get("/api/v1/submissions").text)
    return responses


def test_public_and_student_views_show_frozen_attempts_as_pending_only(api_app, api_client, frozen):
    board = api_client.get(f"/api/v1/contests/{frozen['contest'].id}/scoreboard").json()
    assert board["frozen"] and board["view"] == "public"
    rows = {r["user"]: r for r in board["rows"]}
    a, b = rows["student2"]["cells"]
    assert (rows["student2"]["solved"], rows["student2"]["penalty"], rows["student2"]["rank"]) == (0, 0, 2)
    assert (a["solved"], a["pending"], a["attempts"], a["minute"]) == (False, 1, 1, None)
    assert (b["solved"], b["pending"], b["first_solve"], b["minute"]) == (False, 1, False, None)
    assert [c["letter"] for r in board["rows"] for c in r["cells"] if c["first_solve"]] == ["A"]  # student1's
    rows = csv_rows(TestClient(api_app).get(f"/api/v1/contests/{frozen['contest'].id}/scoreboard.csv").text)
    # solved, attempts, penalty, pending; A: one shown WA, unsolved; B: nothing shown
    assert rows[2][1:] == ["student2", "student2", "0", "1", "0", "2", "1", "", "0", ""]


def test_no_endpoint_tells_a_frozen_ac_from_a_frozen_wa(api_app, api_client, app_db, frozen):
    as_ac = visible_to_others(api_app, api_client, frozen)
    app_db.execute(update(Submission).where(Submission.id.in_(frozen["hidden"])).values(verdict="WA"))
    board.rebuild(app_db, frozen["contest"])  # written behind the judge's back: re-derive the kept board
    app_db.commit()
    as_wa = visible_to_others(api_app, api_client, frozen)
    assert as_ac == as_wa
    assert as_ac["student grades.csv"].startswith("403") and as_ac[f"student {frozen['hidden'][0]}"] == "404"
    assert "('scoreboard'" in as_ac["anonymous events"] and "student2" in as_ac["anonymous events"]


def test_the_jury_sees_the_live_board_and_unfreeze_reveals_it(api_app, api_client, teacher_client, frozen):
    cid = frozen["contest"].id
    live = teacher_client.get(f"/api/v1/contests/{cid}/scoreboard").json()
    assert not live["frozen"] and live["view"] == "jury"
    student2 = next(r for r in live["rows"] if r["user"] == "student2")
    assert (student2["solved"], student2["penalty"], student2["rank"]) == (2, 70 + 20 + 75, 1)
    grades = csv_rows(teacher_client.get(f"/api/v1/contests/{cid}/grades.csv").text)
    assert ["student2", "student2", "1", "1", "1", "2", "3", "165"] in grades
    assert frozen["other"].get(f"/api/v1/submissions/{frozen['hidden'][0]}").json()["verdict"] == "AC"  # own verdict
    early = teacher_client.post(f"/api/v1/contests/{cid}/unfreeze")  # the contest runs: nothing revealed
    assert early.status_code == 409 and "is not over" in early.json()["detail"]
    over = {"end_at": iso_utc(utcnow() - timedelta(minutes=1)), "freeze_at": iso_utc(frozen["contest"].freeze_at)}
    assert teacher_client.patch(f"/api/v1/contests/{cid}", json=over).json()["phase"] == "over"
    assert teacher_client.post(f"/api/v1/contests/{cid}/unfreeze").json()["unfrozen"] is True
    public = TestClient(api_app).get(f"/api/v1/contests/{cid}/scoreboard").json()
    assert not public["frozen"] and public["rows"] == live["rows"]
    assert teacher_client.patch(f"/api/v1/contests/{cid}", json={"unfrozen": False}).json()["unfrozen"] is False
    assert TestClient(api_app).get(f"/api/v1/contests/{cid}/scoreboard").json()["frozen"]  # frozen again
