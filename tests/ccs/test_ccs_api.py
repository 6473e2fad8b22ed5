"""The Contest API at /api/ccs: every endpoint's shape, the ids and times of the specification, auth
over HTTP Basic and bearer, errors, and above all the freeze: a public reader sees nothing of a
frozen verdict through any endpoint or the event feed."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from judge.models import Contest

from ..conftest import make_account
from .conftest import basic

TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
RELTIME = re.compile(r"^-?\d+:[0-5]\d:[0-5]\d\.\d{3}$")
ID = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?$")
COLLECTIONS = (
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "teams",
    "accounts",
    "submissions",
    "judgements",
    "runs",
    "clarifications",
    "awards",
)


def feed_lines(client, cid: int, **params) -> list[dict]:
    """The notifications of a short-lived event feed (blank keep-alive lines dropped)."""
    params = {"poll": 0.05, "max_seconds": 0.3} | params
    reply = client.get(f"/api/ccs/contests/{cid}/event-feed", params=params)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in reply.text.splitlines() if line.strip()]


def everything(client, cid: int) -> dict[str, str]:
    """Every answer of the API about contest ``cid`` as text, by path."""
    paths = ["", "/access", "/state", "/scoreboard", "/account", *(f"/{c}" for c in COLLECTIONS)]
    answers = {p: client.get(f"/api/ccs/contests/{cid}{p}").text for p in paths}
    answers["feed"] = json.dumps(feed_lines(client, cid))
    return answers


def test_the_root_names_the_version_and_contests_list_what_the_caller_may_see(jury, public, frozen_contest):
    assert jury.get("/api/ccs/").json()["version"] == "2023-06"
    assert jury.get("/api/ccs", follow_redirects=True).json()["version_url"].endswith("/2023-06/contest_api")
    contest = public.get("/api/ccs/contests").json()[0]
    assert contest == {
        "id": str(frozen_contest["id"]),
        "name": "Class contest",
        "formal_name": "Class contest",
        "start_time": contest["start_time"],
        "duration": "2:00:00.000",
        "scoreboard_freeze_duration": "1:00:00.000",
        "scoreboard_type": "pass-fail",
        "penalty_time": 20,
    }
    assert TIME.match(contest["start_time"])


def test_every_object_has_spec_ids_and_times(jury, frozen_contest):
    cid = frozen_contest["id"]
    for endpoint in COLLECTIONS:
        objects = jury.get(f"/api/ccs/contests/{cid}/{endpoint}").json()
        for obj in objects:
            assert ID.match(obj["id"]), (endpoint, obj)
            assert jury.get(f"/api/ccs/contests/{cid}/{endpoint}/{obj['id']}").json() == obj
            for key, value in obj.items():
                if key in ("time", "start_time", "end_time"):
                    assert TIME.match(value), (endpoint, key, value)
                if key.endswith("contest_time"):
                    assert RELTIME.match(value), (endpoint, key, value)
    types = {t["id"]: t for t in jury.get(f"/api/ccs/contests/{cid}/judgement-types").json()}
    assert set(types) == {"AC", "WA", "TLE", "MLE", "RTE", "OLE", "CE", "JE"}
    assert [k for k, t in types.items() if t["penalty"]] == ["WA", "TLE", "MLE", "RTE", "OLE"]
    assert [k for k, t in types.items() if t["solved"]] == ["AC"]
    problems = jury.get(f"/api/ccs/contests/{cid}/problems").json()
    assert [(p["id"], p["label"], p["ordinal"]) for p in problems] == [("basic", "A", 1), ("lee", "B", 2)]
    assert all(p["test_data_count"] > 0 and p["time_limit"] > 0 for p in problems)


def test_the_jury_sees_every_judgement_run_and_file(jury, frozen_contest):
    cid, hidden = frozen_contest["id"], frozen_contest["hidden"]
    submissions = jury.get(f"/api/ccs/contests/{cid}/submissions").json()
    assert len(submissions) == 5  # the jury's own submission is not a team's
    judgements = {j["submission_id"]: j for j in jury.get(f"/api/ccs/contests/{cid}/judgements").json()}
    assert judgements[str(hidden[1])]["judgement_type_id"] == "AC"
    assert {r["judgement_id"] for r in jury.get(f"/api/ccs/contests/{cid}/runs").json()} == {
        j["id"] for j in judgements.values()
    }
    files = jury.get(f"/api/ccs/contests/{cid}/submissions/{hidden[0]}/files")
    assert files.headers["content-type"] == "application/zip" and files.content.startswith(b"PK")
    board = jury.get(f"/api/ccs/contests/{cid}/scoreboard").json()
    ben = str(frozen_contest["users"]["ben"])
    assert (board["rows"][0]["team_id"], board["rows"][0]["score"]) == (
        ben,
        {"num_solved": 2, "total_time": 165, "time": 75},
    )


def test_a_public_reader_sees_nothing_the_freeze_hides(jury, public, frozen_contest):
    cid, hidden = frozen_contest["id"], frozen_contest["hidden"]
    ben = str(frozen_contest["users"]["ben"])
    seen = everything(public, cid)
    for sid in hidden:
        assert f'"{sid}-1"' not in "".join(seen.values())  # no judgement of a frozen submission, anywhere
        assert public.get(f"/api/ccs/contests/{cid}/judgements/{sid}-1").status_code == 404
        assert public.get(f"/api/ccs/contests/{cid}/submissions/{sid}/files").status_code == 404
    assert json.loads(seen["/runs"]) == [] and json.loads(seen["/accounts"]) == []
    board = json.loads(seen["/scoreboard"])
    row = next(r for r in board["rows"] if r["team_id"] == ben)
    assert row["score"] == {"num_solved": 0, "total_time": 0}
    assert [(p["num_judged"], p["num_pending"], p["solved"]) for p in row["problems"]] == [(1, 1, False), (0, 1, False)]
    awards = {a["id"]: a["team_ids"] for a in json.loads(seen["/awards"])}
    assert awards["first-to-solve-lee"] == [] and awards["winner"] == [str(frozen_contest["users"]["ana"])]
    assert json.loads(seen["/state"])["frozen"] is not None
    # the frozen submissions themselves are public (they show as pending), with no files
    assert {s["id"]: s["files"] for s in json.loads(seen["/submissions"])}[str(hidden[0])] == []
    # a student sees the public view too, plus its own account
    ana = TestClient(public.app, headers=basic("ana"))
    assert ana.get(f"/api/ccs/contests/{cid}/scoreboard").json()["rows"] == board["rows"]
    assert [a["username"] for a in ana.get(f"/api/ccs/contests/{cid}/accounts").json()] == ["ana"]
    assert jury.get(f"/api/ccs/contests/{cid}/judgements/{hidden[0]}-1").status_code == 200


def test_unfreezing_after_the_end_reveals_the_verdicts_and_thaws_the_state(api_app, public, frozen_contest):
    cid, hidden = frozen_contest["id"], frozen_contest["hidden"]
    with api_app.state.sessions() as session:
        contest = session.get(Contest, cid)
        contest.start_at -= timedelta(minutes=60)
        contest.end_at -= timedelta(minutes=60)
        contest.freeze_at -= timedelta(minutes=60)
        contest.unfrozen = True
        session.commit()
    state = public.get(f"/api/ccs/contests/{cid}/state").json()
    assert state["thawed"] == state["ended"] is not None and state["end_of_updates"] is not None
    assert public.get(f"/api/ccs/contests/{cid}/judgements/{hidden[1]}-1").json()["judgement_type_id"] == "AC"
    lines = feed_lines(public, cid, max_seconds=30)  # ends on its own: the contest is final
    assert lines[-1]["type"] == "state" and lines[-1]["data"]["end_of_updates"] == state["end_of_updates"]


def test_auth_basic_and_bearer_and_refusals(api_app, jury, public, frozen_contest):
    cid = frozen_contest["id"]
    assert jury.get(f"/api/ccs/contests/{cid}/account").json()["type"] == "judge"
    wrong = public.get(f"/api/ccs/contests/{cid}/state", headers=basic("jury", "not-it"))
    assert wrong.status_code == 401 and wrong.headers["www-authenticate"].startswith("Basic")
    assert wrong.json() == {"code": 401, "message": "wrong user name or password"}
    assert public.get("/api/ccs/contests", headers={"Authorization": "Basic %%%"}).status_code == 401
    _, bearer = make_account(api_app, "admin2", "admin")
    assert TestClient(api_app, headers=bearer).get(f"/api/ccs/contests/{cid}/runs").json() != []
    assert public.get(f"/api/ccs/contests/{cid}/account").status_code == 404
    for path in ("/teams/999", "/submissions/xyz", "/nothing", "/judgements/1-9"):
        reply = public.get(f"/api/ccs/contests/{cid}{path}")
        assert (reply.status_code, reply.json()["code"]) == (404, 404), path
    assert public.get("/api/ccs/contests/99999").status_code == 404
    for token in ("999999", "1-0000000000", "xY-99_"):
        assert public.get(f"/api/ccs/contests/{cid}/event-feed", params={"since_token": token}).status_code == 400
    token = feed_lines(public, cid)[3]["token"]
    again = feed_lines(public, cid, since_token=token)
    assert again[0]["type"] == "contest"  # a reconnection gets the whole state again


def test_every_refusal_is_in_the_specification_form_and_documented_so(api_app, public, frozen_contest):
    cid = frozen_contest["id"]
    invalid = public.get(f"/api/ccs/contests/{cid}/event-feed", params={"max_seconds": "-1"})
    assert invalid.status_code == 422 and set(invalid.json()) == {"code", "message"}
    assert invalid.json()["code"] == 422 and "max_seconds" in invalid.json()["message"]
    wrong_method = public.post(f"/api/ccs/contests/{cid}/state")
    assert (wrong_method.status_code, wrong_method.json()["code"]) == (405, 405)
    assert public.get("/api/v1/contests/99999").json().keys() == {"detail"}  # the rest of the API keeps its form
    paths = public.get("/openapi.json").json()["paths"]
    state = paths["/api/ccs/contests/{contest_id}/state"]["get"]["responses"]
    for status in ("401", "404", "422", "503"):
        assert state[status]["content"]["application/json"]["schema"]["required"] == ["code", "message"], status
    feed = paths["/api/ccs/contests/{contest_id}/event-feed"]["get"]["responses"]
    assert "application/x-ndjson" in feed["200"]["content"] and "400" in feed
    files = paths["/api/ccs/contests/{contest_id}/submissions/{submission_id}/files"]["get"]["responses"]
    assert list(files["200"]["content"]) == ["application/zip"]
    assert "401" not in paths["/api/ccs/"]["get"]["responses"]  # the API information reads no credentials


def test_a_private_scoreboard_hides_the_contest_from_the_public(api_app, public, jury, frozen_contest):
    cid = frozen_contest["id"]
    with api_app.state.sessions() as session:
        session.get(Contest, cid).scoreboard_visibility = "jury"
        session.commit()
    assert public.get("/api/ccs/contests").json() == []
    assert public.get(f"/api/ccs/contests/{cid}/teams").status_code == 401
    assert TestClient(api_app, headers=basic("ana")).get(f"/api/ccs/contests/{cid}").status_code == 404
    assert jury.get(f"/api/ccs/contests/{cid}").status_code == 200


def test_problems_stay_hidden_from_the_public_before_the_start(api_app, public, jury, frozen_contest):
    cid = frozen_contest["id"]
    with api_app.state.sessions() as session:
        contest = session.get(Contest, cid)
        contest.freeze_at = None
        contest.start_at += timedelta(days=1)
        contest.end_at += timedelta(days=1)
        session.commit()
    assert public.get(f"/api/ccs/contests/{cid}/problems").json() == []
    assert "basic" not in json.dumps(feed_lines(public, cid))
    assert len(jury.get(f"/api/ccs/contests/{cid}/problems").json()) == 2


@pytest.mark.parametrize("who", ["jury", "public"])
def test_the_feed_replayed_gives_the_rest_scoreboard(request, frozen_contest, who):
    """Replay the feed into objects and score them by ICPC rules from the objects alone (judgement
    types' penalty flags, the contest's penalty time): the same ranks, solved and times as
    /scoreboard."""
    client, cid = request.getfixturevalue(who), frozen_contest["id"]
    store: dict[str, dict] = {}
    for event in feed_lines(client, cid):
        store.setdefault(event["type"], {})[event["id"]] = event["data"]
    contest, types = store["contest"][None], store["judgement-types"]
    verdict_of = {j["submission_id"]: j.get("judgement_type_id") for j in store.get("judgements", {}).values()}
    scores: dict[str, list[int]] = {t: [0, 0] for t in store["teams"]}
    done: set[tuple[str, str]] = set()
    tries: dict[tuple[str, str], int] = {}
    for sub in sorted(store["submissions"].values(), key=lambda s: s["time"]):
        key, verdict = (sub["team_id"], sub["problem_id"]), verdict_of.get(sub["id"])
        if key in done or verdict is None:
            continue
        if types[verdict]["solved"]:
            h, m, _ = sub["contest_time"].split(":")
            scores[sub["team_id"]][0] += 1
            scores[sub["team_id"]][1] += int(h) * 60 + int(m) + contest["penalty_time"] * tries.get(key, 0)
            done.add(key)
        elif types[verdict]["penalty"]:
            tries[key] = tries.get(key, 0) + 1
    board = client.get(f"/api/ccs/contests/{cid}/scoreboard").json()
    assert {r["team_id"]: [r["score"]["num_solved"], r["score"]["total_time"]] for r in board["rows"]} == scores
    assert [r["team_id"] for r in board["rows"]] == sorted(scores, key=lambda t: (-scores[t][0], scores[t][1]))


def test_basic_auth_counts_failed_passwords_like_the_login(api_app, jury, public, frozen_contest):
    """HTTP Basic checks a password on every request: it is throttled like the API's login
    (``judge.auth.check_login``), so a contest tool's endpoint is no way around the limit."""
    cid = frozen_contest["id"]
    for _ in range(api_app.state.settings.login_failures_per_account):
        assert public.get(f"/api/ccs/contests/{cid}/state", headers=basic("jury", "not-it")).status_code == 401
    refused = jury.get(f"/api/ccs/contests/{cid}/state")  # the right password, too late
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert TestClient(api_app).post("/api/v1/auth/token", data={"username": "jury", "password": "x"}).status_code == 429
