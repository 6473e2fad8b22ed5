"""What the command line prints is never read as Rich markup, never carries a raw control character,
and is never wrapped when it goes to a pipe: names such as ``Ana [/b] Pop`` or a contest ``Lab [/i]
3``, a submission's output ``[/x]`` and a compiler message holding terminal escape sequences are
printed as written (control characters as ``\\x1b``); no generated password is lost."""

from __future__ import annotations

import io
import json
import re
import stat

import pytest
from sqlalchemy import func, select, update
from typer.testing import CliRunner

from judge.auth import authenticate
from judge.cli import app
from judge.models import Problem, User
from judge.terminal import visible

from ..contests.conftest import add_problems, add_submission
from ..contests.test_cli import cli_db  # noqa: F401 (a fixture: JUDGE_DATABASE_URL on a fresh SQLite file)
from .test_cli_submit import QUEUED, fake_judge, submit

runner = CliRunner()

MARKUP = ["Ana [/b] Pop", "[bold]Ana[/bold]", "Ana [/] :smile: [link=x]", "Lab [/i] 3", "[/x]", "\\[not] Ana"]
ESCAPES = "title\x1b]0;pwned\x07 clear\x1b[2J bell\x07 back\x08 cr\r del\x7f csi\x9b rtl\u202eevil"


def judge(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def one_line(out: str) -> str:
    """The output's lines joined by a marker, to prove a text is on one line."""
    return " | ".join(out.splitlines())


def test_visible_shows_each_control_character_and_keeps_newlines_and_tabs():
    assert visible(ESCAPES + "\n\tend") == (
        "title\\x1b]0;pwned\\x07 clear\\x1b[2J bell\\x07 back\\x08 cr\\r del\\x7f csi\\x9b rtl\\u202eevil\n\tend"
    )


def test_visible_escapes_what_the_output_cannot_encode(monkeypatch):
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))
    assert visible("Ștefan Müller") == "\\u0218tefan Müller"
    assert visible("bad\udcffname") == "bad\\udcffname"  # a file name that was not UTF-8


@pytest.mark.parametrize("display_name", [*MARKUP, ESCAPES])
def test_user_add_and_list_print_a_display_name_as_written(cli_db, display_name):  # noqa: F811
    code, out = judge("user", "add", "ana", "--display-name", display_name)
    assert code == 0, out
    password = re.search(r"ana\s+│.*│\s+student\s+│\s+(\S+)\s+│", out).group(1)
    assert authenticate(cli_db, "ana", password) is not None
    code, out = judge("user", "list")
    assert code == 0 and out == f"ana\tstudent\t{visible(display_name)}\n", out
    assert "\x1b" not in out and "\x07" not in out


def test_user_import_prints_every_password_whatever_the_names(cli_db, tmp_path):  # noqa: F811
    names = [f"s{i}" for i in range(len(MARKUP))]
    rows = "".join(f'{name},"{display}"\n' for name, display in zip(names, MARKUP))
    (tmp_path / "class.csv").write_text("name,display name\n" + rows, encoding="utf-8")
    code, out = judge("user", "import", str(tmp_path / "class.csv"))
    assert code == 0, out
    for name, display in zip(names, MARKUP):
        line = next(line for line in out.splitlines() if line.startswith(f"│ {name} "))
        assert display in line
        password = line.split("│")[4].strip()
        assert authenticate(cli_db, name, password) is not None, (name, line)


def test_user_import_writes_the_passwords_file_before_committing(cli_db, tmp_path):  # noqa: F811
    (tmp_path / "class.csv").write_text("ana,Ana [/b] Pop\nbob,Bob,given-pw-1\n", encoding="utf-8")
    code, out = judge("user", "import", str(tmp_path / "class.csv"), "--passwords", str(tmp_path / "pw.txt"))
    assert code == 0, out
    assert stat.S_IMODE((tmp_path / "pw.txt").stat().st_mode) == 0o600
    lines = (tmp_path / "pw.txt").read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ana\t")  # bob's password was given, not generated
    assert authenticate(cli_db, "ana", lines[0].split("\t")[1]) is not None
    # an existing file is never overwritten: nobody is imported
    (tmp_path / "more.csv").write_text("cristi,Cristi\n", encoding="utf-8")
    code, out = judge("user", "import", str(tmp_path / "more.csv"), "--passwords", str(tmp_path / "pw.txt"))
    assert code == 1 and "nobody was imported" in out
    assert cli_db.scalar(select(User).where(User.name == "cristi")) is None
    assert (tmp_path / "pw.txt").read_text().splitlines() == lines


def test_an_error_is_one_line_however_long_and_shows_markup_as_written(cli_db, tmp_path):  # noqa: F811
    folder = tmp_path / ("a-rather-long-folder-name-[red]-" * 6)
    folder.mkdir()
    (folder / "bad.csv").write_text("dana,Dana\nana,Ana\nana,Ana again\n")
    code, out = judge("user", "import", str(folder / "bad.csv"))
    assert code == 1
    assert f"error: {folder / 'bad.csv'}, line 3: " in one_line(out) and "nobody was imported" in out
    assert len(out.splitlines()) == 1, out
    assert cli_db.scalar(select(func.count()).select_from(User)) == 0
    code, out = judge("user", "password", "[/x]")
    assert (code, out) == (1, "error: no user '[/x]'\n")


