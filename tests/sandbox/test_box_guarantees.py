"""The box a submission's runs share: folders any program can leave behind are removed, disk is
counted by what is allocated and capped, nothing in the box names a test, and a program gets no
network socket and no pseudo-terminal. Through both paths (``runner``) where both give the
guarantee, through a session with its own disk where only that path does.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import Limits, Sandbox, clear_folder
from sandbox import tree as tree_module
from sandbox.disk import TOO_LARGE, filesystem_usage
from sandbox.tree import MAX_DEPTH, remove_tree, tree_usage, walk_files

from .conftest import TEST_SLOT, needs_root, place

FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02
GIB = 1 << 30
# the host's free disk may move this much while a test runs (other processes of the machine);
# each attack below tries to take a whole GiB
DISK_SLACK = 128 << 20

# reserves disk with fallocate on each path given (or fd 0/1/2 for "-"), reports each errno
FALLOCATE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int mode = atoi(argv[1]);
    for (int i = 2; i < argc; i++) {
        int fd = strcmp(argv[i], "-") == 0 ? 1 : open(argv[i], O_RDWR | O_CREAT, 0644);
        int done = fallocate(fd, mode, 0, 1L << 30);
        fprintf(stderr, "%s %d\n", argv[i], done == 0 ? 0 : errno);
    }
    puts("done");
    return 0;
}
"""
# makes a folder chain N deep: "chdir" (mkdir + chdir), or "at" (mkdirat + openat, no cwd, each
# level holding a file and made mode 000 once entered)
DEEP = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int n = atoi(argv[2]), i = 0;
    if (strcmp(argv[1], "chdir") == 0) {
        for (; i < n && mkdir("d", 0755) == 0 && chdir("d") == 0; i++)
            ;
    } else {
        int fd = open(".", O_RDONLY | O_DIRECTORY);
        for (; i < n && mkdirat(fd, "deeper-folder-name", 0700) == 0; i++) {
            int next = openat(fd, "deeper-folder-name", O_RDONLY | O_DIRECTORY);
            if (next < 0) break;
            int file = openat(next, "f", O_WRONLY | O_CREAT, 0);
            if (file >= 0) close(file);
            fchmod(fd, 0);  /* each level left unreadable behind it */
            close(fd);
            fd = next;
        }
    }
    printf("%d\n", i);
    return 0;
}
"""
SOCKETS = r"""
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
int main(void) {
    int families[] = {AF_INET, AF_INET6, 40 /* AF_VSOCK */, AF_NETLINK, AF_PACKET, AF_UNIX};
    for (int i = 0; i < 6; i++) {
        int fd = socket(families[i], SOCK_STREAM, 0);
        if (fd < 0 && families[i] != AF_UNIX)
            fd = socket(families[i], SOCK_DGRAM, 0);
        printf("%d %d\n", families[i], fd >= 0 ? 0 : errno);
    }
    int pair[2];
    printf("pair-unix %d\n", socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0 ? 0 : errno);
    printf("pair-inet %d\n", socketpair(AF_INET, SOCK_STREAM, 0, pair) == 0 ? 0 : errno);
    return 0;
}
"""


def free_bytes(path: Path) -> int:
    info = os.statvfs(path)
    return info.f_bavail * info.f_frsize


def fallocate(fd: int, mode: int, length: int) -> int:
    """fallocate(2) on the host: 0 or the errno."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = libc.fallocate(fd, mode, ctypes.c_long(0), ctypes.c_long(length))
    return 0 if done == 0 else ctypes.get_errno()


