"""What a run may use (``Limits``) and what it used (``RunResult``).

Units are explicit in every field name: ms, KiB, bytes. ``RunResult`` carries raw counters and
limit flags only; the verdict (MLE, TLE, OLE, RTE ...) is the judge's business, and the flags come
from counters (cgroup CPU and OOM counters, the stdout size, the parent's wall clock), never from
the exit code alone: a program may ``exit(137)`` itself (tests/sandbox/test_hostile.py::
test_exit_137_is_not_a_limit).
"""

from __future__ import annotations

import signal as signals
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run.

    cpu_ms: CPU time of all processes and threads of the run together (ms).
    wall_ms: real time from start to end (ms); catches sleeping and blocked programs.
    memory_kib: memory of all processes together (KiB): cgroup memory limit; also the stack limit.
    processes: tasks (processes and threads) the program may have at once.
    output_bytes: standard output size (bytes); more sets ``output_limit_exceeded``.
    file_bytes: size of any single file the program writes (bytes, RLIMIT_FSIZE).
    stderr_bytes: standard error kept (bytes); more is read and dropped, never a verdict.
    tmp_bytes: size of the private /tmp and /dev/shm (bytes, tmpfs ``size``).
    workdir_bytes: how much the run may add to its work folder in total (bytes; each entry counts
        4 KiB besides its size).

    Raises ValueError if a limit is not a positive integer.
    """

    cpu_ms: int = 1000
    wall_ms: int = 3000
    memory_kib: int = 262144
    processes: int = 64
    output_bytes: int = 8 << 20
    file_bytes: int = 8 << 20
    stderr_bytes: int = 64 << 10
    tmp_bytes: int = 64 << 20
    workdir_bytes: int = 256 << 20

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive integer, not {value!r}")


@dataclass
class RunResult:
    """What one run did.

    exit_code: the program's exit status, or None if it died of a signal.
    signal: the number of the signal that ended it (SIGKILL also when the sandbox killed it at a
        limit), or None; ``signal_name`` gives its name (``SIGSEGV``).
    cpu_ms: CPU time of all its processes and threads (ms); wall_ms: real time (ms).
    peak_memory_kib: the largest memory use seen (KiB; cgroup peak, or max RSS without cgroups).
    cpu_limit_exceeded / wall_limit_exceeded / memory_limit_exceeded / output_limit_exceeded:
        set from counters: CPU used > cpu_ms, killed at wall_ms, an OOM kill in its cgroup, stdout
        larger than output_bytes, a write past file_bytes (SIGXFSZ) or a work folder grown past
        workdir_bytes.
    process_limit_hit: a fork or thread creation was refused at the ``processes`` cap (not a
        verdict by itself: the program saw EAGAIN and may have coped).
    stdout: standard output, at most output_bytes; stderr: at most stderr_bytes (cut silently).
    """

    exit_code: int | None
    signal: int | None
    cpu_ms: int
    wall_ms: int
    peak_memory_kib: int
    cpu_limit_exceeded: bool = False
    wall_limit_exceeded: bool = False
    memory_limit_exceeded: bool = False
    output_limit_exceeded: bool = False
    process_limit_hit: bool = False
    stdout: bytes = b""
    stderr: bytes = b""

    @property
    def signal_name(self) -> str | None:
        """``SIGABRT`` for signal 6; ``SIG<n>`` for a number without a name; None without a signal."""
        if self.signal is None:
            return None
        try:
            return signals.Signals(self.signal).name
        except ValueError:
            return f"SIG{self.signal}"

    @property
    def limit_exceeded(self) -> bool:
        """True if any limit flag (CPU, wall, memory, output) is set."""
        return (
            self.cpu_limit_exceeded
            or self.wall_limit_exceeded
            or self.memory_limit_exceeded
            or self.output_limit_exceeded
        )
