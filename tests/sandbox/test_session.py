"""What only the session path has: one box reused by many runs (``Sandbox.session``), with each
run isolated from the others, the box's init out of the programs' reach, per-run limits and
counters, recovery from a box that died, and the fallback without cgroups. The contract it
shares with ``Sandbox.run`` is checked on both paths by the other test modules (``runner``)."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from pathlib import Path

import pytest

from sandbox import Limits, Sandbox, SandboxError
from sandbox.cgroups import WARM_S, MigrationWarmth
from sandbox.session import encode_request, reply_end
from tests.sandbox.conftest import TEST_SLOT, needs_root, place, processes_of

SYSV_SHM = r"""
#include <stdio.h>
#include <string.h>
#include <sys/shm.h>
/* make: leave a System V segment holding a note; find: print what a segment of that key holds */
int main(int argc, char **argv) {
    int id = shmget(0x4a554447, 4096, argv[1][0] == 'm' ? IPC_CREAT | 0600 : 0);
    if (id < 0) { puts("absent"); return 0; }
    char *p = shmat(id, 0, 0);
    if (argv[1][0] == 'm') strcpy(p, "note of an earlier run");
    puts(argv[1][0] == 'm' ? "made" : p);
    return 0;
}
"""

HOG = r"""
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
/* touches argv[1] MiB, then says so */
int main(int argc, char **argv) {
    int mib = atoi(argv[1]);
    for (int i = 0; i < mib; i++) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); }
    printf("%d\n", mib);
    return 0;
}
"""

SPIN = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n"


def command_name(pid: int) -> str | None:
    """/proc/PID/comm of ``pid``; None once it has exited."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def shell(session, name, script, limits=None, **kwargs):
    return session.run(["/bin/sh", "-c", script], name, limits or Limits(), **kwargs)


@needs_root
def test_runs_do_not_see_each_other(box, session_root, programs):
    with box.session(session_root, env={"PATH": "/usr/bin:/bin"}) as session:
        first = session.folder("first")
        place(programs("sysv", SYSV_SHM), first)
        made = shell(
            session, "first", "echo secret > mine; echo left > /tmp/left; echo left > /dev/shm/left; ./prog make"
        )
        assert made.stdout == b"made\n"
        second = session.folder("second")
        (second / "given.txt").write_text("the judge's input\n")
        place(programs("sysv", SYSV_SHM), second)
        probe = shell(
            session,
            "second",
            "ls -A /box; ls -A /tmp /dev/shm; ./prog find; "
            "for p in /box/../first/mine /first/mine /proc/1/root/box/first/mine /proc/1/cwd/first/mine; "
            "do cat $p 2>/dev/null || echo denied; done",
        )
        assert (first / "mine").read_text() == "secret\n"  # the earlier run's folder itself is intact
    lines = probe.stdout.decode().split("\n")
    assert sorted(lines[:2]) == ["given.txt", "prog"]  # its own folder only, at /box
    assert lines[2:5] == ["/dev/shm:", "", "/tmp:"]  # fresh, empty /tmp and /dev/shm
    assert lines[5] == "absent"  # no System V object of the earlier run
    assert lines[6:10] == ["denied"] * 4
    assert b"secret" not in probe.stdout


@needs_root
def test_tmp_and_shm_have_each_runs_size(box, session_root):
    """The zygote mounts /tmp and /dev/shm ahead with the last run's size; a run of another size
    gets its own."""
    sizes_kib = [1024, 4096, 4096, 1024, 2048]
    with box.session(session_root, env={"PATH": "/usr/bin:/bin"}) as session:
        session.folder("run")
        seen = [
            shell(
                session,
                "run",
                "df -k /tmp /dev/shm | tail -n 2; ls -A /tmp /dev/shm; touch /tmp/x /dev/shm/x",
                Limits(tmp_bytes=kib << 10),
            )
            for kib in sizes_kib
        ]
    for kib, result in zip(sizes_kib, seen, strict=True):
        lines = result.stdout.decode().splitlines()
        assert [line.split()[1] for line in lines[:2]] == [str(kib)] * 2, lines
        assert lines[2:] == ["/dev/shm:", "", "/tmp:"]  # empty: the earlier runs' files are gone


