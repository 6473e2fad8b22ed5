"""Reading what a program left in its work directory, safely.

Guarantee: ``read_output_file`` never follows a symlink, never blocks on a FIFO, never reads a
device or a folder, never reads a file hard-linked elsewhere, and never reads more than
``max_bytes``: a program cannot make the judge read /etc/shadow, another slot's work or the
judge answers through a planted link. tests/sandbox/test_outputs.py
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)


def check_plain_name(name: str, what: str) -> None:
    """Raise ValueError unless ``name`` is a single file name: not empty, no ``/`` or NUL, not
    ``.`` or ``..`` (``what`` names it in the message)."""
    if not name or "/" in name or name in (".", "..") or "\0" in name:
        raise ValueError(f"{what} must be a plain file name, not {name!r}")


def read_output_file(workdir: Path, name: str, max_bytes: int) -> bytes | None:
    """The contents of ``workdir/name`` (bytes), or None if it is absent or unsafe.

    name: a single file name (no ``/``, not ``.`` or ``..``); ValueError otherwise.
    Returns None (and logs why) when the entry is a symlink, FIFO, device, folder, has more than
    one hard link, or is larger than ``max_bytes``: the judge treats that as "no output file".
    Opened with O_NOFOLLOW | O_NONBLOCK relative to the folder's own descriptor.
    """
    check_plain_name(name, "output file name")
    dir_fd = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY, dir_fd=dir_fd)
        except FileNotFoundError:
            return None
        except OSError as error:  # ELOOP: a symlink; others: unreadable
            log.warning("refusing output file %s/%s: %s", workdir, name, error.strerror)
            return None
    finally:
        os.close(dir_fd)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        log.warning("refusing output file %s/%s: not a plain regular file", workdir, name)
        return None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        log.warning("refusing output file %s/%s: larger than %d bytes", workdir, name, max_bytes)
        return None
    return data
