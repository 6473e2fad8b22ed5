"""A careless teacher at the command line: ``judge contest create`` with values past the calendar or
the database's integers gets a one-line error and creates nothing (it used to print an
OverflowError traceback, or store a penalty PostgreSQL cannot hold)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from judge.cli import app
from judge.models import Contest

from ..contests.conftest import add_problems
from ..contests.test_cli import cli_db  # noqa: F401 (a fixture: JUDGE_DATABASE_URL on a fresh SQLite file)

runner = CliRunner()


@pytest.fixture
def cli_session(cli_db):  # noqa: F811
    """A session on the CLI's database, with problem ``lee``."""
    add_problems(cli_db, "lee")
    return cli_db


@pytest.mark.parametrize(
    "options, words",
    [
        (["--problems", "lee:99999999999999999999"], "at most 1000000 points"),
        (["--start", "0001-01-01T00:00+14:00"], "between 1970 and 3000"),
        (["--start", "+99999999d"], "between 1970 and 3000"),
        (["--start", "1969-07-20T20:17Z"], "between 1970 and 3000"),
        (["--duration", "999999999999"], "after the year 3000"),
        (["--penalty", "99999999999999"], "less than or equal to 1000"),
        (["--duration", "0"], "--duration"),
        (["--freeze", "-5"], "--freeze"),
    ],
)
def test_out_of_range_contest_options_are_refused_with_a_message(cli_session, options, words):
    args = ["contest", "create", "Lab", "--problems", "lee", *options]
    result = runner.invoke(app, args)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2), result.output
    assert words in result.output, result.output  # one line: never wrapped
    assert cli_session.scalar(select(func.count()).select_from(Contest)) == 0


def test_the_largest_accepted_values_make_a_contest(cli_session):
    result = runner.invoke(
        app,
        [
            "contest",
            "create",
            "Lab",
            "--problems",
            "lee:1000000",
            "--penalty",
            "1000",
            "--start",
            "2999-01-01T00:00Z",
            "--duration",
            "60",
            "--scoring",
            "ioi",
        ],
    )
    assert result.exit_code == 0, result.output
    contest = cli_session.scalars(select(Contest)).one()
    assert (contest.penalty_minutes, contest.problems[0].points, contest.start_at.year) == (1000, 1_000_000, 2999)


@pytest.mark.parametrize(
    "content, words",
    [
        (b"name,display name\nana,\xc1na Pop\n", "not UTF-8"),
        (b"name,display name\nana,Ana\x00Pop\n", "NUL"),
        (b"name,display name\nana," + b"A" * 140_000 + b"\n", "line 2: not CSV"),
    ],
)
def test_a_class_file_that_cannot_be_stored_imports_nobody(cli_db, tmp_path, content, words):  # noqa: F811
    (tmp_path / "class.csv").write_bytes(content)
    result = runner.invoke(app, ["user", "import", str(tmp_path / "class.csv")])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and words in result.output, result.output
    assert runner.invoke(app, ["user", "list"]).output.strip() == ""


@pytest.mark.parametrize(
    "args",
    [
        ["contest", "scoreboard", "99999999999999999999"],
        ["contest", "grades", "99999999999999999999"],
        ["contest", "unfreeze", "99999999999999999999"],
        ["contest", "rejudge", "99999999999999999999"],
        ["contest", "rejudge", "1", "--submission", "99999999999999999999"],
    ],
)
def test_ids_past_the_database_range_are_not_found(cli_session, args):
    runner.invoke(app, ["contest", "create", "Lab", "--problems", "lee"])
    result = runner.invoke(app, args)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and "no " in result.output, result.output
