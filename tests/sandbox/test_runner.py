"""Sandbox.run's contract: results, errors, slot ownership, reuse of a slot across runs."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import Limits, Sandbox, SandboxError
from tests.sandbox.conftest import TEST_SLOT, needs_root

pytestmark = needs_root


def test_exit_code_stdout_and_stderr_are_reported(box, workdir):
    result = box.run(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], workdir, Limits())
    assert result.exit_code == 3
    assert result.signal is None
    assert result.stdout == b"out\n"
    assert result.stderr == b"err\n"
    assert not result.limit_exceeded


def test_stdin_file_is_standard_input(box, workdir, work_root):
    given = work_root / "stdin-file.txt"
    given.write_bytes(b"3 4\n")
    result = box.run(["/bin/sh", "-c", "read a b; echo $((a*b))"], workdir, Limits(), stdin=given)
    assert result.stdout == b"12\n"


def test_no_stdin_means_empty_input(box, workdir):
    result = box.run(["/bin/sh", "-c", "cat | wc -c"], workdir, Limits())
    assert result.stdout.strip() == b"0"


def test_files_written_in_box_appear_in_workdir(box, workdir):
    result = box.run(["/bin/sh", "-c", "echo 42 > output.txt"], workdir, Limits())
    assert result.exit_code == 0
    assert (workdir / "output.txt").read_bytes() == b"42\n"
    assert (workdir / "output.txt").stat().st_uid == box.uid


def test_missing_command_is_a_sandbox_error(box, workdir):
    with pytest.raises(SandboxError, match="could not start the program.*No such file"):
        box.run(["./no-such-program"], workdir, Limits())
    # the slot still works afterwards
    assert box.run(["/bin/true"], workdir, Limits()).exit_code == 0


def test_missing_readonly_bind_is_a_sandbox_error(box, workdir):
    with pytest.raises(SandboxError, match="does not exist"):
        box.run(["/bin/true"], workdir, Limits(), readonly_binds=[Path("/no/such/folder")])


def test_unreachable_workdir_is_a_clear_error(box, workdir):
    # a folder private to root above the work folder: the slot uid cannot pass it
    inner = workdir / "private" / "w"
    inner.mkdir(parents=True)
    os.chmod(workdir / "private", 0o700)
    with pytest.raises(SandboxError, match="cannot be reached"):
        box.run(["/bin/true"], inner, Limits())


def test_a_slot_cannot_be_opened_twice(box):
    with pytest.raises(SandboxError, match="already in use"):
        Sandbox(slot=TEST_SLOT)


def test_closed_slot_can_be_opened_again():
    first = Sandbox(slot=TEST_SLOT + 1)
    first.close()
    with Sandbox(slot=TEST_SLOT + 1) as again:
        assert again.uid == 61000 + TEST_SLOT + 1


def test_exit_status_above_128_is_read_as_signal_only_when_bwrap_says_so(box, workdir):
    result = box.run(["/bin/sh", "-c", "kill -SEGV $$"], workdir, Limits())
    assert result.signal == 11 and result.signal_name == "SIGSEGV"
    assert result.exit_code is None
