"""The generic checker-audit outputs of ``judge.audit``: every wrong output really differs from the
judge answer in its tokens, every re-formatting keeps them."""

from __future__ import annotations

import pytest

from judge.audit import HUGE_NUMBER, reformatted_outputs, wrong_outputs

ANSWERS = [b"12\n1 1\n1 2\n2 2\n", b"-1\n", b"Y\n+++\n.O+\n@.+\n", b"92\n1 5 8 6 3 7 2 4\n"]


@pytest.mark.parametrize("answer", ANSWERS)
def test_every_wrong_output_changes_the_tokens(answer):
    outputs = wrong_outputs(answer)
    assert outputs, "a non-empty answer always has wrong outputs"
    for item in outputs:
        assert item.output.split() != answer.split(), item.kind
    assert len({tuple(item.output.split()) for item in outputs}) == len(outputs)  # no tokens tried twice


def test_wrong_outputs_of_a_path_answer():
    answer = b"2\n1 1\n1 2\n1 3\n"
    by_kind = {item.kind: item.output for item in wrong_outputs(answer)}
    assert by_kind["empty output"] == b""
    assert by_kind["last token dropped"] == b"2\n1 1\n1 2\n1\n"
    assert by_kind["last line dropped"] == b"2\n1 1\n1 2\n"
    assert by_kind["extra token"] == answer + b"1\n"
    assert by_kind["first token replaced by x"] == b"x\n1 1\n1 2\n1 3\n"
    assert by_kind["last token replaced by a huge number"].split()[-1] == HUGE_NUMBER
    assert b"\x00" in by_kind["middle token replaced by binary bytes"]


def test_a_one_token_answer_keeps_only_distinct_mutations():
    outputs = wrong_outputs(b"-1\n")
    kinds = [item.kind for item in outputs]
    # dropping the only token or the only line both give the empty output: tried once
    assert kinds.count("empty output") == 1 and "last token dropped" not in kinds and "last line dropped" not in kinds
    assert b"-1\n1\n" in [item.output for item in outputs]


@pytest.mark.parametrize("answer", ANSWERS)
def test_reformatted_outputs_keep_tokens_and_change_bytes(answer):
    variants = {item.kind: item.output for item in reformatted_outputs(answer)}
    assert set(variants) == {"CRLF line endings", "no final newline", "trailing spaces"}
    for kind, output in variants.items():
        assert output != answer, kind
        assert output.split() == answer.split(), kind
    assert b"\r\n" in variants["CRLF line endings"] and not variants["no final newline"].endswith(b"\n")


def test_empty_answer_has_only_the_extra_token_and_no_reformatting():
    assert [item.kind for item in wrong_outputs(b"")] == ["extra token"]
    assert reformatted_outputs(b"\n") == []
