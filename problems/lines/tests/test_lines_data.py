"""The `lines` test data: input validator, reproducible generator, reference answers by other means.

Path lengths are checked against facts known by construction and against an independent
slow method (Bellman-Ford style relaxation until nothing changes), never against the
reference's own output alone.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reference import lines as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43


def test_there_are_samples_and_at_least_twenty_secret_tests():
    assert len(list(SAMPLE.glob("*.in"))) == 3
    assert len(list(SECRET.glob("*.in"))) >= 20
    for test in ALL_INPUTS:
        assert test.with_suffix(".ans").is_file(), test


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "newline"),
        (b"2\n@X\n..", "newline"),
        (b"1\n@\n", "outside [2, 40]"),
        (b"41\n" + b"@X" + b"." * 39 + b"\n" + (b"." * 41 + b"\n") * 40, "outside [2, 40]"),
        (b"02\n@X\n..\n", "integer N alone"),
        (b"2 \n@X\n..\n", "integer N alone"),
        (b"+2\n@X\n..\n", "integer N alone"),
        (b"two\n@X\n..\n", "integer N alone"),
        (b"2\r\n@X\r\n..\r\n", "integer N alone"),
        (b"2\n@X\n..\n..\n", "expected 2 board lines"),
        (b"2\n@X\n", "expected 2 board lines"),
        (b"2\n@X\n..\n\n", "expected 2 board lines"),
        (b"2\n@X\n.\n", "has 1 characters, expected 2"),
        (b"2\n@X \n..\n", "has 3 characters, expected 2"),
        (b"2\n@X\no.\n", "character other than"),
        (b"2\n@X\n+.\n", "character other than"),
        (b"2\n@X\n\xff.\n", "character other than"),
        (b"2\n@@\nX.\n", "2 '@' cells"),
        (b"2\n..\nX.\n", "0 '@' cells"),
        (b"2\n@.\n..\n", "0 'X' cells"),
        (b"2\n@X\nX.\n", "2 'X' cells"),
    ],
)
def test_validator_rejects_malformed_input(input_validator, data, reason):
    code, message = input_validator(PACKAGE, data)
    assert code == INVALID
    assert message.count("\n") == 1  # one line
    assert reason in message


def test_generator_is_reproducible_and_matches_the_secret_data(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    second = generate_into(PACKAGE, tmp_path / "second")
    assert first == second
    assert first == {path.name: path.read_bytes() for path in sorted(SECRET.glob("*.in"))}


def test_reference_runs_as_a_program():
    test = SAMPLE / "03"
    run = subprocess.run(
        [sys.executable, str(PACKAGE / "submissions" / "accepted" / "reference.py")],
        input=test.with_suffix(".in").read_bytes(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert run.stdout == test.with_suffix(".ans").read_bytes()


def relaxed_distance(board: list[str]) -> int | None:
    """Moves from @ to X by repeated relaxation (Bellman-Ford on the grid): slow, independent of BFS.

    Sweeps alternate between forward and backward cell order so long corridors settle in few passes.
    """
    size = len(board)
    unknown = size * size + 1
    distance = [[0 if cell == "@" else unknown for cell in row] for row in board]
    cells = [(r, c) for r in range(size) for c in range(size)]
    changed = True
    while changed:
        changed = False
        cells.reverse()
        for r, c in cells:
            if board[r][c] not in ".X":
                continue
            best = min(
                (
                    distance[r + dr][c + dc] + 1
                    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    if 0 <= r + dr < size and 0 <= c + dc < size
                ),
                default=unknown,
            )
            if best < distance[r][c]:
                distance[r][c] = best
                changed = True
    (target,) = [(r, c) for r in range(size) for c in range(size) if board[r][c] == "X"]
    found = distance[target[0]][target[1]]
    return None if found >= unknown else found


def answer_moves(test: Path) -> int | None:
    """The number of moves in a judge answer: its count of +, or None for N."""
    answer = test.with_suffix(".ans").read_text()
    return None if answer.startswith("N") else answer.count("+")


@pytest.mark.parametrize("test", ALL_INPUTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_answer_length_equals_an_independent_slow_method(test):
    board = reference.parse_input(test.read_text())
    assert answer_moves(test) == relaxed_distance(board)


@pytest.mark.parametrize(
    "name, moves",
    [
        # the samples, counted by hand on the boards of the statement
        ("sample/01", 16),
        ("sample/02", None),
        ("sample/03", 9),
        ("secret/01-n2-neighbours", 1),
        ("secret/02-n2-blocked", None),
        ("secret/03-n2-around", 2),
        ("secret/04-n2-above", 1),
        ("secret/05-at-next-to-x-crowded", 1),
        ("secret/06-at-next-to-x-random", 1),
        ("secret/07-at-next-to-x-open", 1),
        ("secret/08-at-boxed-in", None),
        ("secret/09-x-boxed-in", None),
        ("secret/11-wall-no-gap", None),
        ("secret/13-diagonal-wall", None),
        ("secret/14-balls-only", None),
        # open 40x40 board, corner to corner: 39 + 39 moves
        ("secret/15-open-corners", 78),
        ("secret/16-open-anti-corners", 78),
        # serpentine: 20 free rows of 40 cells and 19 gaps, minus the start cell
        ("secret/18-serpentine", 20 * 40 + 19 - 1),
        # N = 39: 20 free rows of 39 cells and 19 gaps, minus the start cell
        ("secret/19-serpentine-odd", 20 * 39 + 19 - 1),
    ],
)
def test_answers_known_by_construction(name, moves):
    assert answer_moves(PACKAGE / "data" / name) == moves


def test_reference_draws_the_only_path_of_a_small_board():
    board = ["@.O", ".O.", "..X"]
    drawn = reference.solve(board)
    assert drawn == ["@.O", "+O.", "+++"]
    assert reference.solve(["@O", "OX"]) is None
