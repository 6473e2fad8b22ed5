"""The `lee` output validator: accepts every shortest path, rejects each kind of wrong output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ACCEPTED, WRONG_ANSWER = 42, 43


def path_output(k: int, cells: list[tuple[int, int]]) -> bytes:
    """Format `k` and the 1-based cells the way the statement asks."""
    return ("\n".join([str(k)] + [f"{r} {c}" for r, c in cells]) + "\n").encode()


def judge(output_validator, test: Path, team_output: bytes) -> tuple[int, str]:
    """Check `team_output` against test `test` (a path without the .in/.ans suffix)."""
    return output_validator(PACKAGE, test.with_suffix(".in"), test.with_suffix(".ans"), team_output)


# Shortest paths written by hand, each different from what the reference prints.
# Sample 02 (3x5, wall in the middle of row 2): along the top row, then down the right side.
SAMPLE_02_TOP_ROUTE = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 5), (3, 5)]
# The open 100x100 grid, (1,1) to (100,100): right along row 1, then down column 100.
OPEN_L_ROUTE = [(1, c) for c in range(1, 101)] + [(r, 100) for r in range(2, 101)]
# The same grid: a staircase, alternating down and right.
OPEN_STAIRS = [(1, 1)] + [cell for i in range(1, 100) for cell in ((i + 1, i), (i + 1, i + 1))]


@pytest.mark.parametrize(
    "test, cells",
    [
        (SAMPLE / "02", SAMPLE_02_TOP_ROUTE),
        (SECRET / "11-open-corner-to-corner", OPEN_L_ROUTE),
        (SECRET / "11-open-corner-to-corner", OPEN_STAIRS),
    ],
)
def test_accepts_a_different_shortest_path(output_validator, test, cells):
    team_output = path_output(len(cells) - 1, cells)
    assert team_output != test.with_suffix(".ans").read_bytes()
    code, message = judge(output_validator, test, team_output)
    assert code == ACCEPTED, message


def run_submission(folder: str, name: str, test: Path) -> bytes:
    """Run a Python submission of the package on a test; return its stdout."""
    solver = PACKAGE / "submissions" / folder / name
    run = subprocess.run(
        [sys.executable, str(solver)],
        input=test.with_suffix(".in").read_bytes(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    return run.stdout


@pytest.mark.parametrize(
    "test",
    [SAMPLE / "01", SECRET / "13-open-centre-to-edge", SECRET / "18-greedy-trap", SECRET / "29-random-far-walls-30pct"],
)
def test_accepts_the_path_of_the_other_accepted_submission(output_validator, test):
    # from_cheese.py runs the wave from the cheese and walks with another neighbour order.
    team_output = run_submission("accepted", "from_cheese.py", test)
    code, message = judge(output_validator, test, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "name, test, reason_word",
    [
        ("greedy.py", SAMPLE / "01", "reachable"),
        ("greedy.py", SECRET / "18-greedy-trap", "reachable"),
        ("first_dfs_path.py", SECRET / "18-greedy-trap", "not minimal"),
        ("first_dfs_path.py", SECRET / "13-open-centre-to-edge", "not minimal"),
    ],
)
def test_rejects_the_wrong_answer_submissions_on_their_traps(output_validator, name, test, reason_word):
    code, message = judge(output_validator, test, run_submission("wrong_answer", name, test))
    assert code == WRONG_ANSWER
    assert reason_word in message


@pytest.mark.parametrize(
    "variant",
    [
        b"6\r\n1 1\r\n2 1\r\n3 1\r\n3 2\r\n3 3\r\n3 4\r\n3 5\r\n",
        b"6 1 1 2 1 3 1 3 2 3 3 3 4 3 5",
        b"  6\t\n1\t1\n\n2 1   \n3 1\n3 2\n3 3\n3 4\n3   5 \n\n\t",
    ],
)
def test_accepts_any_whitespace_between_tokens(output_validator, variant):
    code, message = judge(output_validator, SAMPLE / "02", variant)
    assert code == ACCEPTED, message


# Sample 01: 5x6, mouse (1,1), cheese (5,1), shortest path 12 moves.
# Sample 03: the cheese is walled in, answer -1.
WRONG_OUTPUTS = {
    "longer k": (SAMPLE / "01", b"14\n1 1\n", "not minimal"),
    "shorter k": (SAMPLE / "01", b"11\n1 1\n", "fewer"),
    "minus one when reachable": (SAMPLE / "01", b"-1\n", "reachable"),
    "k when unreachable": (SAMPLE / "03", path_output(1, [(1, 1), (1, 2)]), "cannot be reached"),
    "extra after minus one": (SAMPLE / "03", b"-1\n1 1\n", "extra"),
    "empty output": (SAMPLE / "02", b"", "empty"),
    "only whitespace": (SAMPLE / "02", b" \r\n\t\n", "empty"),
    "negative k": (SAMPLE / "02", b"-7\n", "negative"),
    "word for k": (SAMPLE / "02", b"six\n", "integer"),
    "decimal k": (SAMPLE / "02", b"6.0\n", "integer"),
    "huge k": (SAMPLE / "02", b"9" * 5000 + b"\n", "integer"),
    "binary garbage": (SAMPLE / "02", bytes(range(256)) * 4, "integer"),
}
# Sample 02: 3x5, mouse (1,1), cheese (3,5), walls (2,2)..(2,4); k = 6 is right, the path is not.
WRONG_PATHS_FOR_SAMPLE_02 = {
    "through a wall": ("1 1  1 2  2 2  3 2  3 3  3 4  3 5", "wall"),
    "off the grid": ("1 1  2 1  3 1  4 1  4 2  4 3  3 3", "off"),
    "column zero": ("1 1  1 0  2 0  3 0  3 1  3 2  3 3", "off"),
    "diagonal move": ("1 1  1 2  1 1  2 1  3 2  3 3  3 4", "not one step"),
    "two-cell jump": ("1 1  1 3  1 4  1 5  2 5  3 5  3 4", "not one step"),
    "standing still": ("1 1  1 1  2 1  3 1  3 2  3 3  3 4", "not one step"),
    "wrong start": ("1 2  1 1  2 1  3 1  3 2  3 3  3 4", "mouse"),
    "wrong end": ("1 1  2 1  3 1  3 2  3 3  3 2  3 3", "cheese"),
    "path longer than k": ("1 1  2 1  3 1  3 2  3 3  3 4  3 5  3 4", "cells"),
    "path shorter than k": ("1 1  2 1  3 1  3 2  3 3", "cells"),
    "missing last number": ("1 1  2 1  3 1  3 2  3 3  3 4  3", "cells"),
    "extra token": ("1 1  2 1  3 1  3 2  3 3  3 4  3 5  7", "cells"),
    "letter in the path": ("1 1  2 x  3 1  3 2  3 3  3 4  3 5", "integer"),
    "garbage in the path": ("\xff\xfe\x00\x01 1  1 2  1 3  1 3  2 3  3 3  4", "integer"),
}
WRONG_OUTPUTS.update(
    {
        name: (SAMPLE / "02", b"6\n" + path.encode("latin-1"), word)
        for name, (path, word) in WRONG_PATHS_FOR_SAMPLE_02.items()
    }
)


@pytest.mark.parametrize("test, team_output, reason_word", WRONG_OUTPUTS.values(), ids=WRONG_OUTPUTS.keys())
def test_rejects_wrong_output_with_a_reason(output_validator, test, team_output, reason_word):
    code, message = judge(output_validator, test, team_output)
    assert code == WRONG_ANSWER, message
    assert reason_word in message.lower()
    assert message.count("\n") == 1  # one line, for the teacher


def test_rejects_the_reference_answer_with_one_extra_token(output_validator):
    answer = (SAMPLE / "01").with_suffix(".ans").read_bytes()
    code, message = judge(output_validator, SAMPLE / "01", answer + b"5 1\n")
    assert code == WRONG_ANSWER
    assert "cells" in message
