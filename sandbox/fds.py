"""The file descriptors of one run, owned by the judge until handed to the box.

Guarantees:
- Each descriptor a run opens is closed exactly once, on every path (a second close could hit a
  number another thread has reused), so no judge descriptor is left open and none reaches a
  later run. tests/sandbox/test_isolation.py::test_only_standard_descriptors_are_open
- Standard input is a sealed, unnamed copy of the input file (a memfd called ``stdin``, opened
  read-only, sealed against writes, growth and shrinking): its name in the box is
  ``/memfd:stdin (deleted)`` whatever the test, and the program can neither change it nor grow
  it to take memory. tests/sandbox/test_box_guarantees.py::test_nothing_names_the_test
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

# fcntl seals (linux/fcntl.h); Python's fcntl module has them from 3.8 on Linux
_SEALS = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE


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

    def sealed_copy(self, path: Path) -> int:
        """A read-only descriptor of a sealed memfd named ``stdin`` holding the bytes of host
        file ``path``, owned. Raises OSError if ``path`` cannot be read."""
        memfd = os.memfd_create("stdin", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            with open(path, "rb") as source:
                size = os.fstat(source.fileno()).st_size
                copied = 0
                while copied < size:
                    sent = os.sendfile(memfd, source.fileno(), copied, size - copied)
                    if sent == 0:
                        break
                    copied += sent
            fcntl.fcntl(memfd, fcntl.F_ADD_SEALS, _SEALS)
            return self.add(os.open(f"/proc/self/fd/{memfd}", os.O_RDONLY | os.O_CLOEXEC))
        finally:
            os.close(memfd)

    def close(self, fd: int) -> None:
        """Close ``fd`` if it is still open."""
        if fd in self._open:
            self._open.discard(fd)
            os.close(fd)

    def close_all(self) -> None:
        """Close every FD still open."""
        for fd in list(self._open):
            self.close(fd)


def read_all(fd: int) -> str:
    """Everything left in a pipe whose writers are gone, decoded (bad bytes replaced)."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")
