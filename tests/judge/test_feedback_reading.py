"""The judge reads an output validator's feedback.json: a JSON object of at most 256 KiB is carried
on the check result; anything else is ignored with a log line and never changes the verdict."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from judge.checkers import FEEDBACK_LIMIT_BYTES, read_feedback
from tests.validator_box import needs_root, validator_box_fixture

VALIDATOR = """
import sys
open(sys.argv[3] + "judgemessage.txt", "w").write("always wrong\\n")
open(sys.argv[3] + "feedback.json", "wb").write({payload!r})
sys.exit(43)
"""


def validator(tmp_path: Path, payload: bytes) -> Path:
    program = tmp_path / "check.py"
    program.write_text(VALIDATOR.format(payload=payload))
    for name in ("in", "ans", "out"):
        (tmp_path / name).write_text("1\n")
    return program


box = validator_box_fixture(65)


@needs_root
@pytest.mark.parametrize(
    "payload, logged",
    [
        (b'{"kind": "lee", "version": 1}', None),
        (b"[1, 2, 3]", "not an object"),
        (b'{"kind": ', "not JSON"),
        (b'{"x": NaN}', "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b'{"pad": "' + b"x" * FEEDBACK_LIMIT_BYTES + b'"}', "over"),
    ],
)
def test_only_a_bounded_json_object_is_kept_and_the_verdict_stands(box, tmp_path, caplog, payload, logged):
    program = validator(tmp_path, payload)
    with caplog.at_level(logging.WARNING, logger="judge.checkers"):
        result = box.validators.check(program, tmp_path / "in", tmp_path / "ans", tmp_path / "out")
    assert (result.verdict, result.message) == ("WA", "always wrong")
    if logged is None:
        assert result.feedback == {"kind": "lee", "version": 1} and not caplog.records
    else:
        assert result.feedback is None and logged in caplog.text


def test_deep_nesting_under_the_cap_is_ignored_not_a_crash(tmp_path, caplog):
    (tmp_path / "feedback.json").write_bytes(b"[" * 50_000 + b"]" * 50_000)
    with caplog.at_level(logging.WARNING, logger="judge.checkers"):
        assert read_feedback(tmp_path / "feedback.json") is None
    assert "not JSON" in caplog.text


def test_no_file_is_no_feedback(tmp_path):
    assert read_feedback(tmp_path / "feedback.json") is None


@pytest.mark.parametrize("plant", ["symlink", "hardlink", "fifo"])
def test_a_planted_link_or_fifo_is_never_followed(tmp_path, caplog, plant):
    secret = tmp_path / "secret.json"
    secret.write_text('{"database": "postgresql://judge:pw@db/judge"}')
    feedback = tmp_path / "feedback.json"
    {"symlink": feedback.symlink_to, "hardlink": feedback.hardlink_to}.get(plant, lambda _: os.mkfifo(feedback))(secret)
    with caplog.at_level(logging.WARNING, logger="judge.checkers"):
        assert read_feedback(feedback) is None
    assert caplog.records
