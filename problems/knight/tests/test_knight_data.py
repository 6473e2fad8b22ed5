"""The `knight` test data and reference: validator, generator, and that the reference is exact.

Whether a tour exists is checked against what is known: none for N = 2, 3, 4; on an odd board
none from a square of the other colour than the corners; on 5 x 5 one from every square of the
corners' colour (found by an independent plain backtracking search, no heuristic); a tour from
every square for N >= 6 (Conrad et al., "Solution of the knight's Hamiltonian path problem on
chessboards", Discrete Applied Mathematics 50, 1994). The reference's search is complete, and it
is run here from every start square of every allowed N, so its answer is known for every input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reference import knight as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43


def tour_exists(n: int, row: int, col: int) -> bool:
    """The known answer for a 0-based start (see the module docstring)."""
    if n in (2, 3, 4):
        return False
    return n % 2 == 0 or (row + col) % 2 == 0


def is_tour(n: int, start: tuple[int, int], tour: list[int]) -> bool:
    """True if `tour` (squares r * n + c) starts at `start` and visits every square by knight's moves."""
    steps = zip(tour, tour[1:])
    return (
        sorted(tour) == list(range(n * n))
        and tour[0] == start[0] * n + start[1]
        and all(sorted((abs(a // n - b // n), abs(a % n - b % n))) == [1, 2] for a, b in steps)
    )


def plain_search(n: int, start: tuple[int, int]) -> bool:
    """Whether a tour exists, by plain exhaustive backtracking (for small boards only)."""
    seen = {start}

    def extend(square: tuple[int, int]) -> bool:
        if len(seen) == n * n:
            return True
        for d_row, d_col in reference.MOVES:
            following = (square[0] + d_row, square[1] + d_col)
            if 0 <= following[0] < n and 0 <= following[1] < n and following not in seen:
                seen.add(following)
                if extend(following):
                    return True
                seen.discard(following)
        return False

    return extend(start)


@pytest.mark.parametrize("n", range(1, 17))
def test_reference_finds_a_tour_exactly_when_one_exists_from_every_square(n):
    for row in range(n):
        for col in range(n):
            tour = reference.solve(n, (row, col))
            assert (tour is not None) == tour_exists(n, row, col), (n, row, col)
            assert tour is None or is_tour(n, (row, col), tour)


@pytest.mark.parametrize("n", range(1, 6))
def test_small_boards_agree_with_plain_backtracking(n):
    for row in range(n):
        for col in range(n):
            assert plain_search(n, (row, col)) == tour_exists(n, row, col), (n, row, col)


def test_every_input_is_valid(input_validator):
    verdicts = {path.name: input_validator(PACKAGE, path.read_bytes()) for path in ALL_INPUTS}
    assert {name: code for name, (code, _) in verdicts.items() if code != VALID} == {}


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "exactly one line"),
        (b"5 1 1", "exactly one line"),
        (b"5 1 1\n\n", "exactly one line"),
        (b"5 1\n", "three positive integers"),
        (b"5 1 1 1\n", "three positive integers"),
        (b"5  1 1\n", "three positive integers"),
        (b"5 1 1 \n", "three positive integers"),
        (b"5\t1 1\n", "three positive integers"),
        (b"5 1 1\r\n", "three positive integers"),
        (b"0 1 1\n", "three positive integers"),
        (b"05 1 1\n", "three positive integers"),
        (b"+5 1 1\n", "three positive integers"),
        (b"17 1 1\n", "N = 17 is outside [1, 16]"),
        (b"5 6 1\n", "outside the 5x5 board"),
        (b"5 1 6\n", "outside the 5x5 board"),
        (b"\xff 1 1\n", "three positive integers"),
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
def test_answer_files_hold_a_tour_exactly_when_one_exists(test):
    n, row, col = (int(token) for token in test.read_text().split())
    values = [int(token) for token in test.with_suffix(".ans").read_text().split()]
    if not tour_exists(n, row - 1, col - 1):
        assert values == [-1]
    else:
        tour = sorted(range(n * n), key=lambda square: values[square])
        assert is_tour(n, (row - 1, col - 1), tour)
