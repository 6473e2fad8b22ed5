"""What docs/contests.md promises a teacher, over the API alone: two classes, a contest for one of
them, while the other keeps practising the same problems; the contest's participants follow the
class as it changes."""

from __future__ import annotations

from tests.contests.conftest import add_problems

from .conftest import log_in, make_class, running_contest


def _submit(client, problem: str, contest: int | None = None):
    body: dict[str, object] = {"problem": problem, "language": "python3", "source": "print(1)"}
    if contest is not None:
        body["contest"] = contest
    return client.post("/api/v1/submissions", json=body)


def _board(client, contest_id: int) -> list[str]:
    reply = client.get(f"/api/v1/contests/{contest_id}/scoreboard")
    assert reply.status_code == 200, reply.text
    return sorted(row["user"] for row in reply.json()["rows"])


def test_a_contest_for_one_class_while_the_other_practises(api_app, app_db, teacher_client):
    add_problems(app_db, "lee", "lines")
    class_a, passwords_a = make_class(teacher_client, "9A", "ana", "bob")
    class_b, passwords_b = make_class(teacher_client, "9B", "cara", "dan")
    ana, cara = log_in(api_app, "ana", passwords_a["ana"]), log_in(api_app, "cara", passwords_b["cara"])

    contest = running_contest(teacher_client, "Lab 1 (9A)", ["lee", "lines"], classes=[class_a])
    assert contest["classes"] == [{"id": class_a, "name": "9A"}] and contest["participants"] == []

    # 9A takes part: its practice on the contest's problems waits for the end
    assert _submit(ana, "A", contest["id"]).status_code == 202
    refused = _submit(ana, "lee")
    assert refused.status_code == 403 and "running contest" in refused.json()["detail"]
    assert [c["id"] for c in ana.get("/api/v1/contests").json()] == [contest["id"]]

    # 9B does not: it practises the same problems, and the contest is not theirs
    assert _submit(cara, "lee").status_code == 202
    assert _submit(cara, "lines").status_code == 202
    assert _submit(cara, "A", contest["id"]).status_code in (403, 404)
    assert cara.get("/api/v1/contests").json() == []
    assert cara.get(f"/api/v1/contests/{contest['id']}/scoreboard").status_code == 404

    assert _board(teacher_client, contest["id"]) == ["ana", "bob"]
    assert _board(ana, contest["id"]) == ["ana", "bob"]

    # a student put in 9A takes part from then on: on the board, practice locked
    dan = log_in(api_app, "dan", passwords_b["dan"])
    assert _submit(dan, "lee").status_code == 202
    assert teacher_client.post(f"/api/v1/classes/{class_a}/students", json={"students": ["dan"]}).status_code == 200
    assert _board(teacher_client, contest["id"]) == ["ana", "bob", "dan"]
    assert _submit(dan, "lee").status_code == 403
    assert _submit(dan, "B", contest["id"]).status_code == 202

    # the practice submissions of 9B were judged as practice, under no contest
    practice = cara.get("/api/v1/submissions").json()
    assert len(practice) == 2 and all(s["letter"] is None for s in practice)
