"""Sandbox.run's contract: results, errors, slot ownership, reuse of a slot across runs (the
contract shared with Session.run is checked on both paths: the ``runner`` fixture)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from sandbox import Limits, Sandbox, SandboxError
from tests.sandbox.conftest import TEST_SLOT, needs_root, processes_of

pytestmark = needs_root


def test_exit_code_stdout_and_stderr_are_reported(runner, workdir):
    result = runner.run(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], workdir, Limits())
    assert result.exit_code == 3
    assert result.signal is None
    assert result.stdout == b"out\n"
    assert result.stderr == b"err\n"
    assert not result.limit_exceeded


def test_stdin_file_is_standard_input(runner, workdir, work_root):
    given = work_root / "stdin-file.txt"
    given.write_bytes(b"3 4\n")
    result = runner.run(["/bin/sh", "-c", "read a b; echo $((a*b))"], workdir, Limits(), stdin=given)
    assert result.stdout == b"12\n"


def test_no_stdin_means_empty_input(runner, workdir):
    result = runner.run(["/bin/sh", "-c", "cat | wc -c"], workdir, Limits())
    assert result.stdout.strip() == b"0"


def test_files_written_in_box_appear_in_workdir(runner, workdir):
    result = runner.run(["/bin/sh", "-c", "echo 42 > output.txt"], workdir, Limits())
    assert result.exit_code == 0
    assert (workdir / "output.txt").read_bytes() == b"42\n"
    assert (workdir / "output.txt").stat().st_uid == runner.uid


def test_missing_command_is_a_sandbox_error(runner, workdir):
    with pytest.raises(SandboxError, match="could not start the program.*No such file"):
        runner.run(["./no-such-program"], workdir, Limits())
    # the slot still works afterwards
    assert runner.run(["/bin/true"], workdir, Limits()).exit_code == 0


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


def test_exit_status_above_128_is_read_as_signal_only_when_bwrap_says_so(runner, workdir):
    result = runner.run(["/bin/sh", "-c", "kill -SEGV $$"], workdir, Limits())
    assert result.signal == 11 and result.signal_name == "SIGSEGV"
    assert result.exit_code is None


SPIN = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n"
HOG = (
    "#include <stdlib.h>\n#include <string.h>\n"
    "int main(void) { for (;;) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); } }\n"
)


@pytest.mark.slow
def test_runs_without_cgroups_with_a_warning(workdir, programs, caplog, monkeypatch):
    from sandbox import notices

    monkeypatch.setattr(notices, "_warned", set())
    with caplog.at_level("WARNING"), Sandbox(slot=TEST_SLOT + 2, use_cgroups=False) as plain:
        assert plain.cgroup_kind is None
        assert "without cgroups" in caplog.text
        ok = plain.run(["/bin/sh", "-c", "echo hi"], workdir, Limits())
        assert (ok.exit_code, ok.stdout) == (0, b"hi\n")
        # CPU: RLIMIT_CPU per process, a whole second above the limit (weaker than the watchdog)
        shutil.copy(programs("spin", SPIN), workdir / "spin")
        spin = plain.run(["./spin"], workdir, Limits(cpu_ms=300, wall_ms=10_000))
        assert spin.cpu_limit_exceeded and spin.signal in (signal.SIGXCPU, signal.SIGKILL)
        # memory: RLIMIT_DATA makes malloc fail instead of an OOM kill
        shutil.copy(programs("hog", HOG), workdir / "hog")
        hog = plain.run(["./hog"], workdir, Limits(memory_kib=64 * 1024, wall_ms=10_000))
        assert hog.exit_code == 3 and hog.peak_memory_kib < 80 * 1024  # RSS counts the libraries too
    assert processes_of(61000 + TEST_SLOT + 2) == []


def test_runs_without_helpers(workdir):
    with Sandbox(slot=TEST_SLOT + 3, use_helpers=False) as bare:
        aborted = bare.run(["/bin/sh", "-c", "kill -ABRT $$"], workdir, Limits())
        assert (aborted.exit_code, aborted.signal) == (None, signal.SIGABRT)
        # without boxinit the 128+n convention cannot be told from a real exit code
        fake = bare.run(["/bin/sh", "-c", "exit 134"], workdir, Limits())
        assert (fake.exit_code, fake.signal) == (None, signal.SIGABRT)
        assert bare.run(["/bin/sleep", "5"], workdir, Limits(wall_ms=200)).wall_limit_exceeded
    # bubblewrap's reaper is left to the host's init to reap: dead, but maybe not yet reaped
    assert processes_of(61000 + TEST_SLOT + 3, zombies=False) == []


UNPRIVILEGED_SCRIPT = """
import logging, sys
from pathlib import Path
logging.basicConfig(level=logging.WARNING)
from sandbox import Sandbox, Limits
with Sandbox(slot=0) as box:
    assert box.uid is None and box.cgroup_kind is None
    result = box.run(["/bin/sh", "-c", "id -u; echo $$"], Path(sys.argv[1]), Limits(cpu_ms=1000))
    print(result.exit_code, *result.stdout.decode().split())
"""


def test_runs_without_root(work_root):
    """A teacher's laptop: no root, so no uid drop and no cgroups; bubblewrap still isolates."""
    user = 61990  # an unused slot's uid, as a stand-in for a teacher's own account
    home = work_root / "unprivileged-home"
    home.mkdir()
    folder = home / "work"
    folder.mkdir()
    os.chown(home, user, user)
    os.chown(folder, user, user)
    try:
        done = subprocess.run(
            ["/usr/bin/python3", "-c", UNPRIVILEGED_SCRIPT, str(folder)],
            user=user,
            group=user,
            extra_groups=[],
            capture_output=True,
            text=True,
            timeout=120,
            env={
                "PYTHONPATH": str(Path(__file__).parents[2]),
                "HOME": str(home),
                "PATH": "/usr/bin:/bin",
                "XDG_RUNTIME_DIR": str(home),
            },
        )
        assert done.returncode == 0, done.stderr
        exit_code, uid, pid = done.stdout.split()
        assert (exit_code, uid) == ("0", str(user))
        assert int(pid) <= 3  # inside a PID namespace of its own
        assert "without root" in done.stderr
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_peak_memory_without_cgroups_is_the_programs_not_the_judges(workdir, programs):
    """Linux keeps a process's high-water RSS across exec, so bubblewrap's rusage starts at the
    judge's own size; the peak must come from the program alone (boxinit's report)."""
    ballast = bytearray(300 << 20)  # make the judge's process large, as a long test run does
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    with Sandbox(slot=TEST_SLOT + 3, use_cgroups=False) as plain:
        shutil.copy(programs("hog", HOG), workdir / "hog")
        hog = plain.run(["./hog"], workdir, Limits(memory_kib=64 * 1024, wall_ms=10_000))
    assert hog.exit_code == 3 and 1024 < hog.peak_memory_kib < 80 * 1024
    del ballast