@needs_root
def test_one_box_serves_every_run_and_keeps_its_init_out_of_reach(box, session_root):
    with box.session(session_root) as session:
        session.folder("run")
        first = shell(session, "run", "echo $$")
        pids = session.box_pids[:2]  # bubblewrap and boxserver, as the slot's uid
        assert len(pids) == 2
        # the rest are zygotes (the next run's, an ended run's still exiting) and the next run's
        # process, all boxserver until exec: nothing of the run's own is left
        server_name = command_name(pids[1])
        assert [name for name in map(command_name, session.box_pids[2:]) if name not in (server_name, None)] == []
        attack = shell(
            session, "run", "kill -KILL 1; kill -STOP 1; cat /proc/1/environ; ls /proc/1/fd; ls /proc/1/root; echo done"
        )
        assert attack.stdout.endswith(b"done\n")
        assert not attack.stdout.replace(b"done\n", b"")  # nothing of boxserver could be read
        later = [shell(session, "run", "echo $$") for _ in range(5)]
        assert session.box_pids[:2] == pids  # the same box all along, still alive
        numbers = [int(result.stdout) for result in [first, *later]]
        assert numbers == [2] * 6  # each run in a PID namespace of its own, under its init
        assert all(result.exit_code == 0 and not result.limit_exceeded for result in later)
    assert processes_of(box.uid) == []  # closing the session ends the box


@needs_root
def test_limits_and_counters_are_per_run(box, session_root, programs):
    with box.session(session_root) as session:
        folder = session.folder("run")
        place(programs("session_hog", HOG), folder, "hog")
        place(programs("session_spin", SPIN), folder, "spin")
        hog = session.run(["./hog", "200"], "run", Limits(memory_kib=64 * 1024, wall_ms=10_000))
        assert hog.memory_limit_exceeded and 60 * 1024 <= hog.peak_memory_kib <= 68 * 1024
        roomy = session.run(["./hog", "100"], "run", Limits(memory_kib=256 * 1024, wall_ms=10_000))
        assert (roomy.exit_code, roomy.stdout, roomy.memory_limit_exceeded) == (0, b"100\n", False)
        assert 100 * 1024 <= roomy.peak_memory_kib < 140 * 1024
        spin = session.run(["./spin"], "run", Limits(cpu_ms=300, wall_ms=5000))
        assert spin.cpu_limit_exceeded and 300 <= spin.cpu_ms < 800
        small = session.run(["./hog", "1"], "run", Limits(cpu_ms=300))
        assert not small.limit_exceeded
        assert small.cpu_ms < 100 and small.peak_memory_kib < 16 * 1024  # nothing carried over


@needs_root
def test_a_run_keeps_cgroup_migrations_quick_and_leaves_the_judge_where_it_is(box, session_root, monkeypatch):
    """While a run goes on, the judge writes its own pid into its own cgroup every ``WARM_S``
    (``MigrationWarmth``): each write succeeds, and the judge's cgroups are what they were."""
    before = Path("/proc/self/cgroup").read_text()
    writes: list[bytes] = []

    def write(probe: MigrationWarmth) -> bool:
        os.write(probe.procs_fd, probe.pid)  # raises if the kernel refuses it
        writes.append(probe.pid)
        return False

    monkeypatch.setattr(MigrationWarmth, "exceeded", write)
    with box.session(session_root) as session:
        session.folder("run")
        result = shell(session, "run", "sleep 0.2")
    assert result.exit_code == 0 and not result.limit_exceeded
    assert len(writes) >= 0.2 / WARM_S / 4 and set(writes) == {str(os.getpid()).encode()}
    assert Path("/proc/self/cgroup").read_text() == before


@needs_root
def test_slot_is_taken_while_a_session_is_open(box, session_root, workdir):
    with box.session(session_root):
        with pytest.raises(SandboxError, match="session open"):
            box.run(["/bin/true"], workdir, Limits())
        with pytest.raises(SandboxError, match="already has a session"):
            box.session(session_root)
    assert box.run(["/bin/true"], workdir, Limits()).exit_code == 0


