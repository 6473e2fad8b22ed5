"""The `queens` test data and reference: the twelve inputs, validator, generator, exact counts.

Counts are checked against an independent slow method (every permutation of the columns,
tested for diagonal attacks) for N <= 8, and against the published values of OEIS A000170
("number of ways of placing n nonattacking queens on an n X n board") for N = 9 ... 12.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from reference import queens as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43
# OEIS A000170, n = 9 ... 12.
PUBLISHED_COUNTS = {9: 352, 10: 724, 11: 2680, 12: 14200}


def slow_count(size: int) -> int:
    """Count placements by testing every permutation of the columns for shared diagonals."""
    return sum(
        all(abs(columns[i] - columns[j]) != j - i for i in range(size) for j in range(i + 1, size))
        for columns in itertools.permutations(range(size))
    )


def is_valid_placement(columns: list[int], size: int) -> bool:
    """True if `columns` (1-based, one per row) puts `size` queens with no two attacking."""
    return sorted(columns) == list(range(1, size + 1)) and all(
        abs(columns[i] - columns[j]) != j - i for i in range(size) for j in range(i + 1, size)
    )


def test_the_twelve_inputs_appear_exactly_once_and_are_valid(input_validator):
    sizes = sorted(int(path.read_text()) for path in ALL_INPUTS)
    assert sizes == list(range(1, 13))
    assert [int(path.read_text()) for path in sorted(SAMPLE.glob("*.in"))] == [4, 8]
    verdicts = {path.name: input_validator(PACKAGE, path.read_bytes()) for path in ALL_INPUTS}
    assert {name: code for name, (code, _) in verdicts.items() if code != VALID} == {}


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "exactly one line"),
        (b"8", "exactly one line"),
        (b"8\n\n", "exactly one line"),
        (b"8\n9\n", "exactly one line"),
        (b"0\n", "integer N alone"),
        (b"08\n", "integer N alone"),
        (b"-1\n", "integer N alone"),
        (b"+8\n", "integer N alone"),
        (b" 8\n", "integer N alone"),
        (b"8 \n", "integer N alone"),
        (b"8\r\n", "integer N alone"),
        (b"8.0\n", "integer N alone"),
        (b"eight\n", "integer N alone"),
        (b"\xff\xfe\n", "integer N alone"),
        (b"9" * 500 + b"\n", "integer N alone"),
        (b"13\n", "N = 13 is outside [1, 12]"),
        (b"100\n", "N = 100 is outside [1, 12]"),
    ],
)
def test_validator_rejects_malformed_input(input_validator, data, reason):
    code, message = input_validator(PACKAGE, data)
    # exit 43 and a one-line reason on stderr
    assert (code, message.count("\n"), reason in message) == (INVALID, 1, True), message


def test_generator_is_reproducible_and_matches_the_secret_data(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    assert generate_into(PACKAGE, tmp_path / "second") == first
    assert first == {path.name: path.read_bytes() for path in sorted(SECRET.glob("*.in"))}


@pytest.mark.parametrize("size", range(1, 9))
def test_count_equals_the_slow_method(size):
    assert reference.count_placements(size) == slow_count(size)


@pytest.mark.parametrize("size, count", [(8, 92), (2, 0), (3, 0), *PUBLISHED_COUNTS.items()])
def test_known_counts(size, count):
    assert reference.count_placements(size) == count


@pytest.mark.parametrize("test", ALL_INPUTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_answer_files_hold_the_count_and_a_valid_placement(test):
    size = int(test.read_text())
    lines = test.with_suffix(".ans").read_text().splitlines()
    expected = PUBLISHED_COUNTS.get(size) if size > 8 else slow_count(size)
    assert int(lines[0]) == expected
    if expected == 0:
        assert lines == ["0"]
    else:
        assert len(lines) == 2 and is_valid_placement([int(token) for token in lines[1].split()], size)


def test_first_placement_is_none_exactly_when_there_is_none():
    for size in range(1, 13):
        placement = reference.first_placement(size)
        assert (placement is None) == (size in (2, 3))
        if placement is not None:
            assert is_valid_placement(placement, size)
