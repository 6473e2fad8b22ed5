"""Per-slot control groups: the CPU, memory and task counters and limits of a run.

Two backends behind one interface (``prepare`` → the child joins → ``cpu_ns`` while it runs →
``finish`` → ``kill_all`` / ``wait_empty``; for a session also ``make_ahead`` while a run goes
on, ``wait_released``, as its init reaps a run's orphans, and ``remove_used``), chosen by
``detect_cgroups`` from /proc/self/mountinfo:

- ``CgroupV1``: separate hierarchies memory, pids, cpuacct (this machine). One persistent cgroup
  per slot and controller, ``<mount>/classjudge-sandbox/slot<N>``, reused by every run of the
  slot: cpuacct.usage is reset, pids.events ``max`` read as a difference. Memory gets a fresh
  leaf per run (``slot<N>/run``, or ``run-<random>`` in a session: the name tells a program
  nothing, not even how many runs came before) so that page cache
  charged by earlier runs does not distort the peak (memory.max_usage_in_bytes) or hide an OOM
  kill (memory.oom_control ``oom_kill``).
  tests/sandbox/test_cgroups.py::test_v1_slot_counters_and_limits,
  tests/sandbox/test_limits.py::test_memory_hog_hits_memory_limit_with_peak_near_it
- ``CgroupV2``: the unified hierarchy (``cpu.stat`` usage_usec, ``memory.max``, ``memory.peak``,
  ``memory.events`` oom_kill, ``pids.max``). A fresh leaf ``run`` per run under the slot, since
  ``memory.peak`` cannot be reset before Linux 6.12; controllers are enabled down the path
  (``cgroup.subtree_control``). Unit-tested on a fake tree (this machine's v2 has no controllers):
  tests/sandbox/test_cgroups.py::test_v2_backend_on_fake_tree
- ``detect_cgroups`` picks v2 if its root lists memory and pids, else v1 if the three v1
  controllers are mounted, else None (the runner then falls back to rlimits and logs why).
  tests/sandbox/test_cgroups.py::test_detect_prefers_v2_with_controllers

Guarantee: after ``kill_all`` + ``wait_empty`` no task of the slot is left (the runner checks this
after every run). tests/sandbox/test_hostile.py::test_daemon_does_not_outlive_the_run
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sandbox.errors import SandboxError
from sandbox.limits import Limits

log = logging.getLogger(__name__)
PARENT_NAME = "classjudge-sandbox"
SUPERVISOR_NAME = "classjudge-supervisor"
V1_CONTROLLERS = ("memory", "pids", "cpuacct")
# v2: memory and pids are needed; cpu.stat's usage_usec exists without the cpu controller, which
# is enabled when offered
V2_CONTROLLERS = ("memory", "pids")
V2_OPTIONAL = ("cpu",)
# a v1 memory leaf of a run: "run", or "run-<random hex>" in a session (CgroupV1.prepare)
LEAF_NAME = "run"
# a session's used memory leaves kept before the older half is removed (each holds some kernel
# memory and the page cache charged to it until removed)
USED_LEAVES_MAX = 64
# tasks bubblewrap adds to a run's cgroup when the child joins before exec: its monitor and the
# namespace's init (with boxinit joining from inside, only boxinit itself is added)
BWRAP_TASKS = 2


@dataclass
class CgroupUsage:
    """Counters of one finished run: cpu_ns (ns of CPU, all tasks), peak_bytes (memory peak in
    bytes), oom_kills (OOM kills in the run's cgroup), task_limit_hits (forks refused at pids.max)."""

    cpu_ns: int
    peak_bytes: int
    oom_kills: int
    task_limit_hits: int


def write_file(path: Path | str, value: str) -> None:
    """Write ``value`` to a cgroup control file. Raises SandboxError naming the file on failure.
    (Plain system calls: a run touches a dozen control files, and buffered text I/O costs
    several times more; the flags are those of ``open(path, "w")``, which a test's fake tree
    needs.)"""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
        try:
            os.write(fd, value.encode())
        finally:
            os.close(fd)
    except OSError as error:
        raise SandboxError(f"cannot write {value!r} to {path}: {error.strerror}") from error


def read_text(path: Path | str) -> str:
    """The whole of a small control file (FileNotFoundError if it is gone)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks).decode()
    finally:
        os.close(fd)


def read_keyed(path: Path | str) -> dict[str, int]:
    """A flat-keyed cgroup file (``key value`` lines, e.g. memory.events) as a dict."""
    return parse_keyed(read_text(path))


def parse_keyed(text: str) -> dict[str, int]:
    """``key value`` lines as a dict (lines whose value is not a number are left out)."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if value.strip().lstrip("-").isdigit():
            values[key] = int(value)
    return values


def read_int(path: Path | str) -> int:
    """A single-number cgroup file (``max`` reads as -1)."""
    text = read_text(path).strip()
    return -1 if text == "max" else int(text)


def pids_in(procs_file: Path | str) -> list[int]:
    """The process ids listed in a ``cgroup.procs`` file (empty if the cgroup is gone)."""
    try:
        return [int(line) for line in read_text(procs_file).split()]
    except FileNotFoundError:
        return []


def kill_listed(procs_file: Path | str) -> None:
    """SIGKILL every process listed in ``procs_file`` (a race with exiting ones is harmless)."""
    for pid in pids_in(procs_file):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def wait_until_empty(procs_file: Path | str, timeout_s: float) -> bool:
    """Kill and wait until ``procs_file`` lists no process; False if some survive ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    delay = 0.0005
    while pids_in(procs_file):
        if time.monotonic() > deadline:
            return False
        kill_listed(procs_file)
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
    return True


def wait_until_released(count_tasks: Callable[[], int], timeout_s: float) -> bool:
    """Wait until a pids controller counts no task (``count_tasks``, e.g. ``pids.current``);
    False if some are still counted after ``timeout_s``. A task leaves ``cgroup.procs`` when
    it exits but is counted until its parent reaps it."""
    deadline = time.monotonic() + timeout_s
    delay = 0.0002
    while count_tasks() != 0:
        if time.monotonic() > deadline:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
    return True


# How often (s) a watched run has the judge rewrite its own pid into its own cgroup (``MigrationWarmth``):
# well inside one RCU grace period (a few ms at the least)
WARM_S = 0.004


class MigrationWarmth:
    """A watchdog probe (``sandbox.watch.watch``) that keeps the next cgroup migration cheap.

    Linux guards every cgroup migration with one machine-wide lock (``cgroup_threadgroup_rwsem``,
    a per-CPU rwsem over ``rcu_sync``). Its writer waits for a whole RCU grace period
    (milliseconds) when no migration came within about one grace period before it, and hardly at
    all otherwise (benchmarks/judging.py shows the difference on the first test after a compile). The
    next run of a session joins its cgroups as soon as a run ends, and its request waits for
    that, so a compile or a long test would make the next test wait. While a run goes on, every
    ``WARM_S`` this writes the judge's pid into the ``cgroup.procs`` file of the cgroup it is in
    already: a migration that moves nothing. ``procs_fd``: that file, open for writing (the
    caller closes it). Never stops a run (``exceeded`` is always False); a failed write is
    ignored, since it only saves time.
    """

    name = "migrations"

    def __init__(self, procs_fd: int) -> None:
        self.procs_fd = procs_fd
        self.pid = str(os.getpid()).encode()

    def exceeded(self) -> bool:
        """Rewrite the pid; False."""
        try:
            os.write(self.procs_fd, self.pid)
        except OSError:
            pass
        return False

    def next_check_s(self) -> float:
        """``WARM_S``."""
        return WARM_S


def open_own_procs(mount_point: Path, proc_cgroup_text: str, controller: str | None) -> int | None:
    """A write descriptor of the ``cgroup.procs`` file of this process's own cgroup in the hierarchy
    mounted at ``mount_point``: the v1 hierarchy of ``controller``, or the unified one (None), read
    from ``proc_cgroup_text`` (/proc/self/cgroup); None when it is not listed or cannot be opened."""
    for line in proc_cgroup_text.splitlines():
        _, controllers, path = line.split(":", 2)
        if (controller is None and controllers == "") or (controller in controllers.split(",")):
            try:
                return os.open(mount_point / path.strip().lstrip("/") / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
            except OSError:
                return None
    return None


def own_cgroup_warmth(mount_point: Path | None, controller: str | None) -> list[MigrationWarmth]:
    """``[MigrationWarmth]`` on this process's own cgroup in the hierarchy at ``mount_point`` (see
    ``open_own_procs``; None: no such hierarchy), or ``[]`` when that cannot be opened."""
    fd = None if mount_point is None else open_own_procs(mount_point, read_text("/proc/self/cgroup"), controller)
    return [] if fd is None else [MigrationWarmth(fd)]


def close_warmth(probes: list[MigrationWarmth]) -> None:
    """Close the descriptors of ``own_cgroup_warmth``'s probes and empty the list."""
    while probes:
        os.close(probes.pop().procs_fd)


