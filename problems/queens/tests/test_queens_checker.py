"""The `queens` output validator: accepts the exact count with any valid placement, rejects the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
ALL_TESTS = sorted(path.with_suffix("") for path in DATA.glob("*/*.in"))
ACCEPTED, WRONG_ANSWER = 42, 43
# Test files by board size, read from the inputs: {N: path without suffix}.
TEST_OF_SIZE = {int(path.with_suffix(".in").read_text()): path for path in ALL_TESTS}


def check(output_validator, size: int, team_output: str | bytes) -> tuple[int, str]:
    """Check a team output on the package test whose board size is `size`."""
    test = TEST_OF_SIZE[size]
    data = team_output.encode() if isinstance(team_output, str) else team_output
    return output_validator(PACKAGE, test.with_suffix(".in"), test.with_suffix(".ans"), data)


@pytest.mark.parametrize(
    "size, team_output",
    [
        # the mirror image of the reference's placement for N = 4
        (4, "2\n3 1 4 2\n"),
        # two of the 92 placements for N = 8 that the reference does not print first
        (8, "92\n4 2 7 3 6 8 5 1\n"),
        (8, "92\n8 4 1 3 6 2 7 5\n"),
        (5, "10\n2 4 1 3 5\n"),
        (6, "4\n5 3 1 6 4 2\n"),
    ],
)
def test_accepts_a_different_valid_placement(output_validator, size, team_output):
    assert team_output != TEST_OF_SIZE[size].with_suffix(".ans").read_text()
    code, message = check(output_validator, size, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "team_output",
    [
        "92 1 5 8 6 3 7 2 4",
        "92\r\n1 5 8 6 3 7 2 4\r\n",
        "  92\n\n1\n5\n8\n6\n3\n7\n2\n4\n\n\n",
        "92\t1 5 8 6\t3 7 2 4  \n",
    ],
)
def test_accepts_any_whitespace(output_validator, team_output):
    code, message = check(output_validator, 8, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize("size, team_output", [(2, "0\n"), (3, "0"), (1, "1\n1\n")])
def test_accepts_the_small_cases(output_validator, size, team_output):
    code, message = check(output_validator, size, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "size, team_output, reason",
    [
        # wrong count, or a count that is not a plain integer
        (8, "91\n1 5 8 6 3 7 2 4\n", "wrong number of placements: '91', expected 92"),
        (8, "40320\n1 2 3 4 5 6 7 8\n", "wrong number of placements"),
        (2, "2\n1 2\n", "wrong number of placements: '2', expected 0"),
        (8, "092\n1 5 8 6 3 7 2 4\n", "must be an integer"),
        (8, "+92\n1 5 8 6 3 7 2 4\n", "must be an integer"),
        (8, "92.0\n1 5 8 6 3 7 2 4\n", "must be an integer"),
        (8, "9" * 100 + "\n", "wrong number of placements"),
        (8, "ninety-two\n", "must be an integer"),
        # missing or extra tokens
        (8, "92\n", "expected a placement of 8 columns after the count, got 0"),
        (8, "92\n1 5 8 6 3 7 2\n", "got 7"),
        (8, "92\n1 5 8 6 3 7 2 4 1\n", "extra output after the answer: '1'"),
        (8, "92\n1 5 8 6 3 7 2 4\nthanks\n", "extra output after the answer: 'thanks'"),
        (2, "0\n1 2\n", "extra output after the answer"),
        # columns out of range or not integers
        (4, "2\n0 4 1 3\n", "the column of row 1 is 0, outside 1 ... 4"),
        (4, "2\n2 4 1 5\n", "the column of row 4 is 5"),
        (4, "2\n2 4 -1 3\n", "the column of row 3 is -1"),
        (4, "2\n2 4 1 x\n", "the column of row 4 must be an integer"),
        (4, "2\n2 4 1 3.0\n", "must be an integer"),
        # attacks
        (4, "2\n2 4 2 4\n", "rows 1 and 3 share column 2"),
        (8, "92\n1 2 3 4 5 6 7 8\n", "rows 1 and 2 (columns 1 and 2) share a diagonal"),
        (4, "2\n2 4 3 1\n", "rows 2 and 3 (columns 4 and 3) share a diagonal"),
        (4, "2\n3 1 2 4\n", "rows 2 and 3 (columns 1 and 2) share a diagonal"),
        # garbage
        (8, "", "empty output"),
        (8, " \n\t\n", "empty output"),
        (8, b"\x00\x92\xff", "not ASCII"),
        (8, bytes(range(256)) * 1000, "not ASCII"),
    ],
)
def test_rejects_wrong_answers_with_a_reason(output_validator, size, team_output, reason):
    code, message = check(output_validator, size, team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1  # one line
    assert reason in message
