"""From a finished run's counters to its ``RunResult``: shared by the one-shot path
(``Sandbox.run``) and the session path (``Session.run``).

Guarantees:
- The limit flags come from counters, never from the exit code alone: CPU from the cgroup (or
  rusage without cgroups), memory from the cgroup's OOM count, output from the bytes read from
  the stdout pipe, a SIGXFSZ or the folder probe, wall from the watchdog. tests/sandbox/test_hostile.py::
  test_exit_137_is_not_a_limit (both paths)
- No task of the run is left when a result is returned: the run's cgroups are checked empty
  first, else SandboxError. tests/sandbox/test_hostile.py::test_daemon_does_not_outlive_the_run
"""

from __future__ import annotations

import os
import signal

from sandbox.errors import SandboxError
from sandbox.limits import Limits, RunResult
from sandbox.watch import WatchOutcome

# how long leftover tasks may take to die after a run ended (s)
CLEANUP_TIMEOUT_S = 5.0


def decode_exit(status: int, exit_code_reported: int | None) -> tuple[int | None, int | None]:
    """(exit code, signal number) of the program from bubblewrap's wait status.

    bubblewrap exits with the program's code, or 128+n when the program died of signal n
    (bash's convention): a code above 128 that names a signal is read as that signal.
    """
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    if exit_code_reported is not None and 128 < code < 128 + signal.NSIG:
        return None, code - 128
    return code, None


def program_end(status: int, reported: int | None, init_end: tuple[str, int] | None) -> tuple[int | None, int | None]:
    """(exit code, signal number) of the program: from the init's report (``boxinit`` or
    ``boxserver``: ("exit", n), ("signal", n), or a failure) when there is one, else from the
    wait status. Raises SandboxError when the init could not start the program."""
    if init_end is None:  # no init, or it was killed: only the wait status is left
        return decode_exit(status, reported)
    kind, number = init_end
    if kind == "exit":
        return number, None
    if kind == "signal":
        return None, number
    raise SandboxError(f"the box could not start the program ({kind}: {os.strerror(number)})")


def collect_result(
    limits: Limits,
    outcome: WatchOutcome,
    exit_code: int | None,
    signal_number: int | None,
    cgroups,
    slot: int,
    program_maxrss_kib: int | None = None,
) -> RunResult:
    """The ``RunResult`` of a finished run.

    cgroups: the slot's backend (``sandbox.cgroups``), or None (counters from ``outcome.rusage``).
    program_maxrss_kib: the program's peak RSS as boxinit saw it; without cgroups it is the peak
    reported (the rusage of bubblewrap's process tree starts at the judge's own size: Linux keeps
    a process's high-water RSS across exec, and bubblewrap is spawned from the judge).
    Raises SandboxError if a task of the run is still alive after ``CLEANUP_TIMEOUT_S``.
    """
    if cgroups is not None:
        if not cgroups.wait_empty(CLEANUP_TIMEOUT_S):
            raise SandboxError(f"tasks of sandbox slot {slot} survived the run")
        usage = cgroups.finish()
        cpu_ns, peak_kib = usage.cpu_ns, usage.peak_bytes // 1024
        oom, task_hits = usage.oom_kills > 0, usage.task_limit_hits > 0
    else:
        rusage = outcome.rusage
        if rusage is None:
            raise SandboxError("a run without cgroups has no resource usage")
        cpu_ns = int((rusage.ru_utime + rusage.ru_stime) * 1e9)
        peak_kib = program_maxrss_kib if program_maxrss_kib is not None else rusage.ru_maxrss
        task_hits = False
        oom = peak_kib >= limits.memory_kib
    return RunResult(
        exit_code=exit_code,
        signal=signal_number,
        cpu_ms=cpu_ns // 1_000_000,
        wall_ms=outcome.wall_ns // 1_000_000,
        peak_memory_kib=peak_kib,
        cpu_limit_exceeded=outcome.killed_for == "cpu" or cpu_ns > limits.cpu_ms * 1_000_000,
        wall_limit_exceeded=outcome.killed_for == "wall",
        memory_limit_exceeded=oom,
        output_limit_exceeded=(
            outcome.stdout_bytes > limits.output_bytes
            or signal_number == signal.SIGXFSZ
            or outcome.killed_for in ("output", "workdir")
        ),
        process_limit_hit=task_hits,
        stdout=outcome.stdout,
        stderr=outcome.stderr,
    )
