"""The parent's watchdog: waits for the box to end while enforcing CPU and wall time.

Guarantees:
- CPU time is the sum over all processes and threads of the run (the cgroup counter), polled
  more often as the limit nears (``CpuProbe``); past the limit the box is killed. Eight spinning threads are
  stopped at about 1x the limit of total CPU, not 8x. tests/sandbox/test_limits.py::
  test_spinning_threads_share_one_cpu_budget
- Wall time is the parent's monotonic clock from spawn; past the limit the box is killed, so a
  sleeping or blocked program ends. tests/sandbox/test_limits.py::test_sleep_hits_wall_limit
- Standard error is drained while the program runs (a full pipe never blocks it) and kept up to
  its cap; the rest is read and dropped. tests/sandbox/test_limits.py::test_stderr_is_capped_not_fatal
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

# CPU checks: never sparser than this (s), never denser
MAX_CHECK_S = 0.05
MIN_CHECK_S = 0.002
STDERR_CHUNK = 65536
# CPUs of the machine, read once (os.cpu_count() reads /sys at every call)
CPUS = os.cpu_count() or 1
# after the box ends, how long to wait for the last bytes of stderr (s)
STDERR_DRAIN_S = 1.0
# after a kill, how long a run may take to end before the last resort (s)
KILL_GRACE_S = 5.0


@dataclass
class WatchOutcome:
    """How the watched run ended: ``status`` (raw wait status), ``rusage`` (its resource usage,
    descendants included; None for a session run), ``killed_for`` ("wall", a probe's name, or None),
    ``wall_ns`` (spawn to exit), ``stderr`` (at most the cap)."""

    status: int
    rusage: object
    killed_for: str | None
    wall_ns: int
    stderr: bytes = b""


class CappedBuffer:
    """Bytes kept up to ``cap``; the rest counted and dropped."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        """Keep what fits under the cap, count the rest."""
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))


def _drain(fd: int, buffer: CappedBuffer) -> bool:
    """Read what is available; False at end of file."""
    try:
        chunk = os.read(fd, STDERR_CHUNK)
    except BlockingIOError:
        return True
    if not chunk:
        return False
    buffer.add(chunk)
    return True


class CpuProbe:
    """A watchdog probe: has the run used more than ``limit_ns`` of CPU (``read_ns``: the cgroup
    counter)? Checks more often as the limit nears, assuming every CPU busy."""

    name = "cpu"

    def __init__(self, read_ns: Callable[[], int], limit_ns: int) -> None:
        self.read_ns = read_ns
        self.limit_ns = limit_ns
        self.cpus = CPUS
        self.left_ns = limit_ns

    def exceeded(self) -> bool:
        """Read the counter now."""
        self.left_ns = self.limit_ns - self.read_ns()
        return self.left_ns < 0

    def next_check_s(self) -> float:
        """Until the limit could at the earliest be reached with all CPUs busy (2 to 50 ms)."""
        return min(MAX_CHECK_S, max(MIN_CHECK_S, self.left_ns / 1e9 / self.cpus))


def watch_process(
    pid: int,
    started_ns: int,
    stderr_fd: int,
    stderr_cap: int,
    *,
    wall_limit_ns: int,
    probes: list,
    kill: Callable[[], None],
) -> WatchOutcome:
    """``watch`` for a box that is our child process ``pid`` (bubblewrap of a one-shot run): it
    has ended when its pidfd is readable, and is reaped with wait4 (status and rusage)."""
    pidfd = os.pidfd_open(pid)
    try:
        return watch(
            pidfd,
            lambda: os.wait4(pid, 0)[1:],
            started_ns,
            stderr_fd,
            stderr_cap,
            wall_limit_ns=wall_limit_ns,
            probes=probes,
            kill=kill,
        )
    finally:
        os.close(pidfd)


def watch(
    end_fd: int,
    reap: Callable[[], tuple[int, object]],
    started_ns: int,
    stderr_fd: int,
    stderr_cap: int,
    *,
    wall_limit_ns: int,
    probes: list,
    kill: Callable[[], None],
    last_resort: Callable[[], None] | None = None,
) -> WatchOutcome:
    """Wait for a run (started at ``started_ns``, monotonic ns) to end, enforcing its limits.

    end_fd: becomes readable when the run has ended (a pidfd, or a session's socket).
    reap: called once then; returns (raw wait status, rusage or None) and leaves nothing of the
    run that could still hold standard error open.
    stderr_fd: read end of its stderr pipe (made non-blocking here; the caller closes it).
    probes: limits checked while it runs, each with ``name``, ``exceeded()`` and
    ``next_check_s()`` (``CpuProbe``, ``sandbox.workdir.FolderGrowth``).
    kill: stops the whole run (called once, at a limit). last_resort: called if the run has not
    ended ``KILL_GRACE_S`` after ``kill`` (a session ends its whole box), so that nothing can
    hang the judge. Returns a ``WatchOutcome`` whose
    ``killed_for`` is "wall" or the name of the probe that fired; ``wall_ns`` ends when
    ``end_fd`` became readable.
    """
    os.set_blocking(stderr_fd, False)
    buffer = CappedBuffer(stderr_cap)
    poller = select.poll()
    poller.register(end_fd, select.POLLIN)
    poller.register(stderr_fd, select.POLLIN)
    killed_for: str | None = None
    killed_at = 0  # monotonic ns of the kill
    stderr_open = True
    # monotonic ns of each probe's next check (each has just measured its start)
    due = {probe: started_ns + int(probe.next_check_s() * 1e9) for probe in probes}
    while True:
        now = time.monotonic_ns()
        if killed_for is None and now - started_ns > wall_limit_ns:
            killed_for, killed_at = "wall", now
            kill()
        for probe in probes:
            if killed_for is None and now >= due[probe]:
                if probe.exceeded():
                    killed_for, killed_at = probe.name, now
                    kill()
                due[probe] = now + int(probe.next_check_s() * 1e9)
        if killed_for is not None and last_resort is not None and now - killed_at > KILL_GRACE_S * 1e9:
            last_resort()
            last_resort = None
        if killed_for is not None:
            wait_ns = 50_000_000  # the run is dying: just wait for the end
        else:
            wait_ns = min([started_ns + wall_limit_ns, *due.values()]) - now
        events = poller.poll(max(0, wait_ns // 1_000_000) + 1)
        ended = False
        for fd, _ in events:
            if fd == stderr_fd and stderr_open:
                stderr_open = _drain(stderr_fd, buffer)
                if not stderr_open:
                    poller.unregister(stderr_fd)
            elif fd == end_fd:
                ended = True
        if ended:
            break
    wall_ns = time.monotonic_ns() - started_ns
    status, rusage = reap()
    deadline = time.monotonic() + STDERR_DRAIN_S
    while stderr_open and time.monotonic() < deadline:
        if select.select([stderr_fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
            stderr_open = _drain(stderr_fd, buffer)
    return WatchOutcome(status, rusage, killed_for, wall_ns, bytes(buffer.data))


def parent_of(pid: int) -> int | None:
    """The parent pid of ``pid`` from /proc/PID/stat, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1])