def make_dir(path: Path | str) -> None:
    """mkdir -p for cgroup folders, with a SandboxError that says what is wrong."""
    try:
        os.mkdir(path)
        return
    except FileExistsError:
        return
    except FileNotFoundError:
        pass  # a parent is missing: make the whole path
    except OSError as error:
        raise SandboxError(f"cannot create cgroup {path}: {error.strerror}") from error
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SandboxError(f"cannot create cgroup {path}: {error.strerror}") from error


def remove_dir(path: Path | str) -> None:
    """rmdir a cgroup folder, ignoring one that is gone or still busy."""
    try:
        os.rmdir(path)
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.EBUSY, errno.ENOTEMPTY):
            raise


class CgroupV1:
    """Cgroups v1 of one slot: ``mounts`` maps memory/pids/cpuacct to their mount points.

    pids and cpuacct: one persistent cgroup per slot, counters reset (cpuacct.usage) or read as a
    difference (pids.events). memory: a fresh leaf under the slot for every run, so the
    peak and OOM counters start at zero and page cache charged by earlier runs (a compiler's
    headers, a JVM's libraries) neither inflates nor, once reclaimed, deflates the peak.
    ``Sandbox.run`` removes and makes its leaf ``run`` before each run. A session's runs get
    leaves ``run-<random hex>``, each made while the run before it goes on (``make_ahead``),
    and the used ones are removed at its end (``remove_used``; the older
    half already when more than ``USED_LEAVES_MAX`` pile up): removing a memory cgroup starts
    kernel work that slows the run right after it (benchmarks/sandbox_overhead.py shows it),
    and a session's runs follow each other closely.
    Raises SandboxError if a cgroup cannot be created or a limit cannot be written.
    """

    kind = "v1"

    def __init__(self, mounts: dict[str, Path], slot: int) -> None:
        self.dirs = {name: mounts[name] / PARENT_NAME / f"slot{slot}" for name in V1_CONTROLLERS}
        for path in self.dirs.values():
            make_dir(path)
        self._memory_made = False  # whether it was made (before the first run it was not)
        # the files a run touches, as strings: a run's set-up makes no Path (pathlib's joins cost
        # more than the system calls)
        self._memory_root = str(self.dirs["memory"])
        self._leaf = f"{self._memory_root}/{LEAF_NAME}"  # the current run's memory leaf
        self._pids_max = str(self.dirs["pids"] / "pids.max")
        self._slot_procs = [str(self.dirs[name] / "cgroup.procs") for name in ("pids", "cpuacct", "memory")]
        # (leaf, its memory limit, the cgroup.procs files of a run in it) made by ``make_ahead``
        self._ahead: tuple[str, str, list[bytes]] | None = None
        # a session leaf -> its peak and OOM files (descriptors), opened when it is made
        self._counter_fds: dict[str, tuple[int, int]] = {}
        self._used: list[str] = []  # leaves of a session's earlier runs, to remove
        self._tasks_max: int | None = None
        # pids.events "max" at the start of the run; known without a read when the last run's
        # ``finish`` read it (no task of the slot forks between two runs)
        self._base_task_hits = 0
        self._task_hits_known = False
        self._has_memsw = (self.dirs["memory"] / "memory.memsw.limit_in_bytes").exists()
        # counters read at every run, kept open (a pread costs a tenth of an open)
        self._cpu_fd = os.open(self.dirs["cpuacct"] / "cpuacct.usage", os.O_RDONLY | os.O_CLOEXEC)
        self._cpu_reset_fd = os.open(self.dirs["cpuacct"] / "cpuacct.usage", os.O_WRONLY | os.O_CLOEXEC)
        self._tasks_fd = os.open(self.dirs["pids"] / "pids.current", os.O_RDONLY | os.O_CLOEXEC)
        self._task_events_fd = os.open(self.dirs["pids"] / "pids.events", os.O_RDONLY | os.O_CLOEXEC)
        # the ``MigrationWarmth`` probe of every run (none when the judge's own cgroup cannot be written)
        self.warmth = own_cgroup_warmth(mounts["pids"], "pids")
        self.kill_all()
        self.wait_empty(2.0)
        for leaf in self.dirs["memory"].iterdir():  # left by a judge that died
            if leaf.is_dir():
                _remove_leaf(leaf)

    @property
    def memory(self) -> Path:
        """The memory leaf of the current (or last) run."""
        return Path(self._leaf)

    def _task_files(self) -> list[str]:
        return [f"{self._leaf}/cgroup.procs", *self._slot_procs]

    def _run_procs(self, leaf: str) -> list[bytes]:
        """The ``cgroup.procs`` files a run in memory leaf ``leaf`` joins: the leaf's, then the
        slot's pids and cpuacct cgroups'."""
        return [f"{leaf}/cgroup.procs".encode(), *(path.encode() for path in self._slot_procs[:2])]

    def prepare(self, limits: Limits, extra_tasks: int, defer_removal: bool = False) -> list[bytes]:
        """Set the limits (``extra_tasks`` added to the task cap for the sandbox's own processes),
        reset the counters; return the ``cgroup.procs`` files the run joins.

        defer_removal: keep the previous run's memory leaf until ``remove_used`` and make the
        new one under a new name (a session's runs).
        """
        if defer_removal:  # a new name (leftovers of earlier judges were removed at start)
            if self._memory_made:
                self._used.append(self._leaf)
            if len(self._used) > USED_LEAVES_MAX:  # a long session: bound the kernel memory kept
                for leaf in self._used[: USED_LEAVES_MAX // 2]:
                    self._close_counters(leaf)
                    _remove_leaf(leaf)
                del self._used[: USED_LEAVES_MAX // 2]
            if self._ahead is None:
                self.make_ahead(limits)
            assert self._ahead is not None
            (self._leaf, limit_set, procs), self._ahead = self._ahead, None
        else:
            self.remove_used()
            _remove_leaf(self._leaf)
            make_dir(self._leaf)
            limit_set, procs = None, self._run_procs(self._leaf)
        self._memory_made = True
        limit_bytes = str(limits.memory_kib * 1024)
        if limit_set != limit_bytes:
            self._set_memory_limit(self._leaf, limit_bytes, limit_set)
        if limits.processes + extra_tasks != self._tasks_max:
            self._tasks_max = limits.processes + extra_tasks
            write_file(self._pids_max, str(self._tasks_max))
        os.write(self._cpu_reset_fd, b"0")
        if not self._task_hits_known:
            self._base_task_hits = _pread_keyed(self._task_events_fd).get("max", 0)
        self._task_hits_known = False
        return procs

    def next_procs(self) -> list[bytes]:
        """The ``cgroup.procs`` files the next run of a session joins, as ``prepare`` will return
        them (the leaf made ahead, then the slot's pids and cpuacct cgroups); empty when no leaf
        was made ahead."""
        return [] if self._ahead is None else self._ahead[2]

    def make_ahead(self, limits: Limits) -> None:
        """Make the memory leaf of a session's next run now, under a new random name and with the
        memory limit of ``limits`` (``prepare`` corrects it if the next run's differs): a session
        calls it while a run goes on, when the judge only waits, so that the next run's set-up
        is shorter. The counter files of earlier runs' leaves are closed meanwhile. Raises
        SandboxError if the leaf cannot be made."""
        for used in [used for used in self._counter_fds if used != self._leaf]:
            self._close_counters(used)
        leaf = f"{self._memory_root}/{LEAF_NAME}-{secrets.token_hex(6)}"
        make_dir(leaf)
        limit_bytes = str(limits.memory_kib * 1024)
        try:
            self._set_memory_limit(leaf, limit_bytes)
            self._open_counters(leaf)
        except SandboxError:
            self._used.append(leaf)  # removed with the others
            raise
        self._ahead = (leaf, limit_bytes, self._run_procs(leaf))

    def _set_memory_limit(self, leaf: str, limit_bytes: str, previous: str | None = None) -> None:
        """Set a leaf's memory limit, and as much for memory + swap (no swapping around it);
        ``previous``: the limit it has (None: none yet). The kernel keeps memory.limit at most
        memory.memsw.limit: a raised limit is written to memsw first."""
        files = (
            ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"] if self._has_memsw else ["memory.limit_in_bytes"]
        )
        if previous is not None and int(limit_bytes) > int(previous):
            files.reverse()
        for name in files:
            write_file(f"{leaf}/{name}", limit_bytes)

    def remove_used(self) -> None:
        """Remove the memory leaves of a session's earlier runs and the one made ahead (at its
        end)."""
        if self._ahead is not None:
            self._used.append(self._ahead[0])
            self._ahead = None
        for leaf in list(self._counter_fds):
            self._close_counters(leaf)
        while self._used:
            _remove_leaf(self._used.pop())

    def _open_counters(self, leaf: str) -> None:
        """Open a session leaf's peak and OOM files for ``finish`` (made ahead, while the judge
        only waits, so that the end of a run costs no open). Raises SandboxError."""
        fds: list[int] = []
        try:
            for name in ("memory.max_usage_in_bytes", "memory.oom_control"):
                fds.append(os.open(f"{leaf}/{name}", os.O_RDONLY | os.O_CLOEXEC))
        except OSError as error:
            for fd in fds:
                os.close(fd)
            raise SandboxError(f"cannot open the counters of {leaf}: {error.strerror}") from error
        self._counter_fds[leaf] = (fds[0], fds[1])

    def _close_counters(self, leaf: str) -> None:
        for fd in self._counter_fds.pop(leaf, ()):
            os.close(fd)

    def cpu_ns(self) -> int:
        """CPU time of all tasks of the run so far (ns), from cpuacct.usage."""
        return int(os.pread(self._cpu_fd, 64, 0))

    def count_tasks(self) -> int:
        """Tasks of the slot now, the exited but not yet reaped included (pids.current)."""
        return int(os.pread(self._tasks_fd, 64, 0))

    def finish(self) -> CgroupUsage:
        """The run's counters (call after its tasks are gone)."""
        kept = self._counter_fds.get(self._leaf)
        if kept is not None:
            peak, oom = int(os.pread(kept[0], 64, 0)), _pread_keyed(kept[1]).get("oom_kill", 0)
        else:
            peak = read_int(f"{self._leaf}/memory.max_usage_in_bytes")
            oom = read_keyed(f"{self._leaf}/memory.oom_control").get("oom_kill", 0)
        task_hits = _pread_keyed(self._task_events_fd).get("max", 0)
        hits, self._base_task_hits, self._task_hits_known = task_hits - self._base_task_hits, task_hits, True
        return CgroupUsage(cpu_ns=self.cpu_ns(), peak_bytes=peak, oom_kills=oom, task_limit_hits=hits)

    def kill_all(self) -> None:
        """SIGKILL every task in the slot's cgroups."""
        for path in self._task_files():
            kill_listed(path)

    def wait_empty(self, timeout_s: float) -> bool:
        """Kill until no task is left in any of the slot's cgroups; False on timeout. Quick
        when pids counts none: every task of a run joins the pids cgroup together with the
        others (boxinit, boxserver and the pre-exec step write all procs files before exec)."""
        if self.count_tasks() == 0:
            return True
        return all(wait_until_empty(path, timeout_s) for path in self._task_files())

    def wait_released(self, timeout_s: float) -> bool:
        """Wait until every task of the run is also reaped (not counted by pids); False on
        timeout."""
        return wait_until_released(self.count_tasks, timeout_s)

    def close(self) -> None:
        """Kill what is left and remove the slot's cgroups."""
        self.kill_all()
        self.wait_empty(2.0)
        close_warmth(self.warmth)
        for name in ("_cpu_fd", "_cpu_reset_fd", "_tasks_fd", "_task_events_fd"):
            if getattr(self, name) is not None:
                os.close(getattr(self, name))
                setattr(self, name, None)
        self.remove_used()
        _remove_leaf(self._leaf)
        for path in self.dirs.values():
            remove_dir(path)


def _remove_leaf(leaf: Path | str) -> None:
    """Remove a v1 memory leaf once no task is left in it (a gone one is fine; a busy one is
    emptied first)."""
    try:
        os.rmdir(leaf)
    except OSError as error:
        if error.errno == errno.ENOENT:
            return
        if error.errno not in (errno.EBUSY, errno.ENOTEMPTY):  # ENOTEMPTY: a fake tree of the tests
            raise
        wait_until_empty(f"{leaf}/cgroup.procs", 2.0)
        remove_dir(leaf)


def _pread_keyed(fd: int) -> dict[str, int]:
    """A flat-keyed control file kept open at ``fd``, read from its start."""
    return parse_keyed(os.pread(fd, 4096, 0).decode())


class CgroupV2:
    """Cgroup v2 of one slot under ``root`` (a delegated folder of the unified hierarchy).

    The slot folder ``root/classjudge-sandbox/slot<N>`` holds one leaf ``run``, made afresh for
    every run. Raises SandboxError if the controllers cannot be enabled or a limit written.
    """

    kind = "v2"

    def __init__(self, root: Path, slot: int) -> None:
        self.root = root
        self.slot_dir = root / PARENT_NAME / f"slot{slot}"
        self.leaf = self.slot_dir / "run"
        make_dir(self.slot_dir)
        offered = set(_words(root / "cgroup.controllers"))
        wanted = [*V2_CONTROLLERS, *(name for name in V2_OPTIONAL if name in offered)]
        for folder in (root, root / PARENT_NAME, self.slot_dir):
            self._enable_controllers(folder, wanted)
        self._cpu_fd: int | None = None
        self.warmth = own_cgroup_warmth(parse_mountinfo(read_text("/proc/self/mountinfo")).v2, None)  # as v1's
        self._remove_leaf()

    def _enable_controllers(self, folder: Path, wanted: list[str]) -> None:
        if set(wanted) <= set(_words(folder / "cgroup.subtree_control")):
            return
        enable = " ".join(f"+{name}" for name in wanted)
        try:
            write_file(folder / "cgroup.subtree_control", enable)
        except SandboxError as error:
            busy = isinstance(error.__cause__, OSError) and error.__cause__.errno == errno.EBUSY
            if not (busy and folder == self.root):
                raise
            # "no internal processes": a delegated cgroup (systemd Delegate=yes) that holds this
            # process must hand it to a leaf before its children can get controllers
            make_dir(self.root / SUPERVISOR_NAME)
            write_file(self.root / SUPERVISOR_NAME / "cgroup.procs", str(os.getpid()))
            write_file(folder / "cgroup.subtree_control", enable)

    def prepare(self, limits: Limits, extra_tasks: int, defer_removal: bool = False) -> list[bytes]:
        """Make a fresh leaf with the limits (``extra_tasks`` added to the task cap); return its
        ``cgroup.procs`` file for the run to join. ``defer_removal`` is accepted for the
        interface's sake: the one leaf is replaced at once (v2 is not used on this machine)."""
        self._remove_leaf()
        make_dir(self.leaf)
        write_file(self.leaf / "memory.max", str(limits.memory_kib * 1024))
        if (self.leaf / "memory.swap.max").exists():
            write_file(self.leaf / "memory.swap.max", "0")
        write_file(self.leaf / "pids.max", str(limits.processes + extra_tasks))
        return [str(self.leaf / "cgroup.procs").encode()]

    def cpu_ns(self) -> int:
        """CPU time of all tasks of the run so far (ns), from cpu.stat usage_usec."""
        if self._cpu_fd is None:
            self._cpu_fd = os.open(self.leaf / "cpu.stat", os.O_RDONLY)
        text = os.pread(self._cpu_fd, 4096, 0).decode()
        for line in text.splitlines():
            if line.startswith("usage_usec "):
                return int(line.split()[1]) * 1000
        return 0

    def finish(self) -> CgroupUsage:
        """The run's counters (call after its tasks are gone)."""
        events = read_keyed(self.leaf / "memory.events")
        peak_file = self.leaf / "memory.peak"
        peak = read_int(peak_file) if peak_file.exists() else read_int(self.leaf / "memory.current")
        pids_events = read_keyed(self.leaf / "pids.events")
        return CgroupUsage(
            cpu_ns=self.cpu_ns(),
            peak_bytes=peak,
            oom_kills=events.get("oom_kill", 0),
            task_limit_hits=pids_events.get("max", 0),
        )

    def kill_all(self) -> None:
        """Kill every task of the run: ``cgroup.kill`` (Linux 5.14+) or SIGKILL one by one."""
        if not self.leaf.exists():
            return
        kill_file = self.leaf / "cgroup.kill"
        if kill_file.exists():
            try:
                write_file(kill_file, "1")
            except SandboxError:
                pass
        kill_listed(self.leaf / "cgroup.procs")

    def wait_empty(self, timeout_s: float) -> bool:
        """Kill until the leaf holds no task; False on timeout."""
        return wait_until_empty(self.leaf / "cgroup.procs", timeout_s)

    def wait_released(self, timeout_s: float) -> bool:
        """Wait until every task of the run is also reaped (not counted by pids); False on
        timeout."""
        return wait_until_released(self.count_tasks, timeout_s)

    def count_tasks(self) -> int:
        """Tasks of the run now, the exited but not yet reaped included (pids.current)."""
        try:
            return read_int(self.leaf / "pids.current")
        except FileNotFoundError:
            return 0

    def make_ahead(self, limits: Limits) -> None:
        """Nothing to make ahead: ``prepare`` replaces the one leaf."""

    def next_procs(self) -> list[bytes]:
        """Nothing to join ahead: ``prepare`` replaces the one leaf."""
        return []

    def remove_used(self) -> None:
        """Nothing to remove: ``prepare`` replaces the one leaf."""

    def _remove_leaf(self) -> None:
        if self._cpu_fd is not None:
            os.close(self._cpu_fd)
            self._cpu_fd = None
        if self.leaf.exists():
            self.kill_all()
            self.wait_empty(2.0)
            _remove_tree(self.leaf)

    def close(self) -> None:
        """Kill what is left and remove the slot's cgroups (a busy one is left, with a warning)."""
        close_warmth(self.warmth)
        try:
            self._remove_leaf()
            _remove_tree(self.slot_dir)
        except SandboxError as error:
            log.warning("%s", error)


def _remove_tree(path: Path) -> None:
    """Remove a cgroup folder. On a real cgroupfs its control files go with rmdir; in a fake tree
    (tests) they are plain files and are deleted first."""
    for child in path.iterdir():
        if child.is_file() and not (path / "cgroup.controllers").exists():
            child.unlink()
    try:
        path.rmdir()
    except OSError as error:
        if error.errno != errno.ENOENT:
            raise SandboxError(f"cannot remove cgroup {path}: {error.strerror}") from error


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []


@dataclass
class CgroupMounts:
    """Where the hierarchies are: ``v2`` the unified mount (or None), ``v1`` controller → mount."""

    v2: Path | None
    v1: dict[str, Path]


def parse_mountinfo(text: str) -> CgroupMounts:
    """Cgroup mount points from /proc/self/mountinfo (proc(5) format: fields, ``-``, fs type,
    source, super options; v1 controllers are named in the super options)."""
    v2: Path | None = None
    v1: dict[str, Path] = {}
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        sep = fields.index("-")
        mount_point, fs_type = Path(fields[4]), fields[sep + 1]
        options = fields[sep + 3].split(",") if len(fields) > sep + 3 else []
        if fs_type == "cgroup2" and v2 is None:
            v2 = mount_point
        elif fs_type == "cgroup":
            for name in V1_CONTROLLERS:
                if name in options:
                    v1.setdefault(name, mount_point)
    return CgroupMounts(v2=v2, v1=v1)


def own_cgroup_v2(proc_cgroup_text: str) -> str:
    """This process's path in the unified hierarchy, from /proc/self/cgroup (the ``0::`` line)."""
    for line in proc_cgroup_text.splitlines():
        if line.startswith("0::"):
            return line[3:].strip() or "/"
    return "/"


def detect_cgroups(
    mountinfo: str | None = None, proc_cgroup: str | None = None, v2_root: Path | None = None
) -> tuple[str, Path | dict[str, Path]] | None:
    """Which cgroup version can limit a run here: ("v2", delegated root folder),
    ("v1", controller → mount point), or None.

    v2 wins when its root (``v2_root``, else this process's own cgroup) lists memory and pids in
    ``cgroup.controllers``; v1 needs memory, pids and cpuacct mounted.
    """
    if mountinfo is None:
        mountinfo = Path("/proc/self/mountinfo").read_text()
    mounts = parse_mountinfo(mountinfo)
    if mounts.v2 is not None:
        if v2_root is None:
            if proc_cgroup is None:
                proc_cgroup = Path("/proc/self/cgroup").read_text()
            v2_root = mounts.v2 / own_cgroup_v2(proc_cgroup).lstrip("/")
        if set(V2_CONTROLLERS) <= set(_words(v2_root / "cgroup.controllers")):
            return "v2", v2_root
    if all(name in mounts.v1 for name in V1_CONTROLLERS):
        return "v1", mounts.v1
    return None


def open_slot_cgroups(slot: int, detected=None):
    """The backend for ``slot`` (``CgroupV1`` / ``CgroupV2``), or None when no cgroup can be used.

    Raises SandboxError if cgroups exist but the slot's cannot be created (e.g. not root).
    """
    detected = detect_cgroups() if detected is None else detected
    if detected is None:
        return None
    kind, where = detected
    return CgroupV2(where, slot) if kind == "v2" else CgroupV1(where, slot)
