"""The file descriptors of one run, owned by the judge until handed to the box.

Guarantees:
- Each descriptor a run opens is closed exactly once, on every path (a second close could hit a
  number another thread has reused), so no judge descriptor is left open and none reaches a
  later run. tests/sandbox/test_isolation.py::test_only_standard_descriptors_are_open
- Standard input is a sealed, unnamed copy of the input file (a memfd called ``stdin``, opened
  read-only, sealed against writes, growth and shrinking): its name in the box is
  ``/memfd:stdin (deleted)`` whatever the test, and the program can neither change it nor grow
  it to take memory. tests/sandbox/test_box_guarantees.py::test_nothing_names_the_test
- A copy is made once per input file and slot (``SealedInputs``) and read by every later run of
  that file through a descriptor of its own: sealed and of mode 0444, no run can change what a
  later one reads, nor mark it (extended attributes, times). tests/sandbox/test_sealed_inputs.py
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections import OrderedDict
from pathlib import Path

# fcntl seals (linux/fcntl.h); Python's fcntl module has them from 3.8 on Linux
_SEALS = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
# sealed input copies a slot keeps: bytes (the judge's memory: shmem pages) and count (each holds
# one of the judge's descriptors)
SEALED_INPUTS_BYTES = 64 * 1024 * 1024
SEALED_INPUTS_MAX = 128


class OpenFds:
    """The file descriptors one run opened; each closed exactly once."""

    def __init__(self) -> None:
        self._open: set[int] = set()

    def add(self, fd: int) -> int:
        """Own ``fd``; returns it."""
        self._open.add(fd)
        return fd

    def pipe(self) -> tuple[int, int]:
        """A new close-on-exec pipe (read end, write end), owned."""
        read_end, write_end = os.pipe2(os.O_CLOEXEC)
        return self.add(read_end), self.add(write_end)

    def close(self, fd: int) -> None:
        """Close ``fd`` if it is still open."""
        if fd in self._open:
            self._open.discard(fd)
            os.close(fd)

    def close_all(self) -> None:
        """Close every FD still open."""
        for fd in list(self._open):
            self.close(fd)


def sealed_memfd(source_fd: int, size: int) -> int:
    """A new memfd named ``stdin`` holding the ``size`` bytes of ``source_fd`` from offset 0,
    sealed against writes, growth, shrinking and further seals, and of mode 0444: only its owner,
    the judge, may change its extended attributes, times or mode (a memfd is made 0777, which
    would let a run leave marks on it for a later run, held in the judge's memory). Close-on-exec,
    owned by the caller. Raises OSError if the source cannot be read."""
    memfd = os.memfd_create("stdin", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        os.fchmod(memfd, 0o444)
        copied = 0
        while copied < size:
            sent = os.sendfile(memfd, source_fd, copied, size - copied)
            if sent == 0:
                break
            copied += sent
        fcntl.fcntl(memfd, fcntl.F_ADD_SEALS, _SEALS)
        return memfd
    except BaseException:
        os.close(memfd)
        raise


class SealedInputs:
    """The sealed copies (``sealed_memfd``) of the input files a slot's runs read, kept so that a
    file is copied once, not once per run: the tests of a problem are read by every submission
    a worker judges. Each run gets a read-only descriptor of its own (its own offset).

    A copy is known by its file's device, inode, size and change times (ns): a file written or
    replaced since is copied again. At most ``budget_bytes`` in ``max_copies`` copies are kept,
    the least recently read dropped first; a larger file is copied for its run alone. Safe to
    share between threads.
    """

    def __init__(self, budget_bytes: int = SEALED_INPUTS_BYTES, max_copies: int = SEALED_INPUTS_MAX) -> None:
        self.budget_bytes = budget_bytes
        self.max_copies = max_copies
        self.kept_bytes = 0
        self._copies: OrderedDict[tuple[int, ...], tuple[int, int]] = OrderedDict()  # key -> (memfd, size)
        self._lock = threading.Lock()

    def open(self, path: Path | str) -> int:
        """A new read-only, close-on-exec descriptor of the sealed copy of host file ``path``
        (the caller closes it). Raises OSError if ``path`` cannot be read."""
        key = _file_key(os.stat(path))
        with self._lock:  # a copy kept: the file itself is not opened
            kept = self._copies.get(key)
            if kept is not None:
                self._copies.move_to_end(key)
                return _read_only(kept[0])
        with open(path, "rb") as source:
            info = os.fstat(source.fileno())  # the file copied, whatever changed since the stat
            key = _file_key(info)
            memfd = sealed_memfd(source.fileno(), info.st_size)
        try:
            descriptor = _read_only(memfd)
        except BaseException:
            os.close(memfd)
            raise
        if info.st_size > self.budget_bytes or os.fstat(memfd).st_size != info.st_size:  # too large, or changing
            os.close(memfd)
            return descriptor
        with self._lock:
            if key in self._copies:  # copied by another thread meanwhile
                os.close(memfd)
                return descriptor
            self._copies[key] = (memfd, info.st_size)
            self.kept_bytes += info.st_size
            while self.kept_bytes > self.budget_bytes or len(self._copies) > self.max_copies:
                dropped, size = self._copies.popitem(last=False)[1]
                os.close(dropped)
                self.kept_bytes -= size
        return descriptor

    def close(self) -> None:
        """Drop every copy kept."""
        with self._lock:
            for memfd, _ in self._copies.values():
                os.close(memfd)
            self._copies.clear()
            self.kept_bytes = 0


def _file_key(info: os.stat_result) -> tuple[int, ...]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _read_only(memfd: int) -> int:
    return os.open(f"/proc/self/fd/{memfd}", os.O_RDONLY | os.O_CLOEXEC)


def read_all(fd: int) -> str:
    """Everything left in a pipe whose writers are gone, decoded (bad bytes replaced)."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")
