"""The `lines` output validator: accepts every shortest path, rejects each kind of wrong output.

Boards and answers here are drawn by hand; the judge answers of hand-made cases are written
by hand too, so these tests do not depend on the reference solver.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ACCEPTED, WRONG_ANSWER = 42, 43

# A 3x3 ring around one ball: @ and X are two moves apart along the top, six the other way.
RING = ["@.X", ".O.", "..."]
RING_SHORTEST = "Y\n@++\n.O.\n...\n"


def board_text(rows: list[str]) -> str:
    """The input text of a board: N, then the rows."""
    return f"{len(rows)}\n" + "".join(row + "\n" for row in rows)


@pytest.fixture
def judge_ring(tmp_path, output_validator):
    """Check a team output (str or bytes) on the RING board; returns (exit code, message)."""
    (tmp_path / "ring.in").write_text(board_text(RING))

    def run(team_output: str | bytes, answer: str = RING_SHORTEST) -> tuple[int, str]:
        (tmp_path / "ring.ans").write_text(answer)
        data = team_output.encode() if isinstance(team_output, str) else team_output
        return output_validator(PACKAGE, tmp_path / "ring.in", tmp_path / "ring.ans", data)

    return run


def judge_test(output_validator, test: Path, team_output: bytes) -> tuple[int, str]:
    """Check `team_output` on a package test (a path without suffix)."""
    return output_validator(PACKAGE, test.with_suffix(".in"), test.with_suffix(".ans"), team_output)


# Sample 3 drawn the way the seed drew it: up the right side, through the gap, over the top.
SAMPLE_3_OTHER_ROUTE = "Y\n..++.\n.++..\nO+OOO\n.++++\n....@\n"


def open_board_route(first_leg_down: bool) -> str:
    """A shortest route on the open 40x40 board from @ (1,1) to X (40,40): an L shape."""
    rows = [["."] * 40 for _ in range(40)]
    cells = (
        [(r, 0) for r in range(1, 40)] + [(39, c) for c in range(1, 40)]
        if first_leg_down
        else [(0, c) for c in range(1, 40)] + [(r, 39) for r in range(1, 40)]
    )
    for r, c in cells:
        rows[r][c] = "+"
    rows[0][0] = "@"
    return "Y\n" + "".join("".join(row) + "\n" for row in rows)


def staircase_route() -> str:
    """A shortest route on the open 40x40 board: alternately one step right and one step down."""
    rows = [["."] * 40 for _ in range(40)]
    for i in range(39):
        rows[i][i + 1] = "+"
        rows[i + 1][i + 1] = "+"
    rows[0][0] = "@"
    return "Y\n" + "".join("".join(row) + "\n" for row in rows)


@pytest.mark.parametrize(
    "test, team_output",
    [
        (SAMPLE / "03", SAMPLE_3_OTHER_ROUTE),
        (SECRET / "15-open-corners", open_board_route(first_leg_down=True)),
        (SECRET / "15-open-corners", open_board_route(first_leg_down=False)),
        (SECRET / "15-open-corners", staircase_route()),
    ],
)
def test_accepts_a_different_shortest_path(output_validator, test, team_output):
    code, message = judge_test(output_validator, test, team_output.encode())
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "test",
    [
        SAMPLE / "03",
        SECRET / "12-wall-one-gap",
        SECRET / "16-open-anti-corners",
        SECRET / "17-pillars",
        SECRET / "29-random-40-25-corners",
    ],
)
def test_accepts_the_other_accepted_submission(output_validator, test):
    solver = PACKAGE / "submissions" / "accepted" / "other_path.py"
    run = subprocess.run(
        [sys.executable, str(solver)],
        input=test.with_suffix(".in").read_bytes(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert run.stdout != test.with_suffix(".ans").read_bytes()  # really another path
    code, message = judge_test(output_validator, test, run.stdout)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "team_output",
    [
        RING_SHORTEST,
        RING_SHORTEST.replace("\n", "\r\n"),
        RING_SHORTEST.rstrip("\n"),
        RING_SHORTEST + "\n\n  \n",
        "Y  \n@++\t\n.O. \n...\n",
    ],
)
def test_accepts_whitespace_the_contract_allows(judge_ring, team_output):
    code, message = judge_ring(team_output)
    assert code == ACCEPTED, message


def test_accepts_n_when_unreachable(output_validator):
    for team_output in (b"N\n", b"N", b"N\r\n", b"N   \n\n"):
        code, message = judge_test(output_validator, SAMPLE / "02", team_output)
        assert code == ACCEPTED, (team_output, message)


@pytest.mark.parametrize(
    "team_output, reason",
    [
        # the long way round, a simple path with no shortcut: not minimal
        ("Y\n@.+\n+O+\n+++\n", "takes 6 moves, a shortest path takes 2"),
        # through the ball in the middle
        ("Y\n@.+\n.++\n...\n", "through a ball O at (row 2, column 2)"),
        # + cells that do not touch @, or with a gap
        ("Y\n@.+\n.O.\n...\n", "connected path"),
        ("Y\n@.+\n.O+\n+.+\n", "connected path"),
        # a shortest path plus a stray +
        ("Y\n@++\n+O.\n...\n", "3 cells are marked +"),
        ("Y\n@++\n.O.\n..+\n", "3 cells are marked +"),
        # X left unmarked, @ marked, cells changed (a ball moved, @ gone, a foreign character)
        ("Y\n@+X\n.O.\n...\n", "X at (row 1, column 3) is not marked"),
        ("Y\n+++\n.O.\n...\n", "@ must stay"),
        ("Y\n@++\n..O\n...\n", "changed from 'O' to '.'"),
        ("Y\n.++\n.O.\n...\n", "changed from '@' to '.'"),
        ("Y\n@++\n.O.\n..*\n", "changed from '.' to '*'"),
        # missing, extra or malformed lines
        ("Y\n@++\n.O.\n", "expected 3 board lines after Y, got 2"),
        ("Y\n@++\n.O.\n...\nhello\n", "extra output after the board"),
        ("Y\n@++\n.O.\n...\n\n...\n", "extra output after the board"),
        ("Y\n@++\n.O.\n....\n", "line 4 has 4 characters"),
        ("Y\n @++\n.O.\n...\n", "line 2 has 4 characters"),
        ("Y\n@ ++\n.O.\n...\n", "line 2 has 4 characters"),
        ("Y @++ .O. ...\n", "line 1 must be Y or N"),
        # wrong first line, garbage
        ("y\n@++\n.O.\n...\n", "line 1 must be Y or N"),
        ("Yes\n", "line 1 must be Y or N"),
        ("\nY\n@++\n.O.\n...\n", "line 1 must be Y or N"),
        ("", "empty output"),
        ("\n \n", "empty output"),
        ("N\n", "answered N, but X can be reached in 2 moves"),
        ("N\n@++\n", "extra output after N"),
        (b"\x00\xff\xfeY\n", "not ASCII"),
        (bytes(range(256)) * 100, "not ASCII"),
    ],
)
def test_rejects_invalid_answers_with_a_reason(judge_ring, team_output, reason):
    code, message = judge_ring(team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1 and message.strip()  # one line
    assert reason in message


def test_rejects_a_path_where_none_exists(output_validator):
    # Sample 2: a row of balls between @ and X; a "path" must cross it.
    team_output = b"Y\n..+..\n..+..\nOO+OO\n..+..\n..@..\n"
    code, message = judge_test(output_validator, SAMPLE / "02", team_output)
    assert code == WRONG_ANSWER
    assert "through a ball" in message


def test_rejects_y_with_a_broken_path_when_unreachable(output_validator):
    team_output = b"Y\n..+..\n.....\nOOOOO\n.....\n..@..\n"
    code, message = judge_test(output_validator, SAMPLE / "02", team_output)
    assert code == WRONG_ANSWER
    assert "answered Y, but X cannot be reached" in message


def test_rejects_the_depth_first_submission_on_an_open_board(output_validator, tmp_path):
    # The wrong-answer submission reads input.txt and writes output.txt, like the seed's program.
    test = SECRET / "16-open-anti-corners"
    (tmp_path / "input.txt").write_bytes(test.with_suffix(".in").read_bytes())
    solver = PACKAGE / "submissions" / "wrong_answer" / "depth_first.py"
    subprocess.run([sys.executable, str(solver)], cwd=tmp_path, check=True, timeout=60)
    code, message = judge_test(output_validator, test, (tmp_path / "output.txt").read_bytes())
    assert code == WRONG_ANSWER
    assert "marked +" in message or "a shortest path takes 78" in message


def test_a_team_path_shorter_than_the_judge_answer_is_a_judge_error(judge_ring):
    long_way = "Y\n@.+\n+O+\n+++\n"
    code, message = judge_ring(RING_SHORTEST, answer=long_way)
    assert code not in (ACCEPTED, WRONG_ANSWER)
    assert "beats the judge answer" in message


def test_a_valid_path_where_the_judge_says_none_is_a_judge_error(judge_ring):
    code, message = judge_ring(RING_SHORTEST, answer="N\n")
    assert code not in (ACCEPTED, WRONG_ANSWER)
    assert "no path" in message
