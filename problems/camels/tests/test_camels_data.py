"""The `camels` test data and reference: validator, generator, exact answers.

A schedule exists for every N except 3 and 5 (Tuscan squares: S. W. Golomb and H. Taylor, "Tuscan
squares — a new family of combinatorial designs", Ars Combinatoria 20-B, 1985). The counts of
schedules in the classic form are checked against an independent slow method (every choice of a
permutation for each day, tested afterwards) for N <= 4.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from reference import camels as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43


def is_schedule(n: int, days: list[list[int]]) -> bool:
    """True if every ordered pair of different camels is adjacent (front, behind) on exactly one day."""
    pairs = [pair for day in days for pair in zip(day, day[1:])]
    return (
        len(days) == n
        and all(sorted(day) == list(range(1, n + 1)) for day in days)
        and sorted(pairs) == [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if a != b]
    )


def slow_count(n: int) -> int:
    """Schedules whose day 1 is 1 ... N and day d is led by camel d, by trying every permutation."""
    first = list(range(1, n + 1))
    later = [[[d, *rest] for rest in itertools.permutations([c for c in first if c != d])] for d in first[1:]]
    return sum(is_schedule(n, [first, *days]) for days in itertools.product(*later))


@pytest.mark.parametrize("n", range(1, 9))
def test_a_schedule_exists_exactly_when_n_is_not_3_or_5(n):
    schedule = reference.solve(n, 1)
    assert (schedule is None) == (n in (3, 5))
    assert schedule is None or is_schedule(n, schedule)


@pytest.mark.parametrize("n", range(1, 5))
def test_counts_equal_the_slow_method(n):
    assert reference.solve(n, 2) == slow_count(n)


def test_five_camels_have_no_schedule_and_six_have_736_in_the_classic_form():
    assert (reference.solve(5, 2), reference.solve(6, 2)) == (0, 736)


def test_every_input_is_valid_and_every_task_is_a_test(input_validator):
    verdicts = {path.name: input_validator(PACKAGE, path.read_bytes()) for path in ALL_INPUTS}
    assert {name: code for name, (code, _) in verdicts.items() if code != VALID} == {}
    tasks = sorted(tuple(map(int, path.read_text().split())) for path in ALL_INPUTS)
    assert tasks == sorted([(n, 1) for n in range(1, 9)] + [(n, 2) for n in range(1, 7)])


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "exactly one line"),
        (b"6 1", "exactly one line"),
        (b"6 1\n\n", "exactly one line"),
        (b"6\n", "two positive integers"),
        (b"6 1 1\n", "two positive integers"),
        (b"6  1\n", "two positive integers"),
        (b"6 1\r\n", "two positive integers"),
        (b"06 1\n", "two positive integers"),
        (b"0 1\n", "two positive integers"),
        (b"6 3\n", "T = 3 is not 1 or 2"),
        (b"9 1\n", "N = 9 is outside [1, 8] for task 1"),
        (b"7 2\n", "N = 7 is outside [1, 6] for task 2"),
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
def test_answer_files_hold_a_schedule_or_the_count(test):
    n, task = (int(token) for token in test.read_text().split())
    values = [int(token) for token in test.with_suffix(".ans").read_text().split()]
    if task == 2:
        assert len(values) == 1 and (n > 4 or values[0] == slow_count(n))
    elif n in (3, 5):
        assert values == [-1]
    else:
        assert is_schedule(n, [values[d * n : d * n + n] for d in range(n)])
