"""The `domination` test data and reference: validator, generator, exact minimum numbers.

The minimum is checked against the published queen domination numbers of square boards (OEIS
A075458: 1, 1, 1, 2, 3, 3, 4, 5, 5, 5 for N = 1 ... 10), and, for boards of at most 20 squares,
against an independent slow method (every set of squares, smallest sets first). Every placement
in an answer file is checked to guard its board.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from reference import domination as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43
# OEIS A075458, N = 1 ... 10.
PUBLISHED = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5]


def guards(rows: int, cols: int, queens: list[tuple[int, int]]) -> bool:
    """True if every square (0-based) holds a queen or shares a row, column or diagonal with one."""
    return all(
        any(r == q[0] or c == q[1] or abs(r - q[0]) == abs(c - q[1]) for q in queens)
        for r in range(rows)
        for c in range(cols)
    )


def slow_minimum(rows: int, cols: int) -> int:
    """The least k such that some k squares guard the board, by trying every set of squares."""
    squares = list(itertools.product(range(rows), range(cols)))
    return next(
        k for k in itertools.count(1) if any(guards(rows, cols, list(s)) for s in itertools.combinations(squares, k))
    )


@pytest.mark.parametrize("n", range(1, 11))
def test_square_boards_need_the_published_number(n):
    placement = reference.solve(n, n)
    assert len(placement) == PUBLISHED[n - 1] and guards(n, n, placement)


@pytest.mark.parametrize("rows, cols", [(r, c) for r in range(1, 6) for c in range(1, 6) if r * c <= 20])
def test_small_boards_agree_with_the_slow_method(rows, cols):
    placement = reference.solve(rows, cols)
    assert len(placement) == slow_minimum(rows, cols) and guards(rows, cols, placement)


def test_every_input_is_valid_and_every_square_board_is_a_test(input_validator):
    verdicts = {path.name: input_validator(PACKAGE, path.read_bytes()) for path in ALL_INPUTS}
    assert {name: code for name, (code, _) in verdicts.items() if code != VALID} == {}
    boards = [tuple(map(int, path.read_text().split())) for path in ALL_INPUTS]
    assert {(n, n) for n in range(1, 11)} <= set(boards) and len(set(boards)) == len(boards)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "exactly one line"),
        (b"8 8", "exactly one line"),
        (b"8 8\n\n", "exactly one line"),
        (b"8\n", "two positive integers"),
        (b"8 8 8\n", "two positive integers"),
        (b"8  8\n", "two positive integers"),
        (b"8 8 \n", "two positive integers"),
        (b"8\t8\n", "two positive integers"),
        (b"8 8\r\n", "two positive integers"),
        (b"0 8\n", "two positive integers"),
        (b"08 8\n", "two positive integers"),
        (b"-8 8\n", "two positive integers"),
        (b"11 8\n", "R = 11 is outside [1, 10]"),
        (b"8 99\n", "C = 99 is outside [1, 10]"),
        (b"\xc3\xa9 8\n", "two positive integers"),
    ],
)
def test_validator_rejects_malformed_input(input_validator, data, reason):
    code, message = input_validator(PACKAGE, data)
    assert (code, message.count("\n"), reason in message) == (INVALID, 1, True), message


def test_generator_is_reproducible_and_matches_the_secret_data(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    assert generate_into(PACKAGE, tmp_path / "second") == first
    assert first == {path.name: path.read_bytes() for path in sorted(SECRET.glob("*.in"))}


@pytest.mark.parametrize("test", ALL_INPUTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_answer_files_hold_the_minimum_and_a_guarding_placement(test):
    rows, cols = (int(token) for token in test.read_text().split())
    values = [int(token) for token in test.with_suffix(".ans").read_text().split()]
    queens = [(r - 1, c - 1) for r, c in zip(values[1::2], values[2::2])]
    assert values[0] == len(queens) == len(set(queens)) and guards(rows, cols, queens)
    if rows == cols:
        assert values[0] == PUBLISHED[rows - 1]
    # one queen fewer never guards the board: the reference proved it for every smaller k
    assert reference.placement_of_size(reference.attack_masks(rows, cols), values[0] - 1) is None or values[0] == 1
