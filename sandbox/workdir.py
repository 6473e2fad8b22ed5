"""The work folder of a run: handing it to the slot's uid, and watching how much it grows.

Guarantees:
- The folder must be reachable by the slot's uid (bubblewrap binds it as that uid): a clear
  SandboxError says which parent folder blocks it. tests/sandbox/test_runner.py::
  test_unreachable_workdir_is_a_clear_error
- It is given to the slot's uid with mode 0700: other host users cannot enter it (a program could
  leave a set-uid file of the slot's uid there). tests/sandbox/test_isolation.py::
  test_workdir_belongs_to_the_slot_and_is_private
- RLIMIT_FSIZE caps each file; ``FolderGrowth`` caps the total the run adds to the folder
  (``Limits.workdir_bytes``; checked by the watchdog every 100 ms and once at the end, also
  counting entries so that millions of empty files are caught): one submission cannot fill the
  judge's disk. tests/sandbox/test_limits.py::test_many_files_hit_the_workdir_limit
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sandbox.errors import SandboxError

# how often the watchdog measures the folder (s); every entry counts this many bytes too
CHECK_EVERY_S = 0.1
ENTRY_BYTES = 4096
MAX_ENTRIES = 100_000


def check_reachable(path: Path, uid: int, gid: int) -> None:
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
        os.chown(folder, uid, gid, follow_symlinks=False)
        os.chmod(folder, 0o700, follow_symlinks=False)


def folder_usage(path: Path, max_entries: int = MAX_ENTRIES) -> int:
    """Bytes used under ``path`` (file sizes plus ``ENTRY_BYTES`` per entry), without following
    symlinks; stops counting past ``max_entries`` entries."""
    total, entries = 0, 0
    pending = [str(path)]
    while pending and entries <= max_entries:
        try:
            listing = os.scandir(pending.pop())
        except OSError:
            continue
        with listing:
            for entry in listing:
                entries += 1
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += ENTRY_BYTES + (info.st_size if stat.S_ISREG(info.st_mode) else 0)
                if stat.S_ISDIR(info.st_mode):
                    pending.append(entry.path)
    return total


class FolderGrowth:
    """A watchdog probe: has the folder grown by more than ``limit_bytes`` since the start?"""

    name = "workdir"

    def __init__(self, path: Path, limit_bytes: int) -> None:
        self.path = path
        self.limit_bytes = limit_bytes
        self.start_bytes = folder_usage(path)

    def exceeded(self) -> bool:
        """Measure the folder now."""
        return folder_usage(self.path) - self.start_bytes > self.limit_bytes

    def next_check_s(self) -> float:
        """Seconds until the next measurement."""
        return CHECK_EVERY_S
