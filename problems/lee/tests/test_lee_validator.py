"""The `lee` input validator: inputs at the bounds pass, inputs outside the contract fail."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
VALID, INVALID = 42, 43

# A small valid input (3x4, one wall), altered one way per case below.
GOOD = b"3 4\n0 0 0 0\n0 1 0 0\n0 0 0 0\n1 1\n3 4\n"


def test_accepts_the_base_case_and_the_extremes(input_validator):
    one_cell = b"1 1\n0\n1 1\n1 1\n"
    largest = b"100 100\n" + (b" ".join([b"0"] * 100) + b"\n") * 100 + b"100 100\n1 1\n"
    for data in (GOOD, one_cell, largest):
        code, reason = input_validator(PACKAGE, data)
        assert code == VALID, reason


MALFORMED = {
    "trailing space": (GOOD.replace(b"0 0 0 0\n", b"0 0 0 0 \n", 1), "empty field"),
    "leading space": (GOOD.replace(b"\n1 1\n", b"\n 1 1\n"), "empty field"),
    "double space": (GOOD.replace(b"0 1 0 0", b"0 1  0 0"), "empty field"),
    "tab separator": (GOOD.replace(b"0 1 0 0", b"0\t1 0 0"), "fields"),
    "crlf line ends": (GOOD.replace(b"\n", b"\r\n"), "plain integer"),
    "no final newline": (GOOD[:-1], "newline"),
    "blank line at the end": (GOOD + b"\n", "extra line"),
    "extra line at the end": (GOOD + b"1 1\n", "extra line"),
    "blank line inside": (GOOD.replace(b"\n1 1\n", b"\n\n1 1\n"), "empty field"),
    "zero rows": (b"0 4\n1 1\n1 1\n", "outside"),
    "too many columns": (b"1 101\n" + b" ".join([b"0"] * 101) + b"\n1 1\n1 2\n", "outside"),
    "cell value 2": (GOOD.replace(b"0 1 0 0", b"0 2 0 0"), "outside"),
    "cell value 00": (GOOD.replace(b"0 1 0 0", b"0 1 00 0"), "plain integer"),
    "negative cell": (GOOD.replace(b"0 1 0 0", b"0 -1 0 0"), "plain integer"),
    "short row": (GOOD.replace(b"0 1 0 0", b"0 1 0"), "fields"),
    "long row": (GOOD.replace(b"0 1 0 0", b"0 1 0 0 0"), "fields"),
    "missing row": (b"3 4\n0 0 0 0\n0 0 0 0\n1 1\n3 4\n", "fields"),
    "missing cheese line": (b"3 4\n0 0 0 0\n0 1 0 0\n0 0 0 0\n1 1\n", "missing"),
    "mouse on a wall": (GOOD.replace(b"\n1 1\n", b"\n2 2\n"), "wall"),
    "cheese on a wall": (GOOD[:-4] + b"2 2\n", "wall"),
    "cheese outside": (GOOD[:-4] + b"4 4\n", "outside"),
    "mouse column zero": (GOOD.replace(b"\n1 1\n", b"\n1 0\n"), "outside"),
    "plus sign": (GOOD.replace(b"\n1 1\n", b"\n+1 1\n"), "plain integer"),
    "non-ascii": (GOOD.replace(b"0 1 0 0", b"0 1 0 \xc3\xa9"), "non-ascii"),
    "empty input": (b"", "newline"),
}


@pytest.mark.parametrize("data, reason_words", MALFORMED.values(), ids=MALFORMED.keys())
def test_rejects_input_outside_the_contract(input_validator, data, reason_words):
    code, reason = input_validator(PACKAGE, data)
    assert code == INVALID
    assert reason_words in reason.lower()
    assert reason.strip() and reason.count("\n") == 1  # one-line reason on stderr
