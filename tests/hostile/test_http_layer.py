"""The HTTP layer holds against a student's scripts: deeply nested JSON in any body, wrong methods,
login guessing, many event streams at once. Each refusal is a short 4xx (429 with ``Retry-After``),
never a 500 or a traceback in the log."""

from __future__ import annotations

import logging
import time
from contextlib import ExitStack

import pytest
from fastapi import params
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from judge.api.json_depth import MAX_JSON_DEPTH, DepthScanner
from judge.clock import utcnow
from judge.throttle import LoginThrottle

from ..contests.conftest import add_problems, make_contest
from .conftest import client_of

JSON = {"content-type": "application/json"}


def _json_routes(app) -> list[tuple[str, str]]:
    """(method, path) of every route that reads a JSON body, path ids filled with 1."""
    found = []
    for route in app.state.routes:
        if route.body_field is not None and not isinstance(route.body_field.field_info, params.Form):
            for method in route.methods:
                found.append((method, route.path.replace("{contest_id}", "1").replace("{submission_id}", "1")))
    return found


def test_every_json_body_nested_600_levels_deep_is_a_short_422(api_app, caplog):
    """A 1.2 KB body of 600 nested arrays once gave a 500 and about 135 KB of traceback per request."""
    teacher = client_of(api_app, "tess", "teacher")
    routes = _json_routes(api_app)
    assert len(routes) >= 6  # submissions, users, users/import, contests (POST, PATCH), rejudges
    bodies = ["[" * 600 + "]" * 600, '{"problem": ' + "{" * 600 + "}" * 600 + "}", "[" * 100_000]
    with caplog.at_level(logging.DEBUG):
        for method, path in routes:
            for body in bodies:
                reply = teacher.request(method, path, content=body, headers=JSON)
                assert reply.status_code == 422, (method, path, reply.text[:200])
                assert len(reply.content) < 200 and "nested deeper" in reply.json()["detail"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_body_at_the_depth_limit_is_parsed_and_brackets_in_strings_do_not_count(api_app):
    add_problems_to(api_app)
    student = client_of(api_app, "ana")
    source = 'print("' + "[{" * 5000 + '\\"[")  # \\\\ ' + "]" * 50
    reply = student.post("/api/v1/submissions", json={"problem": "basic", "language": "python3", "source": source})
    assert reply.status_code == 202, reply.text
    assert student.get(f"/api/v1/submissions/{reply.json()['id']}/source").json()["source"] == source
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH  # valid JSON, the wrong type: FastAPI's own 422
    reply = student.post("/api/v1/submissions", content=at_limit, headers=JSON)
    assert reply.status_code == 422 and "nested deeper" not in reply.text


def add_problems_to(app) -> None:
    with app.state.sessions() as session:
        add_problems(session, "basic")


@pytest.mark.parametrize(
    "text, depth",
    [
        (b'{"a": [1, {"b": "]]]]"}]}', 3),
        (b'["\\\\", ["x"]]', 2),  # an escaped backslash ends before the quote
        (b'["\\"[[[[", []]', 2),  # an escaped quote keeps the string open
        (b'"\\u005b" [[', 2),
    ],
)
def test_the_depth_scanner_reads_strings_and_escapes_in_any_chunking(text, depth):
    for size in (1, 2, 3, len(text)):
        scanner = DepthScanner(limit=depth)
        for start in range(0, len(text), size):
            scanner.feed(text[start : start + size])
        over = DepthScanner(limit=depth - 1)
        with pytest.raises(Exception, match="nested deeper"):
            for start in range(0, len(text), size):
                over.feed(text[start : start + size])


def test_405_names_every_method_the_path_takes(api_app):
    teacher = client_of(api_app, "tess", "teacher")
    by_path: dict[str, set[str]] = {}
    for route in api_app.state.routes:
        if isinstance(route, APIRoute):
            by_path.setdefault(route.path, set()).update(route.methods)
    assert by_path["/api/v1/contests/{contest_id}"] == {"DELETE", "GET", "PATCH"}  # three routes, one path
    for path, methods in by_path.items():
        concrete = path.replace("{contest_id}", "1").replace("{submission_id}", "1").replace("{problem_id}", "x")
        reply = teacher.request("PUT", concrete)
        assert reply.status_code == 405, path
        assert set(reply.headers["allow"].split(", ")) == methods, path


def _log_in(client: TestClient, name: str, password: str):
    return client.post("/api/v1/auth/token", data={"username": name, "password": password})


def test_guessing_a_password_is_throttled_without_locking_the_owner_out_for_good(api_app):
    """220 wrong passwords in a row were all answered and the right one still worked at once."""
    clock = [1000.0]
    api_app.state.logins = LoginThrottle(
        api_app.state.sessions, per_account=5, per_address=30, window_s=300, clock=lambda: clock[0]
    )
    client = client_of(api_app)
    client_of(api_app, "ana")  # password pw-xxxxxxxx (tests/conftest.make_account)
    answers = [_log_in(client, "ana", f"guess{i}").status_code for i in range(220)]
    assert answers[:5] == [401] * 5 and set(answers[5:]) == {429}
    refused = _log_in(client, "ana", "pw-" + "x" * 8)  # even the right one, for now
    assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 300
    clock[0] += 301  # the window passes: the owner gets in, and that clears the account's count
    assert _log_in(client, "ana", "pw-" + "x" * 8).status_code == 200
    assert [_log_in(client, "ana", "bad").status_code for _ in range(5)] == [401] * 5


def test_one_address_guessing_many_accounts_is_throttled(api_app):
    api_app.state.logins = LoginThrottle(api_app.state.sessions, per_account=5, per_address=30, window_s=300)
    client = client_of(api_app)
    answers = [_log_in(client, f"user{i}", "guess").status_code for i in range(40)]
    assert answers[:30] == [401] * 30 and set(answers[30:]) == {429}


def test_fifty_streams_of_one_student_polling_every_50_ms_get_the_cap_and_the_floor(any_db_app, monkeypatch):
    """One student opened 50 streams with ``poll=0.05`` and took most of a core; anonymous streams on
    a public board likewise. Now: the defaults, 4 per account, 8 per address without a token, 1 s."""
    import httpx

    import judge.events
    from judge.config import Settings

    from .conftest import served

    defaults = {name: Settings.model_fields[name].default for name in ("max_streams_per_user", "min_poll_s")}
    any_db_app.state.settings = any_db_app.state.settings.model_copy(update=defaults)
    polls: list[float] = []
    real_stream = judge.events.stream

    def recording(feed, sessions, poll_s, *args):
        polls.append(poll_s)
        return real_stream(feed, sessions, poll_s, *args)

    monkeypatch.setattr(judge.events, "stream", recording)
    with any_db_app.state.sessions() as session:
        contest = make_contest(session, problems=["lee"], start=utcnow(), scoreboard_visibility="public")
    student = client_of(any_db_app, "ana")
    path = f"/api/v1/contests/{contest.id}/events"
    with served(any_db_app) as url, ExitStack() as held:
        client = held.enter_context(httpx.Client(base_url=url, timeout=20, headers=student.headers))
        opened = [held.enter_context(client.stream("GET", path, params={"poll": 0.05})) for _ in range(50)]
        assert [r.status_code for r in opened] == [200] * 4 + [429] * 46
        assert all(int(r.headers["retry-after"]) > 0 for r in opened[4:])
        opened[0].close()  # one closed: its slot is free again once the server sees it
        deadline = time.monotonic() + 10
        while any_db_app.state.streams.held(f"user:{student.user_id}") > 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        with client.stream("GET", path, params={"poll": 0.05, "max_seconds": 1}) as again:
            assert again.status_code == 200
        guest = held.enter_context(httpx.Client(base_url=url, timeout=20))
        anonymous = [held.enter_context(guest.stream("GET", path, params={"poll": 0.05})) for _ in range(50)]
        assert [r.status_code for r in anonymous] == [200] * 8 + [429] * 42
    assert polls and set(polls) == {1.0}  # every stream polls at the floor, not every 50 ms
