"""A worker slot's identity: its unprivileged uid/gid and an exclusive lock on it.

Guarantees:
- Slot ``n`` runs programs as uid = gid = ``uid_base + n`` (61000 + n by default), a uid that
  belongs to no account (checked), so a program can touch nothing of the judge's or of a user's.
  tests/sandbox/test_isolation.py::test_namespaces_and_identity
- Only one ``Sandbox`` per slot on a machine at a time (an flock under /run): two would share a
  uid and cgroups and kill each other's processes. tests/sandbox/test_runner.py::
  test_a_slot_cannot_be_opened_twice
"""

from __future__ import annotations

import fcntl
import os
import pwd
import tempfile
from pathlib import Path

from sandbox.errors import SandboxError

DEFAULT_UID_BASE = 61000
ROOT_LOCK_DIR = Path("/run/classjudge-sandbox")


def slot_uid(slot: int, uid_base: int) -> int:
    """The uid (and gid) of ``slot``. Raises SandboxError for a negative slot or a uid that
    belongs to an account."""
    if slot < 0:
        raise SandboxError(f"slot must be >= 0, not {slot}")
    uid = uid_base + slot
    try:
        name = pwd.getpwuid(uid).pw_name
    except KeyError:
        return uid
    raise SandboxError(f"uid {uid} of sandbox slot {slot} belongs to account {name!r}; choose another uid_base")


def lock_dir() -> Path:
    """Where slot locks live: /run/classjudge-sandbox as root, else a private folder of the user."""
    if os.geteuid() == 0:
        return ROOT_LOCK_DIR
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return Path(runtime or tempfile.gettempdir()) / f"classjudge-sandbox-{os.geteuid()}"


def lock_slot(uid: int) -> int:
    """Take the exclusive lock of the slot with ``uid``; returns the lock's FD (close to release).

    Raises SandboxError if another Sandbox (in any process) holds it.
    """
    folder = lock_dir()
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != os.geteuid():
        raise SandboxError(f"lock folder {folder} is not a private folder of this user")
    fd = os.open(folder / f"slot-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise SandboxError(f"sandbox slot with uid {uid} is already in use by another Sandbox") from None
    return fd
