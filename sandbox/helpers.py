"""The small C helpers of the sandbox, compiled once per machine and cached.

- ``launch`` (init/launch.c) runs outside the box: rlimits, drop to the slot's uid, exec
  bubblewrap. Being a separate program lets the judge spawn it with vfork instead of forking
  the whole Python process to run Python code before exec, which costs about ten times more
  (benchmarks/sandbox_overhead.py).
- ``boxinit`` (init/boxinit.c) is PID 1 in the box: joins the cgroups through FDs the judge
  opened (so bubblewrap's own set-up is not charged to the program), starts
  the program and reports its exact wait status: bubblewrap alone reports 128+n for signal n,
  so ``exit(134)`` and ``abort()`` would look alike.
  tests/sandbox/test_hostile.py::test_exit_137_is_not_a_limit, test_abort_reports_sigabrt
- ``boxserver`` (init/boxserver.c) is PID 1 of a session box (sandbox.session): it starts one
  program per request of the judge, each in its own mount and IPC namespaces, cgroups and
  limits, and reports how it ended (the protocol is in its header comment).
  tests/sandbox/test_session.py

Guarantee: without a C compiler ``build_helpers`` returns None and the runner falls back to a
Python pre-exec step and to starting the program directly (exit codes above 128 then read as
signals; set-up CPU counted), with a warning. tests/sandbox/test_runner.py::test_runs_without_helpers
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)
SOURCES = Path(__file__).with_name("init")
BOXINIT_BOX_PATH = "/sandbox-init"
BOXSERVER_BOX_PATH = "/sandbox-server"
ROOT_CACHE = Path("/var/cache/classjudge-sandbox")


@dataclass(frozen=True)
class Helpers:
    """Paths of the compiled helpers on the host."""

    launch: Path
    boxinit: Path
    boxserver: Path


def cache_dir() -> Path:
    """Where binaries are kept: /var/cache/classjudge-sandbox as root (readable by the slot
    uids), else ~/.cache/classjudge-sandbox."""
    if os.geteuid() == 0:
        return ROOT_CACHE
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "classjudge-sandbox"


def build_helpers() -> Helpers | None:
    """All helpers, compiled on first use; None (with a warning) if one cannot be built."""
    launch, boxinit, boxserver = (build_helper(name) for name in ("launch", "boxinit", "boxserver"))
    if launch is None or boxinit is None or boxserver is None:
        return None
    return Helpers(launch, boxinit, boxserver)


def build_helper(name: str) -> Path | None:
    """The binary of ``init/<name>.c`` for its current source (the file name carries the source's
    SHA-256, so an edit rebuilds it), or None if no C compiler can build it."""
    source = SOURCES / f"{name}.c"
    folder = cache_dir()
    target = folder / f"{name}-{hashlib.sha256(source.read_bytes()).hexdigest()[:16]}"
    if target.is_file():
        return target
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        log.warning("no C compiler: the sandbox runs without its %s helper (weaker, slower)", name)
        return None
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    with tempfile.TemporaryDirectory(dir=folder) as build:
        output = Path(build) / name
        for extra in (["-static"], []):  # static if libc.a is there: no loader needed in the box
            done = subprocess.run(
                [compiler, "-O2", *extra, "-o", str(output), str(source)], capture_output=True, text=True
            )
            if done.returncode == 0:
                os.chmod(output, 0o755)
                os.replace(output, target)
                _remove_old_builds(folder, name, keep=target)
                return target
    log.warning("cannot compile %s: %s", source, done.stderr.strip()[:500])
    return None


OLD_BUILD_AGE_S = 7 * 24 * 3600


def _remove_old_builds(folder: Path, name: str, keep: Path) -> None:
    """Delete binaries of other sources unused for a week. Not sooner: another checkout on this
    machine (a CI clone, a second worker version) may be running its own build right now."""
    now = time.time()
    for old in folder.glob(f"{name}-*"):
        try:
            if old != keep and old.is_file() and now - old.stat().st_atime > OLD_BUILD_AGE_S:
                old.unlink(missing_ok=True)
        except OSError:
            pass


def launch_arguments(launch: Path, uid: int | None, gid: int | None, rlimits: list[tuple[int, int, int]]) -> list[str]:
    """The ``launch`` prefix of a command: uid, gid (-1: keep) and RESOURCE:SOFT:HARD triples."""
    return [
        str(launch),
        str(-1 if uid is None else uid),
        str(-1 if gid is None else gid),
        *(f"{which}:{soft}:{hard}" for which, soft, hard in rlimits),
        "--",
    ]


def parse_maxrss(text: str) -> int | None:
    """The program's peak RSS in KiB from boxinit's ``maxrss`` line, or None."""
    for line in text.splitlines():
        kind, _, number = line.partition(" ")
        if kind == "maxrss" and number.strip().isdigit():
            return int(number)
    return None


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
