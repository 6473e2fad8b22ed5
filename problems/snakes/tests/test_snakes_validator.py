"""The `snakes` input validator: every package input is valid; every break of the spec is
rejected (exit 43) with a one-line reason."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "data",
    [
        b"2 0\n",  # smallest board, t = 0 = n - 2
        b"3 1\n1 2\n",  # ladder straight to the last cell
        b"5 2\n3 0\n1 0\n",  # any order; two transitions may share an end
        b"100000 0\n",  # largest board
    ],
)
def test_accepts_edge_inputs(input_validator, data):
    assert input_validator(PACKAGE, data)[0] == 42


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "newline"),
        (b"2 0", "newline"),
        (b"1 0\n", "n = 1"),
        (b"100001 0\n", "n = 100001"),
        (b"5 4\n1 0\n2 0\n3 0\n4 0\n", "t = 4"),
        (b"5 1\n", "expected 1 transition lines"),
        (b"5 1\n1 2\n3 0\n", "expected 1 transition lines"),
        (b"5 0\n\n", "expected 0 transition lines"),
        (b"5 1\n0 2\n", "a = 0"),
        (b"5 1\n4 0\n", "a = 4"),
        (b"5 1\n1 5\n", "b = 5"),
        (b"5 1\n2 2\n", "a = b"),
        (b"6 2\n1 3\n1 4\n", "already starts"),
        (b"6 2\n1 3\n3 0\n", "is the a of line 3"),
        (b"6 2\n3 0\n1 3\n", "is the a of line 2"),
        (b"5 1\n1 -2\n", "'-2'"),
        (b"5 1\n01 2\n", "'01'"),
        (b"5 1\n+1 2\n", "'+1'"),
        (b"5  1\n1 2\n", "single spaces"),
        (b"5 1\n1 2 \n", "single spaces"),
        (b" 5 1\n1 2\n", "single spaces"),
        (b"5 1\n1\t2\n", "single spaces"),
        (b"5 1\r\n1 2\r\n", "'1\\r'"),
        (b"5 1\n1 2 3\n", "expected 2 integers"),
        (b"5 x\n", "'x'"),
        (b"5 1\n1 2\xff\n", "not ASCII"),
        (b"9" * 30 + b" 0\n", "not a plain non-negative integer"),
    ],
)
def test_rejects_with_reason(input_validator, data, reason):
    code, message = input_validator(PACKAGE, data)
    assert code == 43
    assert reason in message
    assert message.count("\n") == 1
