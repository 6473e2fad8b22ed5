"""``judge clar``: a student asks, the teacher lists the waiting questions, answers one to everyone
and announces, over HTTP against a served API; what each one lists follows the access rules; user
text is printed as written (no markup, control characters shown) and the CSV is spreadsheet-safe;
refusals are one line and a non-zero exit."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.models import utcnow

from ..conftest import make_account
from ..hostile.conftest import served
from .conftest import add_problems, csv_rows, make_contest

runner = CliRunner()
QUESTION = "Is [bold]n[/bold] \x1b[2J at least 1? =HYPERLINK(1)"


@pytest.fixture
def live(api_app):
    """The API served over HTTP with a running contest of teacher ``tess`` (problems A, B) and the
    students ``ana`` and ``bob``; yields (URL, contest id, tokens by name)."""
    tokens = {}
    for name, role in (("tess", "teacher"), ("ana", "student"), ("bob", "student")):
        tokens[name] = make_account(api_app, name, role)[1]["Authorization"].removeprefix("Bearer ")
    with api_app.state.sessions() as session:
        add_problems(session, "pa", "pb")
        contest = make_contest(session, start=utcnow() - timedelta(minutes=5), owner="tess")
    with served(api_app) as url:
        yield url, contest.id, tokens


def clar(url: str, token: str, *args: str):
    result = runner.invoke(app, ["clar", "--server", url, "--token", token, *args])
    return result.exit_code, result.output


def test_ask_list_answer_announce_from_the_command_line(live):
    url, contest, tokens = live
    code, out = clar(url, tokens["ana"], "ask", str(contest), QUESTION, "--problem", "A")
    assert code == 0, out
    qid = int(out.split()[1])
    code, out = clar(url, tokens["bob"], "ask", str(contest), "bob's private question")
    assert code == 0, out
    bob_qid = int(out.split()[1])

    code, out = clar(url, tokens["tess"], "list", str(contest), "--waiting")
    assert code == 0 and "ana" in out and "bob's private question" in out and "(waiting)" in out
    assert "Is [bold]n[/bold] \\x1b[2J at least 1?" in out  # as written: no markup, the escape shown
    assert "\x1b" not in out

    assert clar(url, tokens["tess"], "answer", str(qid), "Yes, n >= 1.", "--public")[0] == 0
    assert clar(url, tokens["tess"], "answer", str(bob_qid), "Only for you, bob.")[0] == 0
    assert (
        clar(url, tokens["tess"], "announce", str(contest), "B: read the input to the end.", "--problem", "B")[0] == 0
    )
    code, out = clar(url, tokens["tess"], "list", str(contest), "--waiting")
    assert code == 0 and "ana" not in out and "bob" not in out

    code, out = clar(url, tokens["ana"], "list", str(contest))
    assert code == 0, out
    assert "Yes, n >= 1." in out and "B: read the input to the end." in out
    assert "bob's private question" not in out and "Only for you" not in out  # another student's, private
    code, out = clar(url, tokens["bob"], "list", str(contest))
    assert "Only for you, bob." in out and "Yes, n >= 1." in out and "you" in out

    result = runner.invoke(app, ["clar", "--server", url, "--token", tokens["tess"], "list", str(contest), "--csv"])
    rows = csv_rows(result.stdout_bytes.decode("utf-8"))
    assert rows[0] == ["id", "asked at", "problem", "asker", "question", "answer", "to", "answered at"]
    by_id = {row[0]: row for row in rows[1:]}
    assert by_id[str(qid)][2:4] + by_id[str(qid)][5:7] == ["A", "ana", "Yes, n >= 1.", "everyone"]
    assert by_id[str(qid)][4].startswith("Is [bold]n[/bold]") and "\x1b" not in by_id[str(qid)][4]  # no formula
    assert by_id[str(bob_qid)][6] == "asker"
    code, out = clar(url, tokens["ana"], "ask", str(contest), "=1+1", "--problem", "B")
    assert code == 1 and re.fullmatch(r"error: HTTP 429: one question every \d+ s: try again in \d+ s\n", out), out


def test_formula_text_is_quoted_in_the_csv(api_app, live):
    url, contest, tokens = live
    assert clar(url, tokens["ana"], "ask", str(contest), "=cmd|' /C calc'!A0")[0] == 0
    result = runner.invoke(app, ["clar", "--server", url, "--token", tokens["tess"], "list", str(contest), "--csv"])
    rows = csv_rows(result.stdout_bytes.decode("utf-8"))
    assert rows[1][4] == "'=cmd|' /C calc'!A0"


@pytest.mark.parametrize(
    "who, args, words",
    [
        ("bob", ["answer", "{q}", "no"], "HTTP 404: no clarification"),  # ana's, unseen
        ("tess", ["ask", "{c}", "a jury question"], "HTTP 403"),
        ("ana", ["announce", "{c}", "hello"], "HTTP 403"),
        ("ana", ["ask", "{c}", "   "], "the question is empty"),
        ("ana", ["ask", "{c}", "?", "--problem", "Q"], "has no problem"),
        ("bob", ["list", "99999"], "no contest 99999"),
    ],
)
def test_refusals_are_one_line_and_exit_1(live, who, args, words):
    url, contest, tokens = live
    code, out = clar(url, tokens["ana"], "ask", str(contest), "first")
    qid = out.split()[1]
    code, out = clar(url, tokens[who], *(a.format(q=qid, c=contest) for a in args))
    assert code == 1, out
    assert words in out and "Traceback" not in out


def test_without_a_login_or_a_server_the_command_says_so(live):
    url, contest, _ = live
    result = runner.invoke(app, ["clar", "--server", url, "list", str(contest)])
    assert result.exit_code == 2 and "--user" in result.output
    code, out = clar("http://127.0.0.1:9", "t0ken", "list", "1")
    assert code == 2 and "cannot reach" in out
