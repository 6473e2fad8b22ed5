"""Findings of the hostile review of the browser pages: what a page links to or redirects to, and
what it shows to whom."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web import test_teacher_http as teacher_pages
from tests.web.test_teacher_http import contest_of, signed_in

from .conftest import tess_contest

app = teacher_pages.app  # the fixture: lee and queens, the teachers tess and tom, the students ana and bob


def test_a_refusal_page_links_back_to_no_other_site_through_a_referer_path(app):
    tess = signed_in(app, "tess")
    foreign = contest_of(app, "tom")  # not tess's: a 404 refusal page
    for path in ("//evil.example/x", "/\\evil.example/x"):
        answer = tess.get(f"/teacher/contests/{foreign}", headers={"referer": f"http://testserver{path}"})
        assert answer.status_code == 404
        assert "evil.example" not in answer.text
        assert "Back to the page you came from" not in answer.text
    own = tess.get(f"/teacher/contests/{foreign}", headers={"referer": "http://testserver/teacher/contests?x=1"})
    assert 'href="/teacher/contests?x=1"' in own.text  # a page of this site is still linked


def test_sign_in_goes_on_to_no_other_site(app):
    client = TestClient(app)
    for target in ("//evil.example", "/\\evil.example", "https://evil.example"):
        assert "evil.example" not in client.get("/login", params={"next": target}).text


def test_the_public_board_shows_the_problems_once_the_contest_starts(app, monkeypatch):
    """The board's table is reused while ``scoreboard_fingerprint`` is unchanged: the start passing
    must change it, or the board (and its event stream) shows no problems until someone submits."""
    from datetime import timedelta

    from judge.clock import utcnow

    now = utcnow()
    contest = tess_contest(app, 1, {"A": "lee"}, scoreboard_visibility="public")
    client = TestClient(app)
    assert '<th scope="col" title' not in client.get(f"/contests/{contest}/scoreboard/table").text
    monkeypatch.setattr("judge.web.pages.utcnow", lambda: now + timedelta(minutes=2))
    assert (
        '<th scope="col" title="The mouse and the cheese">A</th>'
        in client.get(f"/contests/{contest}/scoreboard/table").text
    )


def test_the_public_board_follows_a_change_of_participants(app):
    """A teacher removing a student from the participants takes the student off the board at once,
    not at the next submission (the board's table is reused while ``scoreboard_fingerprint`` holds)."""
    from judge.clock import utcnow
    from judge.contests import edit_contest
    from judge.models import Contest

    contest = tess_contest(app, -1, {"A": "lee"}, participants=["ana", "bob"], scoreboard_visibility="public")
    client = TestClient(app)
    assert '<small class="muted">bob</small>' in client.get(f"/contests/{contest}/scoreboard/table").text
    with app.state.sessions() as session:
        edit_contest(session, session.get(Contest, contest), {"participants": ["ana"]}, utcnow())
    board = client.get(f"/contests/{contest}/scoreboard/table").text
    assert '<small class="muted">ana</small>' in board and '<small class="muted">bob</small>' not in board
