"""The `domination` output validator: accepts the minimum with any guarding placement, rejects the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
ACCEPTED, WRONG_ANSWER = 42, 43


@pytest.mark.parametrize(
    "test, team_output",
    [
        ("sample/01", "2\n2 3\n2 2\n"),  # the other order
        ("sample/01", "2\n3 2\n3 3\n"),  # mirrored top-bottom
        ("sample/01", "2\n1 1\n3 3\n"),  # a placement of its own
        ("sample/02", "5\n4 6\n4 5\n4 4\n5 3\n6 5\n"),  # the 8 x 8 placement mirrored left-right
        ("sample/01", "2 2 2 2 3"),
        ("sample/01", "2\r\n2 2\r\n2 3\r\n"),
        ("secret/01-1x1", "1\n1 1\n"),
    ],
)
def test_accepts_every_valid_answer(check_test, test, team_output):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "test, team_output, reason",
    [
        ("sample/01", "3\n1 1\n2 2\n3 3\n", "not the fewest: 3 queens, but 2 are enough"),
        ("sample/01", "1\n2 2\n", "1 queens cannot cover the board: at least 2 are needed"),
        ("sample/01", "2\n2 2\n", "expected 2 squares (two numbers each) after the count, got 2 numbers"),
        ("sample/01", "2\n2 2\n2 3\n1\n", "got 5 numbers"),
        ("sample/01", "2\n2 2\n2 5\n", "queen 2 at (2, 5) is off the 4x4 board"),
        ("sample/01", "2\n0 2\n2 3\n", "queen 1 at (0, 2) is off"),
        ("sample/01", "2\n2 2\n2 2\n", "queen 2 stands on (2, 2) like an earlier queen"),
        ("sample/01", "2\n1 1\n1 2\n", "square (2, 4) is neither occupied nor attacked (2 such squares)"),
        ("sample/01", "two\n", "the number of queens must be an integer"),
        ("sample/01", "2\n2 2\n2 x\n", "token 5 must be an integer"),
        ("sample/01", "", "empty output"),
        ("sample/01", b"\x80", "not ASCII"),
    ],
)
def test_rejects_wrong_answers_with_a_reason(check_test, test, team_output, reason):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1 and reason in message, message
