"""The file descriptors of one run, owned by the judge until handed to the box.

Guarantee: each descriptor a run opens is closed exactly once, on every path (a second close
could hit a number another thread has reused), so no judge descriptor is left open and none
reaches a later run. tests/sandbox/test_isolation.py::test_only_standard_descriptors_are_open
"""

from __future__ import annotations

import os


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


def read_all(fd: int) -> str:
    """Everything left in a pipe whose writers are gone, decoded (bad bytes replaced)."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")
