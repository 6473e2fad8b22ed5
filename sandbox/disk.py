"""The session's disk: a size-capped tmpfs mounted over the session's folder on the host.

Every folder a session's runs can write (the compile folder, each run's folder) lives on it,
so what they can take is bounded by its ``size`` (bytes) and ``nr_inodes`` whatever they do
(``fallocate``, sparse files, millions of entries, trees under paths longer than PATH_MAX), and
all of it goes at once when the session ends (an unmount, whatever the tree's shape). Pages of
a tmpfs are charged to the memory cgroup of the process that writes them: a run's files count
in its memory. Usage is read from ``statvfs`` (blocks and inodes in use), which costs no walk.

Guarantees:
- The host's free disk does not change whatever a run writes, and the session's folder is empty
  on the host once the session has closed. tests/sandbox/test_box_guarantees.py::
  test_session_disk_is_capped_and_leaves_no_trace
- A disk left mounted by a judge that was killed with its session open is unmounted when the
  slot is opened again (the mount point is noted beside the slot's lock).
  tests/sandbox/test_box_guarantees.py::test_a_disk_left_by_a_killed_judge_is_unmounted
- Seen from inside the box the mount names no host path (its root is ``/``, its source
  ``tmpfs``). tests/sandbox/test_box_guarantees.py::test_nothing_names_the_test
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
from pathlib import Path

from sandbox.errors import SandboxError
from sandbox.slot import lock_dir

log = logging.getLogger(__name__)

# linux/mount.h
MS_NOSUID = 0x2
MS_NODEV = 0x4
MNT_DETACH = 0x2
# every entry counts this many bytes besides its blocks (an inode and a directory entry)
ENTRY_BYTES = 4096
# the usage reported for a disk that is full, or a tree too deep or too large to count
TOO_LARGE = 1 << 62

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def mount_tmpfs(path: Path, size_bytes: int, mode: int = 0o711) -> None:
    """Mount a tmpfs of ``size_bytes`` (and one inode per ``ENTRY_BYTES``) over the empty folder
    ``path``, owned by root with ``mode``. Raises SandboxError if ``path`` is not an empty folder
    or the mount fails (it needs root)."""
    if any(path.iterdir()):
        raise SandboxError(f"{path} is not empty: a disk mounted over it would hide what it holds")
    options = f"size={size_bytes},nr_inodes={max(1024, size_bytes // ENTRY_BYTES)},mode={mode:o},uid=0,gid=0"
    if _libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()) != 0:
        error = ctypes.get_errno()
        raise SandboxError(f"cannot mount the session's disk on {path}: {os.strerror(error)}")


def unmount(path: Path) -> None:
    """Detach the mount at ``path`` (its files go with the last user). Raises SandboxError if
    ``path`` is not a mount point or cannot be unmounted."""
    if _libc.umount2(os.fsencode(path), MNT_DETACH) != 0:
        error = ctypes.get_errno()
        raise SandboxError(f"cannot unmount the session's disk on {path}: {os.strerror(error)}")


def record_path(slot_key: int) -> Path:
    """Where the slot with lock key ``slot_key`` notes the session disk it has mounted (beside
    its lock): a judge killed with its session open leaves the note for the next one."""
    return lock_dir() / f"slot-{slot_key}.disk"


def note_mounted(slot_key: int, path: Path) -> None:
    """Note that the slot's session disk is mounted on ``path``."""
    record_path(slot_key).write_text(str(path))


def forget_mounted(slot_key: int) -> None:
    """The slot's session disk is unmounted: drop the note."""
    record_path(slot_key).unlink(missing_ok=True)


def release_stale_disk(slot_key: int) -> None:
    """Unmount the session disk a dead judge left mounted on this slot (call with the slot's
    lock held: no live judge owns it then), and drop the note. Logged as a warning."""
    record = record_path(slot_key)
    try:
        path = Path(record.read_text())
    except OSError:
        return
    if os.path.ismount(path):
        try:
            unmount(path)
            log.warning("unmounted the session disk %s a stopped judge left on this slot", path)
        except SandboxError as error:
            log.warning("%s", error)
    record.unlink(missing_ok=True)


def filesystem_usage(path: Path) -> int:
    """Bytes in use on the file system of ``path``: blocks allocated plus ``ENTRY_BYTES`` per
    inode; ``TOO_LARGE`` once it is full (no free block or inode left)."""
    info = os.statvfs(path)
    if info.f_bavail == 0 or info.f_favail == 0:
        return TOO_LARGE
    return (info.f_blocks - info.f_bfree) * info.f_frsize + (info.f_files - info.f_ffree) * ENTRY_BYTES
