"""Findings of the hostile review whose fix lay outside the API's validation layer (rules in
``judge.contests``, accounts in ``judge.auth``), now fixed: practice submissions to a running
contest's problem, and user names ending in a newline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from judge.auth import AccountError, create_user, user_for_token
from judge.models import User, utcnow
from judge.throttle import LoginThrottle
from judge.users import add_accounts, parse_class_csv

from ..contests.conftest import add_problems, make_contest
from .conftest import client_of


def test_a_running_contests_problem_takes_no_practice_submissions_from_its_participants(api_app):
    ana, ben = client_of(api_app, "ana"), client_of(api_app, "ben")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
        make_contest(session, problems=["lee"], start=utcnow() - timedelta(minutes=5), participants=["ana"])
    body = {"problem": "lee", "language": "python3", "source": "print(1)"}  # no "contest": practice
    assert ana.post("/api/v1/submissions", json=body).status_code == 403  # a participant, dodging the penalty
    assert ben.post("/api/v1/submissions", json=body).status_code == 202  # not in the contest: practises it
    assert "running contest" in ana.post("/api/v1/submissions", json=body).json()["detail"]


def test_a_user_name_with_a_trailing_newline_is_no_name(api_app):
    with api_app.state.sessions() as session:
        with pytest.raises(AccountError):
            create_user(session, "zed\n", password="pw-12345")


def test_user_names_are_one_whatever_their_case_and_sign_in_ignores_it(api_app):
    admin = client_of(api_app, "root", "admin")
    made = admin.post("/api/v1/users", json={"name": "Alice", "password": "pw-alice-1"})
    assert made.status_code == 201, made.text
    for name in ("alice", "ALICE"):
        taken = admin.post("/api/v1/users", json={"name": name, "password": "pw-other-1"})
        assert taken.status_code == 409 and taken.json()["detail"] == (
            f"user {name} already exists as Alice (a user name is the same whatever its case)"
        )
    twins = admin.post("/api/v1/users/import", json=[{"name": "Bob"}, {"name": "bob"}])
    assert twins.status_code == 409 and "user bob already exists" in twins.json()["detail"]
    with api_app.state.sessions() as session:
        with pytest.raises(AccountError, match="already exists as Alice"):
            create_user(session, "aLiCe", password="pw-12345")
        assert session.scalars(select(User.name).where(User.name.in_(["Bob", "bob"]))).all() == []
    anonymous = client_of(api_app)
    for name in ("Alice", "alice", "ALICE"):  # the same account, however it is typed
        token = anonymous.post("/api/v1/auth/token", data={"username": name, "password": "pw-alice-1"})
        assert token.status_code == 200, token.text
        with api_app.state.sessions() as session:
            assert user_for_token(session, token.json()["access_token"]).name == "Alice"  # as it was created
    # and the failed sign-ins of every spelling count for the one account
    api_app.state.logins = LoginThrottle(api_app.state.sessions, per_account=5, per_address=30, window_s=300)
    for attempt in range(5):
        name = "alice" if attempt % 2 else "ALICE"
        assert anonymous.post("/api/v1/auth/token", data={"username": name, "password": "wrong"}).status_code == 401
    assert anonymous.post("/api/v1/auth/token", data={"username": "Alice", "password": "pw-alice-1"}).status_code == 429


def test_a_user_named_in_another_case_is_found_wherever_a_name_is_taken(api_app):
    """A teacher who types ``alice`` for the account ``Alice`` reaches it everywhere a name is
    taken (contest participants, a class's students, password slips), as at sign-in, and the
    account keeps the case it was created with."""
    alice = client_of(api_app, "Alice")
    tess = client_of(api_app, "tess", "teacher")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
    start = utcnow()
    contest = {"name": "Lab", "start_at": start.isoformat(), "end_at": (start + timedelta(hours=1)).isoformat()}
    made = tess.post(
        "/api/v1/contests", json=contest | {"problems": [{"problem": "lee"}], "participants": ["alice", "ALICE"]}
    )
    assert made.status_code == 201, made.text
    assert made.json()["participants"] == ["Alice"]  # one participant, named as created
    class_id = tess.post("/api/v1/classes", json={"name": "10A"}).json()["id"]
    added = tess.post(f"/api/v1/classes/{class_id}/students", json={"students": ["aLiCe"]})
    assert added.status_code == 200, added.text
    assert [s["name"] for s in tess.get(f"/api/v1/classes/{class_id}").json()["students"]] == ["Alice"]
    assert tess.delete(f"/api/v1/classes/{class_id}/students/ALICE").status_code == 204
    assert tess.get(f"/api/v1/classes/{class_id}").json()["students"] == []
    submitted = alice.post(
        "/api/v1/submissions",
        json={"problem": "A", "language": "python3", "source": "print(1)", "contest": made.json()["id"]},
    )
    assert submitted.status_code == 202, submitted.text


def test_a_class_csv_row_is_named_by_the_line_it_starts_on():
    """Lines as an editor numbers them: the header, blank lines and a quoted cell's own line count."""
    text = '\ufeffname,display name\n\nana,"Ana\nPop"\nbob,Bob\n , \ncid,\x00\n'
    with pytest.raises(AccountError, match="^line 7: holds a NUL character$"):
        parse_class_csv(text)
    accounts = parse_class_csv(text.replace("\x00", "Cid"))
    assert [(a.name, a.line) for a in accounts] == [("ana", 3), ("bob", 5), ("cid", 7)]


def test_a_display_name_over_200_characters_is_refused_not_cut(api_app):
    accounts = parse_class_csv("name,display name\nzoe,Zoe\nyan," + "Y" * 201 + "\n")
    with api_app.state.sessions() as session:
        with pytest.raises(AccountError, match="line 3: the display name is 201 characters long: at most 200"):
            add_accounts(session, accounts)
        with pytest.raises(AccountError, match="the display name is 100000 characters long"):
            create_user(session, "xia", display_name="X" * 100_000, password="pw-12345")
        create_user(session, "wu", display_name="W" * 200, password="pw-12345")  # the most is fine
        assert session.scalars(select(User.name).where(User.name.in_(["zoe", "yan", "xia"]))).all() == []
