"""The work folder of a run: handing it to the slot's uid, and watching how much it grows.

Guarantees:
- The folder must be reachable by the slot's uid (bubblewrap binds it as that uid): a clear
  SandboxError says which parent folder blocks it. tests/sandbox/test_runner.py::
  test_unreachable_workdir_is_a_clear_error
- It is given to the slot's uid with mode 0700: other host users cannot enter it (a program could
  leave a set-uid file of the slot's uid there). tests/sandbox/test_isolation.py::
  test_workdir_belongs_to_the_slot_and_is_private
- RLIMIT_FSIZE caps each file; ``FolderGrowth`` caps the total the run adds to the folder
  (``Limits.workdir_bytes``; checked by the watchdog every 100 ms and once at the end, counting
  allocated blocks, not sizes, and entries, so that reserved space and millions of empty files
  are caught; a tree too deep to walk counts as too large). A session's folders are on a
  capped disk of their own besides (``sandbox.disk``). tests/sandbox/test_limits.py::
  test_many_files_hit_the_workdir_limit
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from sandbox.errors import SandboxError
from sandbox.tree import tree_usage

# how often the watchdog measures the folder (s)
CHECK_EVERY_S = 0.1


def check_reachable(path: Path, uid: int, gid: int | None) -> None:
    """Raise SandboxError unless every folder above ``path`` lets ``uid``/``gid`` pass (x bit):
    bubblewrap runs as the slot's uid and must reach the path to bind it."""
    for folder in path.parents:
        info = os.stat(folder)
        if info.st_mode & stat.S_IXOTH:
            continue
        if info.st_uid == uid and info.st_mode & stat.S_IXUSR:
            continue
        if info.st_gid == gid and info.st_mode & stat.S_IXGRP:
            continue
        raise SandboxError(
            f"{path} cannot be reached by the sandbox uid {uid}: {folder} has mode "
            f"{stat.filemode(info.st_mode)}; make it searchable (chmod o+x)"
        )


def prepare_workdir(workdir: Path, uid: int | None, gid: int | None) -> Path:
    """The real path of ``workdir`` after handing it to ``uid``/``gid`` (mode 0700; nothing is
    changed when ``uid`` is None, i.e. without root). Raises SandboxError if it is not a folder
    or cannot be reached."""
    real = Path(os.path.realpath(workdir))
    if uid is not None:
        check_reachable(real, uid, gid)
    hand_over(workdir, uid, gid)
    return real


def hand_over(folder: Path, uid: int | None, gid: int | None) -> None:
    """Give ``folder`` to ``uid``/``gid`` with mode 0700 (nothing changes when ``uid`` is None).
    Raises SandboxError if it is not a folder (a symlink is not followed)."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        raise SandboxError(f"workdir {folder} does not exist") from None
    if not stat.S_ISDIR(info.st_mode):
        raise SandboxError(f"workdir {folder} is not a folder")
    if uid is not None and (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) != (uid, gid, 0o700):
        os.chown(folder, uid, -1 if gid is None else gid, follow_symlinks=False)
        os.chmod(folder, 0o700, follow_symlinks=False)


class FolderGrowth:
    """A watchdog probe: has the folder grown by more than ``limit_bytes`` since the start?

    measure: bytes in use under ``path`` (``sandbox.tree.tree_usage`` by default: allocated
    blocks and entries; ``sandbox.disk.filesystem_usage`` for a session's own disk).
    """

    name = "workdir"

    def __init__(self, path: Path, limit_bytes: int, measure: Callable[[Path], int] = tree_usage) -> None:
        self.path = path
        self.limit_bytes = limit_bytes
        self.measure = measure
        self.start_bytes = measure(path)

    def exceeded(self) -> bool:
        """Measure the folder now."""
        return self.measure(self.path) - self.start_bytes > self.limit_bytes

    def next_check_s(self) -> float:
        """Seconds until the next measurement."""
        return CHECK_EVERY_S
