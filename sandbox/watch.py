"""The parent's watchdog: waits for the box to end while enforcing CPU and wall time.

Guarantees:
- CPU time is the sum over all processes and threads of the run (the cgroup counter), polled
  more often as the limit nears (``CpuProbe``); past the limit the box is killed. Eight spinning threads are
  stopped at about 1x the limit of total CPU, not 8x. tests/sandbox/test_limits.py::
  test_spinning_threads_share_one_cpu_budget
- Wall time is the parent's monotonic clock from spawn; past the limit the box is killed, so a
  sleeping or blocked program ends. tests/sandbox/test_limits.py::test_sleep_hits_wall_limit
- Standard output and standard error are pipes drained while the program runs (a full pipe
  never blocks it). Standard output is kept up to ``Limits.output_bytes``, and one byte more
  stops the run (OLE): no file of the host holds it, so nothing a program does to it
  (``fallocate``, ``ftruncate``, seeking) takes disk. tests/sandbox/test_limits.py::
  test_stdout_flood_hits_the_output_limit, tests/sandbox/test_box_guarantees.py::
  test_stdout_is_a_pipe_that_takes_no_disk
- Standard error is kept up to its cap; the rest is read and dropped.
  tests/sandbox/test_limits.py::test_stderr_is_capped_not_fatal
"""

from __future__ import annotations

import fcntl
import os
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

# CPU checks: never sparser than this (s), never denser
MAX_CHECK_S = 0.05
MIN_CHECK_S = 0.002
STREAM_CHUNK = 1 << 20
# reads per wake-up of one stream (a flood must not starve the limit checks)
DRAIN_READS = 16
# the pipe buffer asked for standard output (bytes): fewer wake-ups for a large output
STDOUT_PIPE_BYTES = 1 << 20
# fcntl's F_SETPIPE_SZ (linux/fcntl.h)
F_SETPIPE_SZ = 1031
# CPUs of the machine, read once (os.cpu_count() reads /sys at every call)
CPUS = os.cpu_count() or 1
# after the box ends, how long to wait for the last bytes of its streams (s)
STREAM_DRAIN_S = 1.0
# after a kill, how long a run may take to end before the last resort (s)
KILL_GRACE_S = 5.0


@dataclass
class WatchOutcome:
    """How the watched run ended: ``status`` (raw wait status), ``rusage`` (its resource usage,
    descendants included; None for a session run), ``killed_for`` ("wall", "output", a probe's
    name, or None), ``wall_ns`` (spawn to exit), ``stdout`` and ``stderr`` (each at most its
    cap), ``stdout_bytes`` (all the bytes standard output carried, kept or not)."""

    status: int
    rusage: resource.struct_rusage | None
    killed_for: str | None
    wall_ns: int
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_bytes: int = 0


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


class Stream:
    """A pipe the watchdog drains while the run goes on: ``fd`` (its read end), what was kept
    (``buffer``), and ``stop_at`` (bytes: more than this stops the run; None: never)."""

    def __init__(self, fd: int, cap: int, stop_at: int | None = None) -> None:
        self.fd = fd
        self.buffer = CappedBuffer(cap)
        self.stop_at = stop_at
        self.open = True
        os.set_blocking(fd, False)

    def fileno(self) -> int:
        """The read end (for ``select``)."""
        return self.fd

    @property
    def total(self) -> int:
        """Bytes read so far (kept and dropped)."""
        return len(self.buffer.data) + self.buffer.dropped

    @property
    def over(self) -> bool:
        """Whether more than ``stop_at`` bytes came."""
        return self.stop_at is not None and self.total > self.stop_at

    def drain(self) -> None:
        """Read what is available now; ``open`` becomes False at end of file."""
        for _ in range(DRAIN_READS):
            try:
                chunk = os.read(self.fd, STREAM_CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                self.open = False
                return
            self.buffer.add(chunk)


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
    streams: tuple[Stream, Stream],
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
            streams,
            wall_limit_ns=wall_limit_ns,
            probes=probes,
            kill=kill,
        )
    finally:
        os.close(pidfd)


def output_streams(stdout_fd: int, stderr_fd: int, limits) -> tuple[Stream, Stream]:
    """The (stdout, stderr) streams of a run under ``limits`` (``sandbox.limits.Limits``): stdout
    kept up to ``output_bytes`` and the run stopped past it; stderr kept up to ``stderr_bytes``,
    the rest read and dropped."""
    try:
        fcntl.fcntl(stdout_fd, F_SETPIPE_SZ, STDOUT_PIPE_BYTES)
    except OSError:
        pass  # the default 64 KiB pipe works too, with more wake-ups
    return Stream(stdout_fd, limits.output_bytes, stop_at=limits.output_bytes), Stream(stderr_fd, limits.stderr_bytes)


def watch(
    end_fd: int,
    reap: Callable[[], tuple[int, resource.struct_rusage | None]],
    started_ns: int,
    streams: tuple[Stream, Stream],
    *,
    wall_limit_ns: int,
    probes: list,
    kill: Callable[[], None],
    last_resort: Callable[[], None] | None = None,
) -> WatchOutcome:
    """Wait for a run (started at ``started_ns``, monotonic ns) to end, enforcing its limits.

    end_fd: becomes readable when the run has ended (a pidfd, or a session's socket).
    reap: called once then; returns (raw wait status, rusage or None) and leaves nothing of the
    run that could still hold its pipes open.
    streams: (stdout, stderr) read ends (``output_streams``; the caller closes the descriptors);
    both are drained while it runs, and a stream past its ``stop_at`` stops the run ("output").
    probes: limits checked while it runs, each with ``name``, ``exceeded()`` and
    ``next_check_s()`` (``CpuProbe``, ``sandbox.workdir.FolderGrowth``).
    kill: stops the whole run (called once, at a limit). last_resort: called if the run has not
    ended ``KILL_GRACE_S`` after ``kill`` (a session ends its whole box), so that nothing can
    hang the judge. Returns a ``WatchOutcome`` whose ``killed_for`` is "wall", "output" or the
    name of the probe that fired; ``wall_ns`` ends when ``end_fd`` became readable.
    """
    poller = select.poll()
    poller.register(end_fd, select.POLLIN)
    by_fd = {stream.fd: stream for stream in streams}
    for stream in streams:
        poller.register(stream.fd, select.POLLIN)
    killed_for: str | None = None
    killed_at = 0  # monotonic ns of the kill
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
            polled = by_fd.get(fd)
            if polled is not None and polled.open:
                polled.drain()
                if not polled.open:
                    poller.unregister(fd)
                if polled.over and killed_for is None:
                    killed_for, killed_at = "output", time.monotonic_ns()
                    kill()
            elif fd == end_fd:
                ended = True
        if ended:
            break
    wall_ns = time.monotonic_ns() - started_ns
    status, rusage = reap()
    deadline = time.monotonic() + STREAM_DRAIN_S
    waiting = [stream for stream in streams if stream.open]
    while waiting and time.monotonic() < deadline:
        for stream in select.select(waiting, [], [], max(0.0, deadline - time.monotonic()))[0]:
            stream.drain()
        waiting = [stream for stream in waiting if stream.open]
    stdout, stderr = streams
    if stdout.over and killed_for is None:
        killed_for = "output"
    return WatchOutcome(
        status, rusage, killed_for, wall_ns, bytes(stdout.buffer.data), bytes(stderr.buffer.data), stdout.total
    )


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
