"""The API's submit path (``judge.accept.accept_by_token``) and conditional polling of a submission
(``judge.api.etag``), on SQLite and PostgreSQL.

- An ordinary submission costs at most three SQL statements in the API process: the UPDATE that
  checks the token, the account and the rate limit, the INSERT … SELECT that checks the target and
  the language, and the commit.
- Two apps on one database stand for two API processes: a token ended through one (log out, a new
  password, a deactivation) is refused by the other at its next submission, and the rate limit
  counts submissions made through either.
- A refusal the SQL conditions leave to the rules still gets the rules' answer, and a case they
  leave to the rules that the rules accept is still accepted.
- ``GET /api/v1/submissions/{id}``: 200 with an ETag, 304 for that ETag (without reading the test
  results), 200 with another once the submission changes: queued ahead, judging, a test's result
  stored, the verdict stored.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from judge import lifecycle
from judge.api import create_app
from judge.clock import utcnow
from judge.config import Settings
from judge.models import BoardCell, Worker
from tests.conftest import make_account
from tests.contests.conftest import add_problems, finish_claimed, make_contest

SOURCE = {"problem": "pa", "language": "python3", "source": "print(1)\n"}


def make_app(url: str, tmp_path, interval_s: float = 0):
    """An API app on the database ``url`` (one API process), with a rate limit of ``interval_s``."""
    settings = Settings(
        database_url=url,
        problems_dir=tmp_path / "problems",
        work_dir=tmp_path / "work",
        submit_interval_s=interval_s,
    )
    return create_app(settings)


@pytest.fixture
def cheap_hashes(monkeypatch):
    from argon2 import PasswordHasher, profiles

    monkeypatch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))


@pytest.fixture
def app(database_url, tmp_path, cheap_hashes):
    """An app on a fresh database holding the problems pa, pb, pc."""
    app = make_app(database_url, tmp_path, interval_s=60)
    with app.state.sessions() as s:
        add_problems(s, "pa", "pb", "pc")
    return app


def counted(app) -> list[str]:
    """The SQL statements ``app``'s engine sends from now on (appended as they go)."""
    statements: list[str] = []
    event.listen(app.state.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    return statements


def client_of(app, name: str, role: str = "student") -> TestClient:
    client = TestClient(app)
    client.user_id, headers = make_account(app, name, role)
    client.headers.update(headers)
    return client


def test_an_ordinary_submission_takes_at_most_three_statements(app):
    student = client_of(app, "ann")
    teacher = client_of(app, "tess", "teacher")
    with app.state.sessions() as s:
        contest = make_contest(s, ("pb", "pc"), start=utcnow() - timedelta(minutes=5))
        contest_id = contest.id
    statements = counted(app)
    for client, body in [
        (student, SOURCE),  # practice
        (teacher, SOURCE),
        (teacher, {**SOURCE, "problem": "pb"}),  # a teacher is never locked out of practice
        (teacher, {**SOURCE, "problem": "A", "contest": contest_id}),
    ]:
        statements.clear()
        answer = client.post("/api/v1/submissions", json=body)
        assert answer.status_code == 202, answer.text
        assert len(statements) <= 3, statements
    student2 = client_of(app, "bob")
    statements.clear()
    answer = student2.post("/api/v1/submissions", json={**SOURCE, "problem": "b", "contest": contest_id})
    assert answer.status_code == 202, answer.text
    # a student's contest submission also keeps its scoreboard cell (judge.board.refresh)
    kept = [sql for sql in statements if "board" in sql]
    assert kept and len(statements) - len(kept) <= 4, statements
    assert student2.get(answer.json()["url"]).json()["letter"] == "B"
    with app.state.sessions() as s:
        cell = s.get(BoardCell, (contest_id, student2.user_id, "pc"))
        assert cell is not None and cell.live_pending == 1  # the pending attempt shows at once


def test_a_token_ended_through_another_process_is_refused_at_once(database_url, tmp_path, cheap_hashes):
    one, two = make_app(database_url, tmp_path), make_app(database_url, tmp_path)  # two processes
    with one.state.sessions() as s:
        add_problems(s, "pa")
    admin = client_of(one, "root", "admin")
    ann = client_of(one, "ann")
    ann_elsewhere = TestClient(two, headers=dict(ann.headers))
    assert ann_elsewhere.post("/api/v1/submissions", json=SOURCE).status_code == 202

    assert admin.post("/api/v1/users/ann/password").status_code == 200  # a new password ends its tokens
    refused = ann_elsewhere.post("/api/v1/submissions", json=SOURCE)
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"

    _, headers = make_account(one, "bob")
    bob_elsewhere = TestClient(two, headers=headers)
    assert bob_elsewhere.post("/api/v1/submissions", json=SOURCE).status_code == 202
    assert TestClient(one, headers=headers).post("/api/v1/auth/logout").status_code == 204
    assert bob_elsewhere.post("/api/v1/submissions", json=SOURCE).status_code == 401

    _, headers = make_account(one, "cy")
    cy_elsewhere = TestClient(two, headers=headers)
    assert admin.post("/api/v1/users/cy/deactivate").status_code == 200
    assert cy_elsewhere.post("/api/v1/submissions", json=SOURCE).status_code == 401
    with one.state.sessions() as s:
        joined = "users u LEFT JOIN submissions s ON s.user_id = u.id"
        counts = dict(s.execute(text(f"SELECT u.name, count(s.id) FROM {joined} GROUP BY u.name")).all())
    assert counts == {"root": 0, "ann": 1, "bob": 1, "cy": 0}


def test_the_rate_limit_counts_submissions_through_every_process(database_url, tmp_path, cheap_hashes):
    one, two = make_app(database_url, tmp_path, 60), make_app(database_url, tmp_path, 60)
    with one.state.sessions() as s:
        add_problems(s, "pa")
    ann = client_of(one, "ann")
    assert ann.post("/api/v1/submissions", json=SOURCE).status_code == 202
    again = TestClient(two, headers=dict(ann.headers)).post("/api/v1/submissions", json=SOURCE)
    assert again.status_code == 429 and 55 <= int(again.headers["Retry-After"]) <= 60
    teacher = client_of(one, "tess", "teacher")  # the jury is not limited
    for client in (teacher, TestClient(two, headers=dict(teacher.headers))):
        assert client.post("/api/v1/submissions", json=SOURCE).status_code == 202


def test_cases_left_to_the_rules_get_the_rules_answers(app):
    ann = client_of(app, "ann")
    now = utcnow()
    make_account(app, "tess", "teacher")
    with app.state.sessions() as s:
        running = make_contest(s, ("pb",), start=now - timedelta(minutes=5)).id
        make_contest(s, ("pc",), start=now + timedelta(hours=1), name="Later")
        others = make_contest(
            s, ("pa",), start=now - timedelta(minutes=5), participants=["tess"], scoreboard_visibility="public"
        ).id
        s.add(Worker(id="w1", host="h", languages=["cpp"], last_heartbeat=now))
        s.commit()
    assert ann.post("/api/v1/submissions", json=SOURCE).status_code == 422  # no live worker judges python3
    with app.state.sessions() as s:
        s.get(Worker, "w1").languages = ["cpp", "python3"]
        s.commit()
    teacher = TestClient(app, headers=make_account(app, "tim", "teacher")[1])
    statements = counted(app)
    assert teacher.post("/api/v1/submissions", json=SOURCE).status_code == 202
    assert len(statements) <= 3, statements  # the live worker's languages were read in the INSERT
    # practice on a running contest's problem (locked), on a problem of a contest yet to start (hidden)
    assert ann.post("/api/v1/submissions", json={**SOURCE, "problem": "pb"}).status_code == 403
    assert ann.post("/api/v1/submissions", json={**SOURCE, "problem": "pc"}).status_code == 404
    # in a contest: by problem id instead of letter (the rules accept it), then as a non-participant who sees it
    by_id = ann.post("/api/v1/submissions", json={**SOURCE, "problem": "pb", "contest": running})
    assert by_id.status_code == 202, by_id.text
    outsider = ann.post("/api/v1/submissions", json={**SOURCE, "problem": "A", "contest": others})
    assert outsider.status_code == 403
    # practice on a running contest's problem it takes no part in: accepted, as before
    assert ann.post("/api/v1/submissions", json=SOURCE).status_code == 429  # the rate limit first…
    with app.state.sessions() as s:
        s.execute(text("UPDATE users SET last_submission_at = NULL"))
        s.commit()
    assert ann.post("/api/v1/submissions", json=SOURCE).status_code == 202
    assert ann.post("/api/v1/submissions", json={**SOURCE, "source": " "}).status_code == 422  # before the limit


def test_polling_answers_304_until_the_submission_changes(app):
    ann = client_of(app, "ann")
    first = ann.post("/api/v1/submissions", json=SOURCE).json()["id"]
    with app.state.sessions() as s:
        s.execute(text("UPDATE users SET last_submission_at = NULL"))
        s.commit()
    second = ann.post("/api/v1/submissions", json={**SOURCE, "problem": "pb"}).json()["id"]
    url = f"/api/v1/submissions/{second}"
    answer = ann.get(url)
    assert answer.status_code == 200 and answer.json()["queue_position"] == 1  # behind the first
    tag = answer.headers["ETag"]
    unchanged = ann.get(url, headers={"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged.headers["ETag"] == tag
    assert ann.get(url, headers={"If-None-Match": f'"other", W/{tag}'}).status_code == 304
    assert ann.get(url, headers={"If-None-Match": '"other"'}).status_code == 200

    with app.state.sessions() as s:  # a worker takes the first one: the second moves up
        claim = lifecycle.claim(s, "w1", 60)
        assert claim is not None and claim.submission_id == first
    moved = ann.get(url, headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.json()["queue_position"] == 0
    assert moved.headers["ETag"] != tag
    tag = moved.headers["ETag"]
    assert ann.get(url, headers={"If-None-Match": tag}).status_code == 304
    with app.state.sessions() as s:
        claim = lifecycle.claim(s, "w1", 60)
        assert claim is not None and claim.submission_id == second
    judging = ann.get(url, headers={"If-None-Match": tag})
    assert judging.status_code == 200 and judging.json()["status"] == "judging"
    assert judging.json()["queue_position"] is None
    tag = judging.headers["ETag"]

    statements = counted(app)  # a 304 is answered without reading the results themselves
    assert ann.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert not any("ORDER BY test_results" in statement for statement in statements)
    with app.state.sessions() as s:  # a test's result is stored
        assert lifecycle.store_tests(s, claim, "w1", [_result(1)])
    tested = ann.get(url, headers={"If-None-Match": tag})
    assert tested.status_code == 200 and [r["verdict"] for r in tested.json()["results"]] == ["AC"]
    assert tested.headers["ETag"] != tag
    tag = tested.headers["ETag"]
    again = ann.get(url)  # the same state, asked afresh: the same bytes under the same tag
    assert again.headers["ETag"] == tag and again.content == tested.content
    assert ann.get(url, headers={"If-None-Match": tag}).status_code == 304
    with app.state.sessions() as s:  # the verdict is stored
        finish_claimed(s, claim, "w1", "AC", [])
    done = ann.get(url, headers={"If-None-Match": tag})
    assert done.status_code == 200 and done.json()["verdict"] == "AC" and done.headers["ETag"] != tag
    assert ann.get(url, headers={"If-None-Match": done.headers["ETag"]}).status_code == 304


def _result(ordinal: int) -> dict:
    return dict(ordinal=ordinal, test_name=f"t{ordinal}", test_group="secret", verdict="AC", time_ms=5, wall_ms=6)


def test_a_batch_shares_one_commit_and_each_submission_keeps_its_own_answer(app):
    """``accept_batch``: the submissions that break no rule are stored by one commit; a refusal after
    its slot was taken (an unknown problem) is undone alone, first in the batch or after one that
    was written, and leaves its student's slot free; a student's second submission of the batch
    gets the rate limit's 429; a dead token gets None; each refusal is the rules' own."""
    from judge.accept import SubmitRequest, accept_batch
    from judge.contests import ContestRuleError

    tokens = {name: client_of(app, name).headers["Authorization"].split()[1] for name in ("ann", "bob", "eve", "dee")}
    with app.state.sessions() as s:
        contest_id = make_contest(s, ("pb",), start=utcnow() - timedelta(minutes=5)).id
    commits: list[object] = []
    event.listen(app.state.engine, "commit", commits.append)

    def sent(name: str, problem: str = "pa", source: str = "print(1)\n", contest: int | None = None):
        return SubmitRequest(tokens.get(name, "no-such-token"), problem, "python3", source, contest)

    batch = [
        sent("nobody"),
        sent("bob", "nope"),  # first to take a slot: nothing written before it
        sent("ann"),
        sent("ann"),
        sent("bob"),
        sent("eve", source=" "),
        sent("eve", "nope"),  # after a written one: its savepoint is rolled back
        sent("eve"),
        sent("dee", "A", contest=contest_id),
    ]
    with app.state.sessions() as s:
        outcomes = accept_batch(s, app.state.settings, batch)
    assert len(commits) == 1
    assert outcomes[0] is None
    refusals = {i: (o.status, o.message) for i, o in enumerate(outcomes) if isinstance(o, ContestRuleError)}
    assert {i: status for i, (status, _) in refusals.items()} == {1: 404, 3: 429, 5: 422, 6: 404}
    stored = [i for i, o in enumerate(outcomes) if isinstance(o, int)]
    assert stored == [2, 4, 7, 8]
    with app.state.sessions() as s:
        rows = s.execute(text("SELECT s.id, u.name, s.problem_id FROM submissions s JOIN users u ON u.id = s.user_id"))
        assert sorted(rows.all()) == sorted(
            (outcomes[i], name, problem)
            for i, name, problem in [(2, "ann", "pa"), (4, "bob", "pa"), (7, "eve", "pa"), (8, "dee", "pb")]
        )
        cell = s.get(BoardCell, (contest_id, s.scalar(text("SELECT id FROM users WHERE name = 'dee'")), "pb"))
        assert cell is not None and cell.live_pending == 1
