"""Isolation: identity and namespaces, what the box sees of the host, descriptors, /tmp and
/proc. Each case runs a real program through both paths (``Sandbox.run`` and ``Session.run``,
the ``runner`` fixture)."""

from __future__ import annotations

import os

from sandbox import Limits
from tests.sandbox.conftest import assert_slot_clean, needs_root, place

pytestmark = needs_root

OPEN_FDS = r"""
#include <fcntl.h>
#include <stdio.h>
int main(void) { for (int fd = 0; fd < 4096; fd++) if (fcntl(fd, F_GETFD) != -1) printf("%d\n", fd); return 0; }
"""


def shell(runner, workdir, script, limits=None, **kwargs):
    return runner.run(["/bin/sh", "-c", script], workdir, limits or Limits(), **kwargs)


def status_field(text: str, name: str) -> str:
    return next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith(name + ":"))


def test_namespaces_and_identity(runner, workdir):
    script = (
        "id -u; id -G; hostname; cat /proc/self/status; "
        "for ns in pid net ipc uts mnt user; do readlink /proc/self/ns/$ns; done"
    )
    result = shell(runner, workdir, script)
    out = result.stdout.decode().splitlines()
    assert out[0] == out[1] == str(runner.uid)  # the slot's uid, no supplementary groups
    assert out[2] == "box"
    status = result.stdout.decode()
    assert int(status_field(status, "CapEff"), 16) == 0
    assert int(status_field(status, "CapPrm"), 16) == 0
    assert int(status_field(status, "CapBnd"), 16) == 0
    assert int(status_field(status, "CapAmb"), 16) == 0
    assert status_field(status, "NoNewPrivs") == "1"
    assert status_field(status, "Seccomp") == "2"
    inside = out[-6:]
    outside = [os.readlink(f"/proc/self/ns/{ns}") for ns in ("pid", "net", "ipc", "uts", "mnt", "user")]
    assert all(a != b for a, b in zip(inside, outside)), (inside, outside)
    assert_slot_clean(runner, workdir)


def test_nested_namespaces_cannot_be_made(runner, workdir):
    result = shell(runner, workdir, "for f in -U -Ur -m -n -p; do unshare $f true 2>/dev/null; echo $?; done")
    assert result.stdout.split() == [b"1"] * 5


def test_only_standard_descriptors_are_open(runner, workdir, programs):
    result = runner.run(place(programs("openfds", OPEN_FDS), workdir), workdir, Limits())
    assert result.stdout == b"0\n1\n2\n"


def test_host_files_are_invisible(runner, workdir):
    result = shell(runner, workdir, "ls -A /; ls -A /etc")
    entries = set(result.stdout.decode().split())
    assert {"box", "usr", "tmp", "proc", "dev"} <= entries
    assert not entries & {"home", "root", "work", "var", "srv", "mnt", "shadow", "passwd", "ssh", "hostname"}


def test_system_folders_are_read_only(runner, workdir):
    result = shell(runner, workdir, "touch /usr/bin/x /bin/x /etc/x /lib/x 2>&1; echo done")
    assert result.stdout.count(b"Read-only file system") == 4


def test_proc_shows_only_the_box(runner, workdir):
    result = shell(runner, workdir, "ls /proc | grep -c '^[0-9]'")
    assert int(result.stdout) <= 4  # boxinit, sh, ls, grep


def test_tmp_is_private_and_capped(runner, workdir):
    limits = Limits(tmp_bytes=4 << 20)
    first = shell(runner, workdir, "echo secret > /tmp/note; df -k /tmp | tail -1", limits)
    assert first.stdout.split()[1] == b"4096"
    second = shell(runner, workdir, "cat /tmp/note 2>&1 || echo gone", limits)
    assert second.stdout.endswith(b"gone\n")
    assert_slot_clean(runner, workdir)


def test_environment_is_only_what_was_given(runner, workdir):
    result = runner.run(["/usr/bin/env"], workdir, Limits(), env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    # PWD is set by bubblewrap's --chdir to the box's own folder
    assert sorted(result.stdout.decode().split()) == ["LANG=C.UTF-8", "PATH=/usr/bin:/bin", "PWD=/box"]


def test_workdir_belongs_to_the_slot_and_is_private(runner, workdir):
    shell(runner, workdir, "true")
    info = os.stat(workdir)
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (runner.uid, runner.gid, 0o700)