def stop_box(bwrap_pid: int, init_pid: int | None) -> None:
    """Kill a box: SIGKILL its namespace init (``init_pid``, bubblewrap's child) so the kernel
    kills every process of the PID namespace and bubblewrap reaps the init and exits.

    Killing bubblewrap itself would orphan the init (reaped later by the host's init, a process of
    the slot's uid left after the run), so that is only the fallback when the init is unknown.
    The init is signalled through a pidfd opened after checking it is still bubblewrap's child:
    a recycled pid is never hit.
    """
    if init_pid is not None:
        try:
            init_fd = os.pidfd_open(init_pid)
        except OSError:
            init_fd = None
        if init_fd is not None:
            try:
                if parent_of(init_pid) == bwrap_pid:
                    signal.pidfd_send_signal(init_fd, signal.SIGKILL)
                    return
            except ProcessLookupError:
                return
            finally:
                os.close(init_fd)
    try:
        os.kill(bwrap_pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def wait_for_exit(pid: int | None, timeout_s: float) -> None:
    """Wait until process ``pid`` (not our child) has exited, at most ``timeout_s``.

    Used for bubblewrap's own reaper when boxinit is missing: bubblewrap exits as soon as the
    reaper reports the program's end, before the reaper has finished killing the namespace.
    """
    if pid is None:
        return
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return  # already gone
    try:
        select.select([pidfd], [], [], timeout_s)
    finally:
        os.close(pidfd)
