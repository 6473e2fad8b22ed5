"""The sealed copies of the input files a slot keeps (``sandbox.fds.SealedInputs``): made once per
file, read by each run from its start, unchangeable by any run, made again when the file changes,
and bounded in bytes and in number."""

from __future__ import annotations

import os

from sandbox import Limits
from sandbox.fds import SealedInputs

TAMPER = (
    "cat; (echo x > /proc/self/fd/0) 2>/dev/null || echo no-write;"
    " (: > /proc/self/fd/0) 2>/dev/null || echo no-truncate;"
    " (echo more >> /proc/self/fd/0) 2>/dev/null || echo no-append"
)


def test_no_run_changes_what_a_later_run_reads(runner, workdir):
    test_input = workdir.parent / f"{workdir.name}.in"
    test_input.write_text("5 6\n")
    results = [runner.run(["/bin/sh", "-c", TAMPER], workdir, Limits(), stdin=test_input) for _ in range(3)]
    for result in results:
        assert result.stdout == b"5 6\nno-write\nno-truncate\nno-append\n", result.stderr
    assert test_input.read_text() == "5 6\n"


def test_a_changed_file_is_read_anew(runner, workdir):
    test_input = workdir.parent / f"{workdir.name}.in"
    test_input.write_text("first\n")
    assert runner.run(["/bin/cat"], workdir, Limits(), stdin=test_input).stdout == b"first\n"
    with open(test_input, "r+") as file:  # the same inode and size, other bytes
        file.write("other\n")
    assert runner.run(["/bin/cat"], workdir, Limits(), stdin=test_input).stdout == b"other\n"
    test_input.write_text("longer now\n")
    assert runner.run(["/bin/cat"], workdir, Limits(), stdin=test_input).stdout == b"longer now\n"


def _inode(fd: int) -> int:
    try:
        return os.fstat(fd).st_ino
    finally:
        os.close(fd)


def test_a_file_is_copied_once_and_each_descriptor_reads_from_the_start(tmp_path):
    path = tmp_path / "a.in"
    path.write_bytes(b"abcdef")
    inputs = SealedInputs()
    try:
        first, second = inputs.open(path), inputs.open(path)
        try:
            assert os.read(first, 3) == b"abc"
            assert os.read(second, 6) == b"abcdef"  # an offset of its own
            assert os.fstat(first).st_ino == os.fstat(second).st_ino  # one copy
            assert os.readlink(f"/proc/self/fd/{first}") == "/memfd:stdin (deleted)"
            assert os.get_inheritable(first) is False
        finally:
            os.close(first)
            os.close(second)
        assert inputs.kept_bytes == 6
    finally:
        inputs.close()
    assert inputs.kept_bytes == 0


def test_the_copies_kept_are_bounded_in_bytes_and_in_number(tmp_path):
    files = []
    for index in range(4):
        files.append(tmp_path / f"{index}.in")
        files[-1].write_bytes(bytes([65 + index]) * 40)
    inputs = SealedInputs(budget_bytes=100, max_copies=10)
    try:
        inodes = [_inode(inputs.open(path)) for path in files[:3]]  # 120 bytes: the first is dropped
        assert inputs.kept_bytes == 80
        assert _inode(inputs.open(files[2])) == inodes[2]  # kept
        assert _inode(inputs.open(files[0])) != inodes[0]  # copied again, dropping files[1]
        assert _inode(inputs.open(files[2])) == inodes[2]
        large = tmp_path / "large.in"
        large.write_bytes(b"x" * 101)
        fd = inputs.open(large)
        assert os.read(fd, 200) == b"x" * 101
        os.close(fd)
        assert inputs.kept_bytes == 80  # read, not kept
    finally:
        inputs.close()
    few = SealedInputs(budget_bytes=10_000, max_copies=2)
    try:
        inodes = [_inode(few.open(path)) for path in files]
        assert few.kept_bytes == 80
        assert _inode(few.open(files[3])) == inodes[3] and _inode(few.open(files[0])) != inodes[0]
    finally:
        few.close()


MARK = """import os
for name, attempt in [
    ("xattr", lambda: os.setxattr(0, "user.mark", b"x")),
    ("times", lambda: os.utime(0)),
    ("mode", lambda: os.chmod(0, 0o666)),
    ("reopen-rw", lambda: open("/proc/self/fd/0", "r+b")),
]:
    try:
        attempt()
        print(name, "done")
    except OSError as error:
        print(name, "refused", error.errno)
try:
    print("mark", os.getxattr(0, "user.mark"))
except OSError:
    print("mark none")
print("reread", open("/dev/stdin", "rb").read())
"""


def test_no_run_leaves_a_mark_on_the_copy_a_later_run_reads(runner, workdir):
    """Extended attributes, times and mode of the copy are out of a run's reach: nothing one
    submission does to it reaches a later one, nor takes memory outside its limits."""
    test_input = workdir.parent / f"{workdir.name}.in"
    test_input.write_text("5 6\n")
    first, second = (
        runner.run(["/usr/bin/python3", "-c", MARK], workdir, Limits(), stdin=test_input) for _ in range(2)
    )
    for result in (first, second):
        lines = result.stdout.decode().splitlines()
        assert [line.split()[1] for line in lines[:4]] == ["refused"] * 4, (lines, result.stderr)
        assert lines[4:] == ["mark none", "reread b'5 6\\n'"], (lines, result.stderr)
