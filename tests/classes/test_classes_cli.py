"""The class and account-care commands: a class from a CSV, students added and taken out, a contest
for a class, what one teacher sees, deactivating and reactivating an account."""

from __future__ import annotations

import re

from sqlalchemy import select

from judge.auth import authenticate
from judge.contests import is_participant
from judge.models import Contest, User
from tests.contests import test_cli
from tests.contests.conftest import add_problems
from tests.contests.test_cli import judge

cli_db = test_cli.cli_db  # the fixture: a migrated SQLite file named by JUDGE_DATABASE_URL


def _class_id(output: str) -> str:
    found = re.search(r"class (\d+):", output)
    assert found, output
    return found.group(1)


def test_classes_from_the_command_line(cli_db, tmp_path):
    add_problems(cli_db, "pa")
    for teacher in ("tess", "tom"):
        assert judge("user", "add", teacher, "--role", "teacher")[0] == 0
    assert judge("user", "add", "old")[0] == 0
    code, out = judge("class", "create", "9A", "--teacher", "tess")
    assert code == 0, out
    nine_a = _class_id(out)
    roster = tmp_path / "9a.csv"
    roster.write_text("name,display name,password\nana,Ana Pop,\nbob,Bob,secret-12\nold,,\n", encoding="utf-8")
    code, out = judge("class", "import", nine_a, str(roster))
    assert code == 0, out
    assert "2 new students, 1 existing students added" in out
    password = re.search(r"ana\s+│\s+Ana Pop\s+│\s+student\s+│\s+(\S+)", out).group(1)
    assert authenticate(cli_db, "ana", password) is not None
    code, out = judge("class", "show", nine_a)
    assert code == 0 and all(n in out for n in ("ana", "bob", "old"))

    code, out = judge("class", "create", "Other", "--teacher", "tom")
    other = _class_id(out)
    assert judge("class", "add", other, "bob")[0] == 0
    code, out = judge("class", "list", "--teacher", "tom")
    assert code == 0 and "Other" in out and "9A" not in out
    code, out = judge("class", "create", "9A", "--teacher", "tess")
    assert code == 1 and "already" in out
    assert judge("class", "create", "X", "--teacher", "ana")[0] == 1
    assert judge("class", "add", nine_a, "nobody")[0] == 1
    assert judge("class", "show", "999")[0] == 1

    code, out = judge("contest", "create", "Lab", "--problems", "pa", "--classes", nine_a, "--owner", "tess")
    assert code == 0, out
    contest = cli_db.scalar(select(Contest))
    ana, bob = (cli_db.scalar(select(User).where(User.name == n)) for n in ("ana", "bob"))
    assert is_participant(cli_db, contest, ana)
    assert judge("class", "remove", nine_a, "ana")[0] == 0
    cli_db.expire_all()
    assert not is_participant(cli_db, contest, ana) and is_participant(cli_db, contest, bob)
    assert judge("contest", "create", "Bad", "--problems", "pa", "--classes", "9A")[0] == 1
    assert judge("class", "delete", other)[0] == 0
    assert "Other" not in judge("class", "list")[1]


def test_deactivate_and_reactivate_from_the_command_line(cli_db):
    assert judge("user", "add", "ana", "--password", "secret-12")[0] == 0
    code, out = judge("user", "deactivate", "ana")
    assert code == 0, out
    assert authenticate(cli_db, "ana", "secret-12") is None
    assert "deactivated" in judge("user", "list")[1]
    assert judge("user", "reactivate", "ana")[0] == 0
    cli_db.expire_all()
    assert authenticate(cli_db, "ana", "secret-12") is not None
    assert judge("user", "deactivate", "nobody")[0] == 1
