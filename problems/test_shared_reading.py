"""What every package checker shares with the default checker (docs/conventions.md "Checkers"):
the same reading of bytes and numbers, and the same policy for byte order marks and CR LF.

A package checker runs from its package alone (problemtools, other judges), so the shared reading is
a block of code repeated in each checker; here every copy is proven identical to the one in
``judge/checkers.py``, and each package is run on jury files and team output carrying a UTF-8 byte
order mark or CR LF line ends.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.checkers import default_check, float_token, integer_token
from judge.verdicts import AC

PROBLEMS = Path(__file__).resolve().parent
CHECKERS = sorted(PROBLEMS.glob("*/output_validators/*/*.py"))
PACKAGES = sorted(path.parent for path in PROBLEMS.glob("*/problem.yaml"))
BLOCK = re.compile(r"^# >>> shared reading.*?^# <<< shared reading$", re.MULTILINE | re.DOTALL)
BOM = b"\xef\xbb\xbf"
ACCEPTED, WRONG_ANSWER, INVALID = 42, 43, 43


def shared_block(path: Path) -> str:
    """The text of the shared reading block in a Python file (fails the test when there is none)."""
    found = BLOCK.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path}: expected one shared reading block, found {len(found)}"
    return found[0]


def test_every_package_has_a_checker_in_the_shared_list():
    assert [path.parents[2] for path in CHECKERS] == PACKAGES and len(PACKAGES) == 9


@pytest.mark.parametrize("checker", CHECKERS, ids=lambda path: path.parents[2].name)
def test_each_checker_repeats_the_shared_reading_exactly(checker):
    assert shared_block(checker) == shared_block(PROBLEMS.parent / "judge" / "checkers.py")


@pytest.mark.parametrize("token, value", [(b"0", 0), (b"7", 7), (b"-12", -12), (b"9" * 100, int("9" * 100))])
def test_integer_grammar_accepts(token, value):
    assert integer_token(token) == value and integer_token(token.decode()) == value


@pytest.mark.parametrize(
    "token",
    [b"+92", b"-0", b"007", b"1_000", b"\xd9\xa9\xd9\xa2", b" 1", b"1\n", b"1.0", b"1e3", b"0x1F", b"9" * 101, b""],
)
def test_integer_grammar_refuses(token):
    assert integer_token(token) is None


@pytest.mark.parametrize(
    "token, value", [(b"0", 0.0), (b"-0.5", -0.5), (b"3.25", 3.25), (b"1e-3", 0.001), (b"2E+2", 200.0), (b"-0.0", 0.0)]
)
def test_float_grammar_accepts(token, value):
    assert float_token(token) == value


@pytest.mark.parametrize("token", [b"+1.5", b".5", b"5.", b"01.5", b"1e", b"1e1000", b"inf", b"nan", b"1,5", b"0x1p3"])
def test_float_grammar_refuses(token):
    assert float_token(token) is None


def with_bom(data: bytes) -> bytes:
    """`data` after a UTF-8 byte order mark."""
    return BOM + data


def with_crlf(data: bytes) -> bytes:
    """`data` with CR LF line ends."""
    return data.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
@pytest.mark.parametrize("jury, team", [(with_bom, None), (with_crlf, None), (None, with_bom), (None, with_crlf)])
def test_byte_order_mark_and_crlf_never_change_the_verdict(output_validator, package, jury, team, tmp_path):
    test = package / "data" / "sample" / "01"
    answer = test.with_suffix(".ans").read_bytes()
    input_path, answer_path = tmp_path / "01.in", tmp_path / "01.ans"
    input_path.write_bytes(jury(test.with_suffix(".in").read_bytes()) if jury else test.with_suffix(".in").read_bytes())
    answer_path.write_bytes(jury(answer) if jury else answer)
    code, message = output_validator(package, input_path, answer_path, team(answer) if team else answer)
    assert code == ACCEPTED, message
    wrong = b"garbage\n"
    assert output_validator(package, input_path, answer_path, wrong)[0] == WRONG_ANSWER


@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
@pytest.mark.parametrize("alter", [with_bom, with_crlf])
def test_input_validators_refuse_a_byte_order_mark_and_crlf(input_validator, package, alter):
    data = (package / "data" / "sample" / "01.in").read_bytes()
    assert input_validator(package, data)[0] == 42
    assert input_validator(package, alter(data))[0] == INVALID


@pytest.mark.parametrize("answer", [with_bom(b"1 2\n"), with_crlf(b"1\n2\n")])
def test_default_checker_reads_jury_bytes_the_same_way(answer):
    assert default_check(b"1 2\n", answer).verdict == AC
    assert default_check(with_bom(b"1\r\n2"), answer).verdict == AC
