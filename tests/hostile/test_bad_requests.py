"""Hostile and careless requests get a clear 4xx with a message: never a 500, never stored garbage.

Each test sends what a student or a teacher could type or script: ids past the database's integer
range, lone UTF-16 surrogates and NUL characters (PostgreSQL refuses NUL in text; a lone surrogate
has no UTF-8 form), times an offset pushes out of the calendar, wrong JSON types, fields the server
must ignore, bodies over the size limit sent without Content-Length. The database-facing ones run on
SQLite and PostgreSQL (``any_db_app``).
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from judge.models import Contest, Submission, User

from ..contests.conftest import add_problems
from .conftest import client_of

JSON = {"content-type": "application/json"}
BEYOND_SQLITE = 2**70  # no 64-bit integer
BEYOND_POSTGRES = 2**31  # no 32-bit INTEGER
TOO_LARGE = "the request body is over 1048576 bytes (1 MiB), the most this address reads"
CONTEST = {
    "name": "Lab",
    "start_at": "2026-01-01T09:00:00Z",
    "end_at": "2026-01-01T11:00:00Z",
    "problems": [{"problem": "lee"}],
}


def _raw(client, method: str, url: str, text: str):
    """Send ``text`` as a JSON body byte for byte (``\\ud800`` stays a JSON escape)."""
    return client.request(method, url, content=text.encode("ascii"), headers=JSON)


def _no_constant(name: str):
    raise AssertionError(f"{name} is no JSON")


def _clear_4xx(reply, status: int | tuple[int, ...]) -> None:
    statuses = status if isinstance(status, tuple) else (status,)
    assert reply.status_code in statuses, (reply.status_code, reply.text[:300])
    strict = json.loads(reply.content.decode("utf-8"), parse_constant=_no_constant)  # UTF-8, strict JSON
    assert strict["detail"], reply.text  # with a reason


def test_ids_outside_the_database_range_are_refused_in_every_path(any_db_app):
    teacher, student = client_of(any_db_app, "tess", "teacher"), client_of(any_db_app, "ana")
    for bad_id in (BEYOND_POSTGRES, BEYOND_SQLITE, 0, -1):
        _refused_everywhere(teacher, student, bad_id)


def _refused_everywhere(teacher, student, bad_id: int) -> None:
    gets = [
        f"/api/v1/submissions/{bad_id}",
        f"/api/v1/submissions/{bad_id}/source",
        f"/api/v1/submissions/{bad_id}/events",
        f"/api/v1/contests/{bad_id}",
        f"/api/v1/contests/{bad_id}/scoreboard",
        f"/api/v1/contests/{bad_id}/scoreboard.csv",
        f"/api/v1/contests/{bad_id}/grades.csv",
        f"/api/v1/contests/{bad_id}/events",
        f"/api/v1/contests/{bad_id}/submissions",
    ]
    for client in (teacher, student):
        for url in gets:
            _clear_4xx(client.get(url), (404, 422))
    for url in (f"/api/v1/submissions/{bad_id}/rejudge", f"/api/v1/contests/{bad_id}/unfreeze"):
        _clear_4xx(teacher.post(url), (404, 422))
    _clear_4xx(teacher.post(f"/api/v1/contests/{bad_id}/rejudge", json={}), (404, 422))
    _clear_4xx(teacher.patch(f"/api/v1/contests/{bad_id}", json={"name": "x"}), (404, 422))
    body = {"contest": bad_id, "problem": "A", "language": "python3", "source": "print(1)"}
    _clear_4xx(student.post("/api/v1/submissions", json=body), (404, 422))


def test_the_contest_of_a_submission_must_be_a_json_integer(any_db_app):
    teacher, student = client_of(any_db_app, "tess", "teacher"), client_of(any_db_app, "ana")
    assert teacher.post("/api/v1/contests", json=CONTEST).json()["id"] == 1  # `true` and "1" would mean it
    for contest in (True, "1", 1.5, [1], {"id": 1}):
        reply = student.post(
            "/api/v1/submissions",
            json={"contest": contest, "problem": "A", "language": "python3", "source": "print(1)"},
        )
        _clear_4xx(reply, 422)
        assert reply.json()["detail"][0]["loc"][-1] == "contest"


SURROGATE = "\\ud800"  # as JSON spells it: one half of a UTF-16 pair, alone
HOSTILE_TEXT_BODIES = [
    ("POST", "/api/v1/submissions", '{"problem": "lee", "language": "python3", "source": "print(1) # %s"}'),
    ("POST", "/api/v1/submissions", '{"problem": "lee%s", "language": "python3", "source": "print(1)"}'),
    ("POST", "/api/v1/submissions", '{"problem": "lee", "language": "python3%s", "source": "print(1)"}'),
    ("POST", "/api/v1/users", '{"name": "zed", "display_name": "Zed %s"}'),
    ("POST", "/api/v1/users", '{"name": "zed", "password": "pw-%s"}'),
    ("POST", "/api/v1/users/import", '[{"name": "zed", "display_name": "%s"}]'),
    (
        "POST",
        "/api/v1/contests",
        '{"name": "Lab %s", "start_at": "2026-01-01T09:00:00Z", '
        '"end_at": "2026-01-01T11:00:00Z", "problems": [{"problem": "lee"}]}',
    ),
    (
        "POST",
        "/api/v1/contests",
        '{"name": "Lab", "start_at": "2026-01-01T09:00:00Z", '
        '"end_at": "2026-01-01T11:00:00Z", "problems": [{"problem": "lee%s"}]}',
    ),
    (
        "POST",
        "/api/v1/contests",
        '{"name": "Lab", "start_at": "2026-01-01T09:00:00Z", '
        '"end_at": "2026-01-01T11:00:00Z", '
        '"problems": [{"problem": "lee", "letter": "A%s"}]}',
    ),
    (
        "POST",
        "/api/v1/contests",
        '{"name": "Lab", "start_at": "2026-01-01T09:00:00Z", '
        '"end_at": "2026-01-01T11:00:00Z", "problems": [{"problem": "lee"}], '
        '"participants": ["ana%s"]}',
    ),
    ("PATCH", "/api/v1/contests/1", '{"participants": ["ana%s"]}'),
    ("PATCH", "/api/v1/contests/1", '{"name": "Lab %s"}'),
    ("POST", "/api/v1/contests/1/rejudge", '{"problem": "A%s"}'),
]


@pytest.mark.parametrize("bad", [SURROGATE, "\\u0000"], ids=["lone-surrogate", "NUL"])
def test_text_a_database_cannot_store_is_422_and_nothing_is_stored(any_db_app, bad):
    teacher = client_of(any_db_app, "tess", "teacher")
    student = client_of(any_db_app, "ana")
    assert teacher.post("/api/v1/contests", json=CONTEST).status_code == 201
    for method, url, template in HOSTILE_TEXT_BODIES:
        reply = _raw(student if url == "/api/v1/submissions" else teacher, method, url, template % bad)
        _clear_4xx(reply, 422)
    with any_db_app.state.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 0
        assert session.scalar(select(func.count()).select_from(Contest)) == 1
        assert session.scalar(select(func.count()).select_from(User)) == 2
        contest = session.get(Contest, 1)
        assert (contest.name, contest.all_students) == ("Lab", True)


def test_nul_in_a_path_or_a_login_name_is_a_plain_miss(any_db_app):
    anonymous = client_of(any_db_app)
    _clear_4xx(anonymous.get("/api/v1/problems/lee%00"), 404)
    reply = anonymous.post("/api/v1/auth/token", data={"username": "ana\x00", "password": "x"})
    _clear_4xx(reply, 401)


def test_contest_times_outside_the_calendar_are_422(any_db_app):
    teacher = client_of(any_db_app, "tess", "teacher")
    assert teacher.post("/api/v1/contests", json=CONTEST).status_code == 201
    for moment in (
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "3000-01-01T00:00:00Z",
        "1969-12-31T23:59:59Z",
    ):
        _clear_4xx(teacher.post("/api/v1/contests", json={**CONTEST, "start_at": moment}), 422)
        _clear_4xx(teacher.post("/api/v1/contests", json={**CONTEST, "end_at": moment}), 422)
        _clear_4xx(teacher.patch("/api/v1/contests/1", json={"freeze_at": moment}), 422)
    assert teacher.get("/api/v1/contests/1").json()["freeze_at"] is None
    assert [c["id"] for c in teacher.get("/api/v1/contests").json()] == [1]


def test_a_time_with_an_offset_is_stored_as_utc(any_db_app):
    teacher = client_of(any_db_app, "tess", "teacher")
    body = {**CONTEST, "start_at": "2026-01-01T11:00:00+02:00", "end_at": "2026-01-01T08:00:00-03:00"}
    created = teacher.post("/api/v1/contests", json=body).json()
    assert (created["start_at"], created["end_at"]) == ("2026-01-01T09:00:00Z", "2026-01-01T11:00:00Z")


def test_ioi_points_beyond_any_sensible_total_are_422(any_db_app):
    teacher = client_of(any_db_app, "tess", "teacher")
    for points in (BEYOND_POSTGRES, BEYOND_SQLITE, 0, -5):
        body = {**CONTEST, "scoring": "ioi", "problems": [{"problem": "lee", "points": points}]}
        _clear_4xx(teacher.post("/api/v1/contests", json=body), 422)
    assert teacher.get("/api/v1/contests").json() == []


@pytest.mark.parametrize("name", ["zed\n", "zed\r\n", " zed", "zed ", "ze d", "zéd", "-zed", ""])
def test_a_user_name_that_is_not_exactly_a_login_name_is_refused(api_app, name):
    teacher = client_of(api_app, "tess", "teacher")
    _clear_4xx(teacher.post("/api/v1/users", json={"name": name, "password": "pw-12345"}), 422)
    assert [u["name"] for u in teacher.get("/api/v1/users").json()] == ["tess"]


def test_a_contest_cannot_be_patched_to_have_no_problems(api_app):
    teacher = client_of(api_app, "tess", "teacher")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
    assert teacher.post("/api/v1/contests", json=CONTEST).status_code == 201
    _clear_4xx(teacher.patch("/api/v1/contests/1", json={"problems": []}), 422)
    assert [p["problem"] for p in teacher.get("/api/v1/contests/1").json()["problems"]] == ["lee"]


def test_a_body_streamed_without_content_length_past_the_limit_is_413(any_db_app):
    student = client_of(any_db_app, "ana")

    def chunks():  # 4 MiB in 64 KiB pieces: chunked transfer, no Content-Length to refuse up front
        yield b'{"problem": "lee", "language": "python3", "source": "'
        for _ in range(64):
            yield b"#" * 65536
        yield b'"}'

    reply = student.post("/api/v1/submissions", content=chunks(), headers=JSON)
    assert reply.status_code == 413, reply.text[:200]
    assert reply.json() == {"detail": TOO_LARGE + "; a source may be at most 65536 bytes"}
    with any_db_app.state.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 0


def test_a_body_over_the_limit_is_a_json_413_saying_the_limit(api_app):
    """Refused by its Content-Length before it is read, in the error form of the route it was sent to."""
    student = client_of(api_app, "ana")
    big = json.dumps({"problem": "lee", "language": "python3", "source": "#" * (2 << 20)})
    reply = student.post("/api/v1/submissions", content=big, headers=JSON)
    assert (reply.status_code, reply.headers["content-type"]) == (413, "application/json")
    assert reply.json() == {"detail": TOO_LARGE + "; a source may be at most 65536 bytes"}
    other = student.post("/api/v1/users", content=big, headers=JSON)
    assert (other.status_code, other.json()) == (413, {"detail": TOO_LARGE})
    ccs = student.post("/api/ccs/contests/1/submissions", content=big, headers=JSON)
    assert (ccs.status_code, ccs.json()) == (413, {"code": 413, "message": TOO_LARGE})


MALFORMED_SUBMISSIONS = [
    b"{bad json",
    b"null",
    b"[1, 2]",
    b'"text"',
    b"{" * 100_000,
    b"[" * 100_000,
    b"\xff\xfe\x00garbage",
    b'{"problem": 5, "language": "python3", "source": "x"}',
    b'{"problem": "lee", "language": ["python3"], "source": "x"}',
    b'{"problem": "lee", "language": "python3", "source": {"a": 1}}',
    b'{"problem": "lee", "language": "python3", "source": null}',
    b'{"problem": "lee", "language": "python3"}',
    b'{"problem": "lee", "language": "python3", "source": "x", "contest": 1e999}',
    b'{"problem": "lee", "language": "python3", "source": "x", "contest": NaN}',
]


def test_malformed_or_mistyped_submissions_are_4xx(any_db_app):
    student = client_of(any_db_app, "ana")
    for body in MALFORMED_SUBMISSIONS:
        _clear_4xx(student.post("/api/v1/submissions", content=body, headers=JSON), (400, 422))
    assert student.get("/api/v1/submissions").json() == []


def test_fields_a_student_may_not_set_are_refused(any_db_app):
    """A body field the API does not define is a 422 naming it, never silently dropped, and nothing is stored."""
    student, other = client_of(any_db_app, "ana"), client_of(any_db_app, "ben")
    body = {
        "problem": "lee",
        "language": "python3",
        "source": "print(1)",
        "verdict": "AC",
        "status": "done",
        "is_jury": True,
        "user_id": other.user_id,
        "priority": -100,
        "attempt": 99,
    }
    refused = student.post("/api/v1/submissions", json=body)
    assert refused.status_code == 422 and "verdict" in refused.text and "is_jury" in refused.text
    with any_db_app.state.sessions() as session:
        assert session.query(Submission).count() == 0
    reply = student.post("/api/v1/submissions", json={k: body[k] for k in ("problem", "language", "source")})
    assert reply.status_code == 202, reply.text
    with any_db_app.state.sessions() as session:
        row = session.get(Submission, reply.json()["id"])
        assert (row.status, row.verdict, row.is_jury, row.user_id, row.attempt) == (
            "queued",
            None,
            False,
            student.user_id,
            0,
        )
        assert row.priority >= 0


@pytest.mark.parametrize(
    "header", ["Bearer " + "x" * 5000, "Bearer", "Basic YW5hOnB3", "Bearer a b c", "Bearer \u00e9\u00e9"]
)
def test_garbage_bearer_tokens_are_401(api_app, header):
    client = client_of(api_app)
    reply = client.get("/api/v1/auth/me", headers={"Authorization": header.encode("latin-1")})
    _clear_4xx(reply, 401)


def test_the_token_of_a_deleted_account_is_refused(api_app):
    student = client_of(api_app, "ana")
    assert student.get("/api/v1/auth/me").status_code == 200
    with api_app.state.sessions() as session:
        session.delete(session.get(User, student.user_id))
        session.commit()
    _clear_4xx(student.get("/api/v1/auth/me"), 401)


def test_other_methods_on_every_route_are_405_not_500(api_app):
    teacher = client_of(api_app, "tess", "teacher")
    for route in api_app.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api/"):
            continue
        url = path.replace("{submission_id}", "1").replace("{contest_id}", "1").replace("{problem_id}", "lee")
        for method in {"PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"} - set(route.methods):
            reply = teacher.request(method, url)
            assert reply.status_code == 405, (method, url, reply.status_code)


def test_lists_longer_than_a_class_are_422(any_db_app):
    """70,000 participant names fit in a 1 MiB body but not in one PostgreSQL statement (65,535
    parameters at most): they gave a 500 there."""
    teacher = client_of(any_db_app, "tess", "teacher")
    crowd = [f"x{i}" for i in range(70_000)]
    _clear_4xx(teacher.post("/api/v1/contests", json={**CONTEST, "participants": crowd}), 422)
    _clear_4xx(teacher.post("/api/v1/contests", json={**CONTEST, "problems": [{"problem": "lee"}] * 101}), 422)
    _clear_4xx(teacher.post("/api/v1/users/import", json=[{"name": f"u{i}"} for i in range(2001)]), 422)
    _clear_4xx(teacher.post("/api/v1/contests", json={**CONTEST, "participants": crowd[:5000]}), 404)  # no such users
    assert teacher.get("/api/v1/contests").json() == []


def test_wrong_query_parameters_content_types_and_long_strings_are_4xx(api_app):
    student = client_of(api_app, "ana")
    for url in (
        "/api/v1/submissions?limit=abc",
        "/api/v1/submissions?limit=-5",
        f"/api/v1/submissions?limit={2**70}",
        "/api/v1/submissions/1/events?poll=nan",
        "/api/v1/submissions/1/events?max_seconds=inf",
        "/api/v1/submissions/1/events?poll=0",
        "/api/v1/contests/1/events?poll=1e309",
    ):
        _clear_4xx(student.get(url), 422)
    body = '{"problem": "lee", "language": "python3", "source": "print(1)"}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        _clear_4xx(student.post("/api/v1/submissions", content=body, headers={"content-type": content_type}), 422)
    for field in ("problem", "language"):
        long = {"problem": "lee", "language": "python3", "source": "print(1)", field: "x" * 100_000}
        _clear_4xx(student.post("/api/v1/submissions", json=long), 422)
    assert student.get("/api/v1/submissions").json() == []
