"""The `house` output validator: accepts the exact count with any Euler trail, rejects the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
ACCEPTED, WRONG_ANSWER = 42, 43


@pytest.mark.parametrize(
    "test, team_output",
    [
        # the house from vertex 2, and the judge's trail backwards
        ("sample/01", "88\n2 1 3 2 4 3 5 4 1\n"),
        ("sample/01", "88\n2 4 5 3 4 1 3 2 1\n"),
        # the triangle from another corner, the other way round
        ("sample/03", "6\n3 2 1 3\n"),
        # spacing: one line, CR LF, tabs, blank lines
        ("sample/01", "88 1 2 3 1 4 3 5 4 2"),
        ("sample/01", "88\r\n1 2 3 1 4 3 5 4 2\r\n"),
        ("sample/01", "\n88\n\n1\t2 3 1 4\n3 5 4 2\n\n"),
        ("sample/02", "0"),
    ],
)
def test_accepts_every_valid_answer(check_test, test, team_output):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "test, team_output, reason",
    [
        ("sample/01", "44\n1 2 3 1 4 3 5 4 2\n", "wrong number of Euler trails: '44', expected 88"),
        ("sample/02", "1\n1 2\n", "wrong number of Euler trails: '1', expected 0"),
        ("sample/01", "088\n1 2 3 1 4 3 5 4 2\n", "must be an integer"),
        ("sample/01", "88.0\n", "must be an integer"),
        ("sample/01", "88\n", "expected a trail of 9 vertices after the count, got 0"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4\n", "got 8"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4 2 1\n", "extra output after the answer: '1'"),
        ("sample/02", "0\n1 2\n", "extra output after the answer"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4 x\n", "vertex #8 of the trail must be an integer"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4 6\n", "vertex #8 of the trail is 6, outside 1 ... 5"),
        ("sample/01", "88\n1 2 3 1 4 3 5 2 4\n", "step 7 goes from 5 to 2, which is not an edge"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4 4\n", "step 8 goes from 4 to 4"),
        ("sample/01", "88\n1 2 3 1 4 3 5 4 3\n", "step 8 walks the edge 4-3 a second time"),
        ("sample/03", "6\n1 2 1 3\n", "step 2 walks the edge 2-1 a second time"),
        ("sample/01", "", "empty output"),
        ("sample/01", b"\x00\xff\x88", "not ASCII"),
    ],
)
def test_rejects_wrong_answers_with_a_reason(check_test, test, team_output, reason):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1 and reason in message, message