@needs_root
def test_a_box_that_died_is_set_up_again(box, session_root):
    with box.session(session_root) as session:
        session.folder("run")
        assert shell(session, "run", "echo one").stdout == b"one\n"
        bwrap_pid, server_pid = session.box_pids[:2]
        os.kill(server_pid, signal.SIGKILL)  # as if the box had crashed between two tests
        deadline = time.monotonic() + 5
        while session.box_pids and time.monotonic() < deadline:
            time.sleep(0.01)
        result = shell(session, "run", "echo two")
        assert (result.exit_code, result.stdout) == (0, b"two\n")
        assert session.box_pids and session.box_pids[0] != bwrap_pid


@needs_root
def test_run_folders_are_checked(box, session_root, work_root):
    with box.session(session_root) as session:
        for name in ("", ".", "..", "a/b", "../x"):
            with pytest.raises(ValueError):
                session.run(["/bin/true"], name)
        with pytest.raises(SandboxError, match="does not exist"):
            session.run(["/bin/true"], "missing")
        (session_root / "link").symlink_to(work_root)
        with pytest.raises(SandboxError, match="not a folder"):
            session.run(["/bin/true"], "link")
        session.folder("run")
        pids = session.box_pids[:2]
        with pytest.raises(SandboxError, match="could not start the program.*No such file"):
            session.run(["./absent"], "run")
        assert session.run(["/bin/true"], "run").exit_code == 0
        assert session.box_pids[:2] == pids  # a program that could not start leaves the box as it was


@needs_root
@pytest.mark.slow
def test_session_without_cgroups_falls_back_to_one_shot_runs(session_root, caplog, monkeypatch):
    from sandbox import notices

    monkeypatch.setattr(notices, "_warned", set())
    with (
        caplog.at_level("WARNING"),
        Sandbox(slot=TEST_SLOT + 4, use_cgroups=False) as plain,
        plain.session(session_root) as session,
    ):
        assert "no set-up is reused" in caplog.text
        session.folder("run")
        result = shell(session, "run", "echo $$; echo hi > /tmp/x; cat /tmp/x")
        assert result.stdout.split() == [b"2", b"hi"]  # a box of its own: boxinit is 1
        assert session.box_pids == ()
    assert processes_of(61000 + TEST_SLOT + 4, zombies=False) == []


def test_requests_are_checked_before_they_are_sent():
    request = encode_request("t01", 4096, [(1, 2, 3)], {"PATH": "/bin"}, ["./prog", "x"])
    assert request == b"t01\x004096\x001\x001:2:3\x001\x00PATH=/bin\x002\x00./prog\x00x\x00"
    with pytest.raises(ValueError):
        encode_request("t01", 4096, [], {}, ["./prog", "a\0b"])
    with pytest.raises(ValueError):
        encode_request("t01", 4096, [], {"A=B": "c"}, ["./prog"])
    with pytest.raises(ValueError):
        encode_request("t01", 4096, [], {}, ["./prog", "x" * (256 * 1024)])


def test_replies_are_read_as_the_program_end():
    assert reply_end("exit 3\n") == (3, None)
    assert reply_end("signal 9\n") == (None, 9)
    with pytest.raises(SandboxError, match="No such file"):
        reply_end("exec-failed 2\n")
    with pytest.raises(SandboxError, match="refused"):
        reply_end("refused 16\n")
    with pytest.raises(SandboxError, match="unreadable"):
        reply_end("garbage\n")


@needs_root
def test_a_box_that_cannot_start_is_an_error_and_frees_the_slot(box, session_root, workdir, monkeypatch):
    broken = dataclasses.replace(box.helpers, boxserver=Path("/bin/false"))  # never says "ready"
    monkeypatch.setattr(box, "helpers", broken)
    with pytest.raises(SandboxError, match="could not set up the session box"):
        box.session(session_root)
    monkeypatch.undo()
    assert box.session_open is None
    assert box.run(["/bin/true"], workdir, Limits()).exit_code == 0
    assert processes_of(box.uid) == []
