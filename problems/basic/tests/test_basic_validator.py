"""The `basic` input validator: every permutation of BASIC* is valid;
anything else is rejected (exit 43) with a one-line reason."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]


def test_accepts_exactly_the_720_permutations():
    path = PACKAGE / "input_validators" / "validate" / "validate.py"
    spec = importlib.util.spec_from_file_location("basic_validate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    valid = {"".join(p) for p in itertools.permutations("BASIC*")}
    assert len(valid) == 720
    assert all(module.problem_with(board.encode() + b"\n") is None for board in valid)
    # every 6-letter word over a larger alphabet that is not a permutation is refused
    near = {"".join(p) for p in itertools.product("BASIC*X", repeat=6)} - valid
    assert all(module.problem_with(word.encode() + b"\n") for word in sorted(near)[::97])


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "newline"),
        (b"BASIC*", "newline"),
        (b"BASIC*\n\n", "exactly one line"),
        (b"BASIC*\nBASIC*\n", "exactly one line"),
        (b"BASIC* \n", "7 characters"),
        (b" BASIC*\n", "7 characters"),
        (b"BASIC*\r\n", "7 characters"),
        (b"BASIC\n", "5 characters"),
        (b"B A S I C *\n", "11 characters"),
        (b"basic*\n", "not a permutation"),
        (b"BASICC\n", "not a permutation"),
        (b"BASIC.\n", "not a permutation"),
        (b"BAS\xc3\x8d*\n", "not ASCII"),
    ],
)
def test_rejects_with_reason(input_validator, data, reason):
    code, message = input_validator(PACKAGE, data)
    assert code == 43
    assert reason in message
    assert message.count("\n") == 1
