"""The `snakes` output validator: accepts the exact number in any whitespace layout, rejects
everything else with a one-line reason (Kattis exit codes 42/43)."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
SECRET = PACKAGE / "data" / "secret"


def judge_files(name: str) -> tuple[Path, Path]:
    """Return (input, judge answer) paths of a secret test."""
    return SECRET / f"{name}.in", SECRET / f"{name}.ans"


@pytest.mark.parametrize("team", [b"2", b"2\n", b"  2  ", b"\t2\r\n", b"\n\n2\n\n", b"\xef\xbb\xbf2\r\n"])
def test_accepts_the_right_number_in_any_layout(output_validator, team):
    # 03-two-throws: 8 cells, no transitions, so exactly 2 throws (e.g. 6 then 1)
    code, message = output_validator(PACKAGE, *judge_files("03-two-throws"), team)
    assert (code, message) == (42, "")


def test_accepts_minus_one_when_unreachable(output_validator):
    code, _ = output_validator(PACKAGE, *judge_files("08-six-snakes-wall"), b"-1\n")
    assert code == 42


@pytest.mark.parametrize(
    ("team", "reason"),
    [
        (b"3\n", "wrong number of throws: 3, expected 2"),
        (b"1\n", "wrong number of throws: 1, expected 2"),
        (b"-1\n", "wrong number of throws: -1, expected 2"),
        (b"2 2\n", "extra output"),
        (b"2\nthrows\n", "extra output"),
        (b"", "empty output"),
        (b"   \n\r\n", "empty output"),
        (b"two\n", "not an integer"),
        (b"2.0\n", "not an integer"),
        (b"+2\n", "not an integer"),
        (b"02\n", "not an integer"),
        (b"-0\n", "not an integer"),
        (b"\xd9\xa2\n", "not an integer"),
        (b"\xff\xfe\x00\x01", "not an integer"),
        (b"9" * 5000 + b"\n", "not an integer"),
    ],
)
def test_rejects_with_reason(output_validator, team, reason):
    code, message = output_validator(PACKAGE, *judge_files("03-two-throws"), team)
    assert code == 43
    assert reason in message
    assert message.count("\n") == 1  # one line for the teacher


def test_rejects_a_number_when_the_board_is_blocked(output_validator):
    code, message = output_validator(PACKAGE, *judge_files("08-six-snakes-wall"), b"9\n")
    assert code == 43
    assert "expected -1" in message