def make_deep(folder: Path, depth: int, name: str = "d") -> None:
    """A chain of ``depth`` folders under ``folder``, made through descriptors (no path is
    ever longer than one name); every 500th level holds a file, every 700th is mode 000."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    for level in range(depth):
        os.mkdir(name, dir_fd=fd)
        deeper = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        if level % 500 == 0:
            os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=deeper))
        if level % 700 == 699:
            os.chmod(name, 0, dir_fd=fd)
        os.close(fd)
        fd = deeper
    os.close(fd)


def test_any_tree_is_removed(workdir):
    (workdir / "chain").mkdir()
    make_deep(workdir / "chain", 5000)  # a path of 10,000 characters: beyond PATH_MAX
    outside = workdir / "outside"
    outside.mkdir()
    (outside / "keep").write_text("kept")
    os.symlink(outside, workdir / "chain" / "link")  # removed as a link, never followed
    for index in range(2000):
        (workdir / "chain" / f"wide{index}").mkdir()
    remove_tree(workdir / "chain")
    assert not (workdir / "chain").exists()
    assert (outside / "keep").read_text() == "kept"
    remove_tree(workdir / "absent")  # nothing there: nothing to do
    remove_tree(workdir / "absent" / "below")
    assert clear_folder(workdir / "absent" / "below").is_dir()  # made with its parents


def test_a_folder_that_cannot_be_removed_is_moved_aside(workdir, monkeypatch, caplog):
    folder = workdir / "work"
    folder.mkdir()
    (folder / "left").write_text("by a run")
    real_remove = tree_module.remove_tree

    def failing(path: Path) -> None:
        if path == folder:
            raise OSError(errno.EBUSY, "busy")
        real_remove(path)

    monkeypatch.setattr(tree_module, "remove_tree", failing)
    with caplog.at_level(logging.ERROR):
        assert clear_folder(folder) == folder
    assert list(folder.iterdir()) == []  # a fresh folder at once: the judge goes on
    asides = list(workdir.glob("work.aside-*"))
    assert len(asides) == 1 and (asides[0] / "left").read_text() == "by a run"
    assert "moved aside" in caplog.text
    monkeypatch.setattr(tree_module, "remove_tree", real_remove)
    clear_folder(folder)
    assert list(workdir.glob("work.aside-*")) == []  # removed at the next clean-up


def test_usage_counts_allocated_blocks_and_deep_trees(workdir):
    empty = tree_usage(workdir)
    fd = os.open(workdir / "reserved", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        if fallocate(fd, FALLOC_FL_KEEP_SIZE, 8 << 20) != 0:
            pytest.skip("the file system of the tests' work folder has no fallocate")
        assert os.fstat(fd).st_size == 0
        assert tree_usage(workdir) - empty >= 8 << 20  # the size says 0, the blocks say 8 MiB
    finally:
        os.close(fd)
    make_deep(workdir, 300)
    assert tree_usage(workdir) == TOO_LARGE  # deeper than a walk goes: too large, not zero
    assert tree_usage(workdir, max_depth=400) < TOO_LARGE


def test_walks_stop_at_their_depth(workdir):
    (workdir / "top.class").write_text("")
    os.symlink("/etc/passwd", workdir / "link.class")  # a link is never listed
    (workdir / "p").mkdir()
    make_deep(workdir / "p", MAX_DEPTH + 300, name="p")  # a file every 500 levels: at depth 1 only
    (workdir / "long").mkdir()
    make_deep(workdir / "long", 40, name="n" * 200)  # within the depth cap, beyond PATH_MAX
    found = walk_files(workdir)
    assert sorted(found) == ["long/" + "n" * 200 + "/f", "p/p/f", "top.class"]


def test_stdout_is_a_pipe_that_takes_no_disk(runner, workdir, programs):
    free = free_bytes(workdir)
    argv = place(programs("fallocate", FALLOCATE), workdir)
    for mode in (FALLOC_FL_KEEP_SIZE, 0):
        result = runner.run(argv + [str(mode), "-"], workdir, Limits())
        assert result.stdout == b"done\n" and not result.limit_exceeded
        assert int(result.stderr.split()[1]) in (errno.ESPIPE, errno.ENODEV, errno.EOPNOTSUPP)
    assert free_bytes(workdir) > free - DISK_SLACK


@needs_root
def test_fallocate_cannot_hide_disk(runner, workdir, programs):
    free = free_bytes(workdir)
    argv = place(programs("fallocate", FALLOCATE), workdir)
    places = ["kept", "/tmp/kept", "/dev/shm/kept"]
    for mode in (FALLOC_FL_KEEP_SIZE, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE):
        result = runner.run(argv + [str(mode), *places], workdir, Limits())
        reports = dict(line.split() for line in result.stderr.decode().splitlines())
        assert reports == {place: str(errno.EOPNOTSUPP) for place in places}, reports
        assert result.stdout == b"done\n" and not result.limit_exceeded
    # mode 0 grows the file: RLIMIT_FSIZE stops it (SIGXFSZ, an output limit)
    grown = runner.run(argv + ["0", "kept"], workdir, Limits(file_bytes=1 << 20, output_bytes=1 << 20))
    assert grown.output_limit_exceeded
    assert free_bytes(workdir) > free - DISK_SLACK
    assert tree_usage(workdir) < 16 << 20


@needs_root
def test_only_unix_sockets(runner, workdir, programs):
    result = runner.run(place(programs("sockets", SOCKETS), workdir), workdir, Limits())
    outcome = dict(line.split() for line in result.stdout.decode().splitlines())
    refused = str(errno.EAFNOSUPPORT)
    assert outcome == {
        "2": refused,
        "10": refused,
        "40": refused,
        "16": refused,
        "17": refused,
        "1": "0",
        "pair-unix": "0",
        "pair-inet": refused,
    }


@needs_root
def test_no_pseudo_terminals(runner, workdir):
    script = (
        "import os, pty\n"
        "for attempt in (lambda: os.open('/dev/ptmx', os.O_RDWR), pty.openpty, "
        "lambda: open('/dev/pts/mine', 'w')):\n"
        "    try:\n        attempt(); print('opened')\n"
        "    except OSError as error:\n        print(error.errno)\n"
    )
    result = runner.run(["/usr/bin/python3", "-c", script], workdir, Limits())
    assert result.exit_code == 0, result.stderr
    assert b"opened" not in result.stdout and len(result.stdout.split()) == 3


@needs_root
@pytest.mark.parametrize("how", ["chdir", "at"])
def test_a_deep_tree_left_by_a_run_is_removed(box, session_root, programs, how):
    with box.session(session_root) as session:
        folder = session.folder("run")
        argv = place(programs("deep", DEEP), folder)
        result = session.run(argv + [how, "6000"], "run", Limits(cpu_ms=5000, wall_ms=20_000))
        assert int(result.stdout) >= 2000  # far beyond PATH_MAX and Python's recursion limit
        assert session.folder("run") == folder and list(folder.iterdir()) == []
        place(programs("deep", DEEP), folder)
        again = session.run(argv + [how, "3"], "run", Limits())
        assert again.stdout == b"3\n"


@needs_root
def test_each_run_has_its_own_pid_namespace(box, session_root):
    script = "echo $$; ls /proc > /tmp/seen; grep -c '^[0-9]' /tmp/seen; for i in $(seq 300); do /bin/true; done"
    with box.session(session_root) as session:
        session.folder("run")
        seen = [session.run(["/bin/sh", "-c", script], "run", Limits(cpu_ms=5000, wall_ms=20_000)) for _ in range(3)]
    # PID 2 under the run's init, and /proc shows the init, the shell and ls only
    assert [result.stdout.split() for result in seen] == [[b"2", b"3"]] * 3


@needs_root
def test_session_disk_is_capped_and_leaves_no_trace(box, session_root, programs):
    free = free_bytes(session_root)
    limits = Limits(file_bytes=GIB, output_bytes=1 << 20, workdir_bytes=GIB, memory_kib=512 << 10, wall_ms=20_000)
    with box.session(session_root, disk_bytes=32 << 20) as session:
        folder = session.folder("run")
        assert filesystem_usage(session.root) < 1 << 20
        argv = place(programs("fallocate", FALLOCATE), folder)
        grown = session.run(argv + ["0", "big"], "run", limits)
        assert grown.stderr.split()[1] == str(errno.ENOSPC).encode()  # the disk's cap, not the host's
        filled = session.run(
            ["/bin/sh", "-c", "dd if=/dev/zero of=fill bs=1M count=100 2>/dev/null; echo $?"], "run", limits
        )
        assert filled.output_limit_exceeded  # a full disk is an output limit, whatever came of the write
        assert free_bytes(session_root.parent) > free - DISK_SLACK
    assert not os.path.ismount(session_root) and list(session_root.iterdir()) == []


KILLED_JUDGE = """
import os, sys
from pathlib import Path
from sandbox import Sandbox
box = Sandbox(slot=int(sys.argv[1]))
session = box.session(Path(sys.argv[2]))
print("open", flush=True)
os.kill(os.getpid(), 9)  # killed with its session open: nothing is closed
"""


@needs_root
def test_a_disk_left_by_a_killed_judge_is_unmounted(session_root):
    killed_slot = TEST_SLOT + 6
    done = subprocess.run(
        [sys.executable, "-c", KILLED_JUDGE, str(killed_slot), str(session_root)],
        capture_output=True,
        cwd=Path(__file__).parents[2],
        timeout=60,
    )
    assert done.stdout == b"open\n" and done.returncode == -9, done.stderr
    assert os.path.ismount(session_root)  # left behind by the killed judge
    with Sandbox(slot=killed_slot):
        assert not os.path.ismount(session_root)  # the next judge on the slot detached it
    assert list(session_root.iterdir()) == []


@needs_root
def test_nothing_names_the_test(box, session_root, work_root):
    test_input = work_root / "20-split-unreachable.in"
    test_input.write_text("5 6\n")
    script = (
        "readlink /proc/self/fd/0 /proc/self/fd/1 /proc/self/fd/2 /proc/self/cwd; cat /proc/self/mountinfo;"
        "cat /proc/self/cgroup; cat /proc/self/environ; ls -la /proc/self/fd/ /box /; cat; echo x > /dev/stdin"
    )
    with box.session(session_root) as session:
        session.folder("run")
        seen = [session.run(["/bin/sh", "-c", script], "run", Limits(), stdin=test_input) for _ in range(2)]
    text = b"".join(result.stdout + result.stderr for result in seen).decode(errors="replace")
    assert "5 6" in text  # the input was read
    for leak in ("split", "unreachable", ".in", str(work_root), str(session_root), "classjudge-sandbox/box", "/var"):
        assert leak not in text, leak
    assert "/memfd:stdin (deleted)" in text
    memory_cgroups = [line for line in text.splitlines() if ":memory:" in line]
    assert len(set(memory_cgroups)) == 2  # a fresh memory cgroup for each run ...
    assert not any(line.endswith(("-1", "-2")) for line in memory_cgroups)  # ... named by no count
    shutil.rmtree(session_root, ignore_errors=True)
