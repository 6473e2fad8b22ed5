"""Findings of the hostile review: numbers typed into paths, queries and forms. ``str.isdigit`` takes
``"²"`` (and other Unicode digits ``int`` refuses) and ``int`` refuses a text of over 4300 digits;
each such field gave a 500. Every one is read by ``judge.schemas.whole_number`` and answered 4xx."""

from __future__ import annotations

import base64

import pytest
from fastapi.testclient import TestClient

from judge.contests import ContestRuleError, letters_for
from judge.schemas import whole_number
from tests.web import test_teacher_http as teacher_pages

app = teacher_pages.app  # the fixture: lee and queens, the teachers tess and tom, the students ana and bob
ODD_NUMBERS = ["²", "1²", "9" * 5000]


def test_whole_number_reads_ascii_digits_within_the_bound_only():
    assert whole_number("42") == 42 and whole_number("0") == 0
    assert whole_number("²") is None and whole_number("٣") is None  # Unicode digits
    assert whole_number("9" * 5000) is None and whole_number(str(2**31)) is None
    assert whole_number("1000", 1000) == 1000 and whole_number("1001", 1000) is None
    assert whole_number("") is None and whole_number("-1") is None and whole_number(" 1") is None


def teacher(app) -> TestClient:
    """tess, signed in, answering 500s instead of raising them (``client.csrf``: the form token)."""
    signed = teacher_pages.signed_in(app, "tess")
    client = TestClient(app, raise_server_exceptions=False)
    client.cookies = signed.cookies
    client.csrf = signed.csrf
    return client


@pytest.mark.parametrize("odd", ODD_NUMBERS)
def test_odd_numbers_in_paths_and_queries_are_refused_not_500(app, odd):
    tess = teacher(app)
    contest = teacher_pages.contest_of(app, "tess")
    auth = {"Authorization": "Basic " + base64.b64encode(f"tess:{teacher_pages.PASSWORD}".encode()).decode()}
    for path in (f"/api/ccs/contests/{odd}", f"/api/ccs/contests/{odd}/problems"):
        assert tess.get(path, headers=auth).status_code == 404
    assert tess.get(f"/api/ccs/contests/{contest}/submissions/{odd}/files", headers=auth).status_code == 404
    feed = tess.get(f"/api/ccs/contests/{contest}/event-feed", params={"since_token": f"{odd[:30]}-x"}, headers=auth)
    assert feed.status_code == 400
    listing = tess.get("/teacher/submissions", params={"contest": odd})
    assert listing.status_code == 200 and "a contest number" in listing.text
    assert tess.get("/teacher/rejudged", params={"s": f"{odd}:AC"}).status_code == 200
    submitted = tess.post(
        "/submit",
        data={"csrf_token": tess.csrf, "problem": "A", "contest": odd, "language": "python3", "source": "print(1)"},
    )
    assert 400 <= submitted.status_code < 500


@pytest.mark.parametrize("odd", ODD_NUMBERS)
@pytest.mark.parametrize("field", ["points", "penalty_minutes"])
def test_odd_numbers_in_the_contest_form_are_answered_on_the_form(app, odd, field):
    tess = teacher(app)
    answer = tess.post("/teacher/contests", data=teacher_pages.contest_form(tess) | {field: odd})
    assert answer.status_code == 422
    assert "a whole number" in answer.text


@pytest.mark.parametrize("odd", ODD_NUMBERS)
def test_odd_points_in_a_problem_list_are_a_rule_refusal(odd):
    with pytest.raises(ContestRuleError):
        letters_for([f"lee:{odd}"])
