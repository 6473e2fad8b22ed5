"""The in-box starter (``init/boxinit.c``), compiled once per machine and cached.

Why a C program: bubblewrap reports a program's end as one exit code (128+n for signal n), so
``exit(134)`` and ``abort()`` look alike; boxinit reports the exact wait status on its own FD.
It also joins the slot's cgroups from inside the box through FDs the judge opened as root, so
bubblewrap's own set-up (about 10 ms of CPU) is not charged to the program.
tests/sandbox/test_hostile.py::test_exit_137_is_not_a_limit, test_abort_reports_sigabrt

Guarantee: if no C compiler is found, ``boxinit_binary`` returns None and the runner starts the
program directly (exit codes above 128 then read as signals; set-up CPU counted) with a warning.
tests/sandbox/test_runner.py::test_runs_without_boxinit
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)
SOURCE = Path(__file__).with_name("init") / "boxinit.c"
BOX_PATH = "/sandbox-init"
ROOT_CACHE = Path("/var/cache/classjudge-sandbox")


def cache_dir() -> Path:
    """Where the binary is kept: /var/cache/classjudge-sandbox as root (readable by the slot
    uids), else ~/.cache/classjudge-sandbox."""
    if os.geteuid() == 0:
        return ROOT_CACHE
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "classjudge-sandbox"


def boxinit_binary() -> Path | None:
    """The compiled boxinit for the current source (built on first use), or None if no C
    compiler can build it. The file name carries the source's SHA-256, so an edit rebuilds it."""
    source = SOURCE.read_bytes()
    folder = cache_dir()
    target = folder / f"boxinit-{hashlib.sha256(source).hexdigest()[:16]}"
    if target.is_file():
        return target
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        log.warning("no C compiler: the sandbox starts programs without boxinit (signals read from exit codes)")
        return None
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    with tempfile.TemporaryDirectory(dir=folder) as build:
        output = Path(build) / "boxinit"
        for extra in (["-static"], []):  # static if libc.a is there: no loader needed in the box
            done = subprocess.run([compiler, "-O2", *extra, "-o", str(output), str(SOURCE)],
                                  capture_output=True, text=True)
            if done.returncode == 0:
                os.chmod(output, 0o755)
                os.replace(output, target)
                _remove_old_builds(folder, keep=target)
                return target
    log.warning("cannot compile %s: %s", SOURCE, done.stderr.strip()[:500])
    return None


def _remove_old_builds(folder: Path, keep: Path) -> None:
    """Delete binaries of earlier boxinit sources (a running box keeps its own copy open)."""
    for old in folder.glob("boxinit-*"):
        if old != keep and old.is_file():
            old.unlink(missing_ok=True)


def parse_status(text: str) -> tuple[str, int] | None:
    """boxinit's report as (kind, number): ("exit", 0), ("signal", 6), ("exec-failed", errno),
    ("setup-failed", errno); None if it wrote none. A failure line wins over the exit line that
    follows it (the failed child's own ``_exit``)."""
    found: dict[str, int] = {}
    for line in text.splitlines():
        kind, _, number = line.partition(" ")
        if number.strip().isdigit():
            found.setdefault(kind, int(number))
    for kind in ("setup-failed", "exec-failed", "signal", "exit"):
        if kind in found:
            return kind, found[kind]
    return None
