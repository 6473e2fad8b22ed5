"""The teacher's command line: accounts, a class import, a contest from creation to grades."""

from __future__ import annotations

import re
import shutil
from datetime import timedelta

import pytest
from argon2 import PasswordHasher, profiles
from sqlalchemy import select
from typer.testing import CliRunner

from judge.auth import authenticate
from judge.cli import app
from judge.db import make_engine, make_sessionmaker
from judge.models import Contest, Submission, User

from .conftest import add_problems, add_submission, csv_rows

runner = CliRunner()


@pytest.fixture
def cli_db(migrated_sqlite_file, tmp_path, monkeypatch):
    """JUDGE_DATABASE_URL pointing at a fresh migrated SQLite file; a session on it."""
    shutil.copyfile(migrated_sqlite_file, tmp_path / "judge.db")
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    monkeypatch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
    engine = make_engine(url)
    with make_sessionmaker(engine)() as session:
        yield session
    engine.dispose()


def judge(*args: str):
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def data(*args: str) -> str:
    """What the command wrote on standard output, line ends untouched (``output`` turns CRLF into LF)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout_bytes.decode("utf-8")


def test_user_add_prints_a_generated_password_that_logs_in(cli_db):
    code, out = judge("user", "add", "tess", "--role", "teacher", "--display-name", "Tess Teacher")
    assert code == 0, out
    password = re.search(r"tess\s+│\s+Tess Teacher\s+│\s+teacher\s+│\s+(\S+)", out).group(1)
    assert authenticate(cli_db, "tess", password).role == "teacher"
    assert judge("user", "add", "tess")[0] == 1  # the name is taken
    assert judge("user", "add", "x", "--role", "wizard")[0] == 1


def test_user_import_creates_the_whole_class_or_nobody(cli_db, tmp_path):
    good = tmp_path / "class.csv"
    good.write_text("name,display name,password\nana,Ana Pop,\nbogdan,Bogdan Ionescu,secret-1\n\ncristi,Cristi,\n")
    code, out = judge("user", "import", str(good))
    assert code == 0, out
    assert authenticate(cli_db, "bogdan", "secret-1") is not None
    generated = dict(re.findall(r"(ana|cristi)\s+│[^│]+│\s+student\s+│\s+(\S+)", out))
    assert set(generated) == {"ana", "cristi"}
    assert all(authenticate(cli_db, name, pw) for name, pw in generated.items())
    bad = tmp_path / "bad.csv"
    bad.write_text("dana,Dana\nana,Ana again\n")
    code, out = judge("user", "import", str(bad))
    assert code == 1 and "line 2: " in out
    assert cli_db.scalar(select(User).where(User.name == "dana")) is None


def test_a_contest_from_the_command_line(cli_db):
    add_problems(cli_db, "pa", "pb")
    judge("user", "add", "tess", "--role", "teacher")
    code, out = judge(
        "contest",
        "create",
        "Lab 1",
        "--problems",
        "pa,pb:50",
        "--start",
        "now",
        "--duration",
        "90",
        "--freeze",
        "30",
        "--owner",
        "tess",
        "--scoreboard",
        "public",
    )
    assert code == 0, out
    contest = cli_db.scalars(select(Contest)).one()
    assert [(p.letter, p.problem_id, p.points) for p in contest.problems] == [("A", "pa", None), ("B", "pb", 50)]
    assert contest.end_at - contest.start_at == timedelta(minutes=90)
    assert contest.end_at - contest.freeze_at == timedelta(minutes=30)
    students = {}
    for name in ("ana", "bob"):
        judge("user", "add", name)
        students[name] = cli_db.scalar(select(User.id).where(User.name == name))
    add_submission(cli_db, contest, students["ana"], "pa", "WA", 3)
    add_submission(cli_db, contest, students["ana"], "pa", "AC", 7)
    add_submission(cli_db, contest, students["bob"], "pb", "AC", 12)
    out = data("contest", "scoreboard", str(contest.id), "--csv")
    # bob: B at minute 12 -> 12; ana: A at minute 7 after one WA -> 27; one solve each, bob ahead
    assert csv_rows(out) == [
        [
            *("rank", "user", "display name", "solved", "attempts", "penalty", "pending"),
            *(
                "A: Problem pa (attempts)",
                "A: Problem pa (minute)",
                "B: Problem pb (attempts)",
                "B: Problem pb (minute)",
            ),
        ],
        ["1", "bob", "bob", "1", "1", "12", "0", "0", "", "1", "12"],
        ["2", "ana", "ana", "1", "2", "27", "0", "2", "7", "0", ""],
    ]
    out = data("contest", "grades", str(contest.id))
    assert csv_rows(out) == [
        ["user", "display name", "rank", "A: Problem pa", "B: Problem pb", "solved", "attempts", "penalty"],
        ["ana", "ana", "2", "1", "0", "1", "2", "27"],
        ["bob", "bob", "1", "0", "1", "1", "1", "12"],
    ]
    code, out = judge("contest", "rejudge", str(contest.id), "--problem", "A", "--only-non-ac")
    assert code == 0 and "1 submissions queued again" in out
    assert [s.status for s in cli_db.scalars(select(Submission).order_by(Submission.id))] == ["queued", "done", "done"]
    code, out = judge("contest", "unfreeze", str(contest.id))
    assert code == 1 and f"contest {contest.id} is not over" in out  # the contest still runs
    cli_db.refresh(contest)
    assert not contest.unfrozen
    contest.start_at -= timedelta(minutes=91)  # over a minute ago
    contest.end_at, contest.freeze_at = contest.start_at + timedelta(minutes=90), contest.start_at
    cli_db.commit()
    code, out = judge("contest", "unfreeze", str(contest.id))
    assert code == 0, out
    cli_db.refresh(contest)
    assert contest.unfrozen
    assert judge("contest", "unfreeze", str(contest.id), "--undo")[0] == 0
    cli_db.refresh(contest)
    assert not contest.unfrozen
    code, out = judge("contest", "delete", str(contest.id))
    assert code == 1 and "has submissions: archive it instead" in out
    assert judge("contest", "archive", str(contest.id))[0] == 0
    assert judge("contest", "list")[1].rstrip().endswith("\tarchived")
    assert judge("contest", "archive", str(contest.id), "--undo")[0] == 0
    cli_db.refresh(contest)
    assert not contest.archived
    assert judge("contest", "create", "Bad", "--problems", "nope")[0] == 1