def test_a_usage_error_is_one_plain_line(cli_db):  # noqa: F811
    code, out = judge("contest", "create", "Lab", "--problems", "pa", "--duration", "[/x] " + "long " * 30)
    assert code == 2
    error = [line for line in out.splitlines() if line.startswith("Error: ")]
    assert len(error) == 1 and error[0].startswith("Error: Invalid value for '--duration': "), out
    assert "│" not in out and "╭" not in out  # no panel


def test_a_table_row_is_never_wrapped_when_the_output_is_not_a_terminal(cli_db):  # noqa: F811
    display_name = "Ana " + "Maria " * 30 + "Pop"  # 187 characters: display names are kept up to 200
    code, out = judge("user", "add", "ana", "--display-name", display_name)
    assert code == 0
    assert any(display_name in line and "student" in line for line in out.splitlines()), out


def test_contest_commands_print_a_contest_name_as_written(cli_db):  # noqa: F811
    add_problems(cli_db, "pa")
    cli_db.execute(update(Problem).values(name="[/i] Maze \x1b[2J"))
    cli_db.commit()
    for i, display in enumerate(MARKUP):
        code, out = judge("user", "add", f"s{i}", "--display-name", display)
        assert code == 0, out
    code, out = judge("contest", "create", "Lab [/i] 3", "--problems", "pa")
    assert code == 0 and "Lab [/i] 3" in out, out
    code, out = judge("contest", "list")
    assert code == 0 and "\tLab [/i] 3\ticpc\t" in out, out
    from judge.models import Contest

    contest = cli_db.scalars(select(Contest)).one()
    student = cli_db.scalar(select(User.id).where(User.name == "s0"))
    add_submission(cli_db, contest, student, "pa", "AC", 1)
    code, out = judge("contest", "scoreboard", str(contest.id))
    assert code == 0, out
    assert "Lab [/i] 3" in out and "[/i] Maze \\x1b[2J" in out and "\x1b" not in out
    for display in MARKUP:
        assert display in out


def test_submit_prints_a_programs_output_and_a_compile_message_as_written(tmp_path):
    done = {
        "id": 7,
        "status": "done",
        "verdict": "[/x]",
        "tests_passed": 0,
        "tests_total": 1,
        "compile_message": ESCAPES,
        "judge_message": "[bold]judge[/] \x1b[31mred",
        "results": [
            {
                "ordinal": 1,
                "test": "[/test]",
                "verdict": "WA",
                "time_ms": 5,
                "wall_ms": 6,
                "memory_kib": 700,
                "message": 'expected 1, read "[/x]" \x1b]0;t\x07',
            }
        ],
    }
    with fake_judge(QUEUED, (200, json.dumps(done).encode())) as server:
        result = submit(tmp_path, server, "a.py", b'print("[/x]")\n')
    assert result.exit_code == 1, result.output  # a verdict other than AC
    out = result.output
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
    assert visible(ESCAPES) in out and "[bold]judge[/] \\x1b[31mred" in out
    assert "[/test]" in out and 'read "[/x]" \\x1b]0;t\\x07' in out
    assert "verdict: [/x]  (0/1 tests passed)" in out


def test_submit_says_why_a_secret_tests_figures_are_dashes(tmp_path):
    from judge.cli import HIDDEN_FIGURES

    def done(secret_figures: int | None) -> bytes:
        figures = {"time_ms": secret_figures, "wall_ms": secret_figures, "memory_kib": secret_figures}
        results = [
            {"ordinal": 1, "test": "sample/1", "verdict": "AC", "time_ms": 5, "wall_ms": 6, "memory_kib": 700},
            {"ordinal": 2, "test": "secret/2", "verdict": "AC", **figures},
        ]
        reply = {"id": 7, "status": "done", "verdict": "AC", "tests_passed": 2, "tests_total": 2, "results": results}
        return json.dumps(reply).encode()

    with fake_judge(QUEUED, (200, done(None))) as server:
        hidden = submit(tmp_path, server, "a.py", b"print(1)\n")
    assert hidden.exit_code == 0, hidden.output
    assert HIDDEN_FIGURES in " ".join(hidden.output.split()), hidden.output
    with fake_judge(QUEUED, (200, done(3))) as server:  # a jury member sees every figure
        shown = submit(tmp_path, server, "a.py", b"print(1)\n")
    assert shown.exit_code == 0 and "stay with the jury" not in shown.output, shown.output


def test_when_the_accounts_cannot_be_stored_nobody_is_created_and_the_passwords_are_void(cli_db, monkeypatch):  # noqa: F811
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    def locked(self):
        raise OperationalError("COMMIT", {}, Exception("database is locked"))

    monkeypatch.setattr(Session, "commit", locked)
    code, out = judge("user", "add", "ana", "--display-name", "Ana [/b] Pop")
    assert code == 1
    assert "Ana [/b] Pop" in out and "nobody was created, the passwords above are void" in out
    monkeypatch.undo()
    cli_db.rollback()
    assert cli_db.scalar(select(func.count()).select_from(User)) == 0
