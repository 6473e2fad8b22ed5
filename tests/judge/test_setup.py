"""``make run`` / ``make test`` install missing Debian packages; while another apt holds its locks they
wait for it (up to ``APT_LOCK_WAIT`` seconds) instead of failing at once."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MISSING = "classjudge-no-such-package"  # never installed: the recipe reaches apt-get
LISTS_LOCK = Path("/var/lib/apt/lists/lock")

needs_apt_as_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("apt-get") is None or not LISTS_LOCK.parent.is_dir(),
    reason="needs apt-get and root (apt's lock files)",
)


def make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(REPO), *args], capture_output=True, text=True, timeout=120
    )


def test_apt_get_install_waits_for_the_dpkg_lock():
    dry = make("-n", "system-packages", f"APT_PACKAGES={MISSING}", "APT_LOCK_WAIT=42")
    assert dry.returncode == 0, dry.stderr
    installs = [part for part in dry.stdout.split("&&") if " install " in part]
    assert installs and all("apt-get -o DPkg::Lock::Timeout=42 install" in part for part in installs), dry.stdout


@needs_apt_as_root
def test_apt_get_update_waits_while_another_apt_holds_the_lists_lock():
    """The lock is held all along (as ``apt-get update`` in another terminal would): make says it
    waits, retries, and gives up with apt's own message once APT_LOCK_WAIT has passed."""
    descriptor = os.open(LISTS_LOCK, os.O_RDWR | os.O_CREAT, 0o640)
    try:
        fcntl.lockf(descriptor, fcntl.LOCK_EX)  # apt's locks are fcntl locks
        result = make("system-packages", f"APT_PACKAGES={MISSING}", "APT_LOCK_WAIT=5")
    finally:
        os.close(descriptor)
    assert result.returncode != 0
    assert "another apt holds its lock; waiting up to 5 s" in result.stdout, result.stdout
    assert "Could not get lock /var/lib/apt/lists/lock" in result.stderr, result.stderr
