"""``Session``: one box set up once and reused by the runs of one submission (compile, then every
test), so that a run costs about a fork and exec in the box instead of a whole bubblewrap start
(benchmarks/sandbox_overhead.py compares both paths with a bare spawn). The contract of both
paths is in sandbox/README.md.

    with box.session(work_root, readonly_binds=[...], env={"PATH": "/usr/bin:/bin"}) as session:
        folder = session.folder("t01")        # fresh, empty; the judge puts the program in it
        result = session.run(["./prog"], "t01", limits, stdin=test_input)

How: bubblewrap starts the box once (namespaces, system mounts, the session root at /box) with
``boxserver`` (sandbox/init/boxserver.c) as its PID 1. boxserver keeps a process ready for the
next run (its own mount and IPC namespaces with a fresh /tmp and /dev/shm, no capabilities,
the seccomp filter, and the program's process, already in the next run's cgroups); each
``run`` sends one request over a socket (folder, tmp size, rlimits, environment, argv, and the
standard streams and cgroup.procs files as descriptors); boxserver binds the run's folder in
that process's namespace (and mounts /tmp and /dev/shm again if the run asks another size),
and the program's process sets the rlimits and execs; the run's init replies how the program
ended. Only what the request needs is done before it is sent: the watchdog's set-up and the
next run's memory cgroup are made while the run goes on. The protocol is in boxserver.c's
header comment.

Guarantees, the same as ``Sandbox.run`` (the tests of the hostile corpus, limits, isolation,
seccomp and languages run through both paths: the ``runner`` fixture in tests/sandbox/):
- Limits and counters per run as in ``Sandbox.run``: the same ``Limits``, the same
  ``RunResult`` from the same counters (cgroup CPU, a fresh memory cgroup per run for the peak
  and OOM kills, pids hits, the bytes of the stdout pipe, the watchdog's wall clock and folder
  probe), the same rlimits, seccomp filter, uid, namespaces and read-only system folders.
  tests/sandbox/test_limits.py, tests/sandbox/test_session.py::test_limits_and_counters_are_per_run
- After each run every process of it is killed (its cgroups) and reaped before ``run``
  returns; a daemon, fork bomb or ``kill(-1)`` does not outlive it or reach the box's init.
  tests/sandbox/test_hostile.py::test_daemon_does_not_outlive_the_run,
  tests/sandbox/test_session.py::test_one_box_serves_every_run_and_keeps_its_init_out_of_reach
- A run sees only its own folder at /box: it is bound over the session root in the run's own
  mount namespace, so no other run's folder (earlier or later, removed or not) is reachable.
  Each run gets a fresh /tmp and /dev/shm (tmpfs of ``Limits.tmp_bytes``) and a fresh IPC
  namespace: nothing an earlier run left there is visible.
  tests/sandbox/test_session.py::test_runs_do_not_see_each_other,
  tests/sandbox/test_session.py::test_tmp_and_shm_have_each_runs_size
- A box that died (or a run that failed in the judge) is set up again for the next run.
  tests/sandbox/test_session.py::test_a_box_that_died_is_set_up_again
- As root the session's folders are on a tmpfs of ``disk_bytes`` of its own (``sandbox.disk``):
  the host's free disk never moves, a full disk is an output limit, and closing the session
  removes every file at once. tests/sandbox/test_box_guarantees.py::
  test_session_disk_is_capped_and_leaves_no_trace
- ``folder`` removes whatever an earlier run left, at any depth (``sandbox.tree``).
  tests/sandbox/test_box_guarantees.py::test_a_deep_tree_left_by_a_run_is_removed
- ``boxserver`` is copied into the box's own root, not bound: the run's mount table shows no
  host path of the judge's. tests/sandbox/test_box_guarantees.py::test_nothing_names_the_test
What differs from ``Sandbox.run``, by design:
- Each run has a PID namespace of its own (the program is PID 2, under an init that reaps
  and reports it) with its own /proc: no run sees how many processes earlier runs made.
  tests/sandbox/test_box_guarantees.py::test_each_run_has_its_own_pid_namespace
- The runs of a session share one network and UTS namespace (one at a time: the previous
  run's processes are all gone when the next starts) and the box's init, ``boxserver``, which
  keeps CAP_SYS_ADMIN and CAP_SYS_CHROOT in the box's user namespace to make each run's
  mounts; it is non-dumpable, blocks every signal and takes requests only from the judge's
  socket.
  Only AF_UNIX sockets can be made (sandbox.seccomp), so the shared network namespace carries
  nothing from run to run.
- The CPU counted starts with the program's request (the program's process, made ahead, joins
  the cgroups before it and waits there idle; the zygote, its init, stays out of them), not at
  the fork as with ``boxinit``: a little less of the sandbox's own work.
- The memory cgroups of a session's runs are removed when it closes, not after each run
  (removing one right before a run slows that run down).
- The read-only binds are fixed for the session; the environment can change per run.
- A session needs root, cgroups and the C helpers; without them ``run`` falls back to one
  ``Sandbox.run`` per call (same results, no reuse), with a warning.
  tests/sandbox/test_session.py::test_session_without_cgroups_falls_back_to_one_shot_runs
"""

from __future__ import annotations

import array
import logging
import os
import select
import socket
import subprocess
import time
from pathlib import Path

from sandbox.bwrap import BwrapStatus, session_arguments
from sandbox.child import rlimits_for
from sandbox.disk import filesystem_usage, forget_mounted, mount_tmpfs, note_mounted, unmount
from sandbox.errors import SandboxError
from sandbox.fds import OpenFds
from sandbox.helpers import BOXSERVER_BOX_PATH, launch_arguments, parse_status
from sandbox.limits import Limits, RunResult
from sandbox.notices import warn_once
from sandbox.outputs import check_plain_name
from sandbox.results import CLEANUP_TIMEOUT_S, collect_result, program_end
from sandbox.tree import clear_folder, remove_tree
from sandbox.watch import CpuProbe, WatchOutcome, output_streams, stop_box, watch
from sandbox.workdir import FolderGrowth, check_reachable, hand_over

log = logging.getLogger(__name__)
# how long bubblewrap and boxserver may take to set the box up (s)
START_TIMEOUT_S = 10.0
REPLY_BYTES = 256
# tells boxserver that the last run's processes are gone (see boxserver.c); the next run's tmpfs
# size (bytes) follows as a field
PREPARE = b"prepare\0"
# a run's limits when none are given
DEFAULT_LIMITS = Limits()
# the largest request sent (bytes): within boxserver's MAX_REQUEST and a socket's default send
# buffer (a larger SOCK_SEQPACKET message fails with EMSGSIZE)
MAX_REQUEST_BYTES = 128 * 1024
# the size of a session's own disk (bytes): room for the compile folder and one run's folder
# at their limits (Limits.file_bytes and workdir_bytes are 256 MiB by default)
SESSION_DISK_BYTES = 768 << 20


def encode_request(
    folder: str, tmp_bytes: int, rlimits: list[tuple[int, int, int]], env: dict[str, str], argv: list[str]
) -> bytes:
    """The request boxserver reads (see its header comment): NUL-terminated fields FOLDER,
    TMP_BYTES, then the counted lists of rlimits ("RESOURCE:SOFT:HARD"), environment
    ("NAME=VALUE") and argv. Raises ValueError for a NUL byte in a field, a ``=`` in a
    variable's name, or a request larger than boxserver takes."""
    fields = [folder, str(tmp_bytes), str(len(rlimits)), *(f"{w}:{s}:{h}" for w, s, h in rlimits), str(len(env))]
    for name, value in env.items():
        if not name or "=" in name:
            raise ValueError(f"invalid environment variable name {name!r}")
        fields.append(f"{name}={value}")
    fields += [str(len(argv)), *argv]
    if any("\0" in field for field in fields):
        raise ValueError("a NUL byte in argv or the environment")
    payload = b"".join(field.encode() + b"\0" for field in fields)
    if len(payload) > MAX_REQUEST_BYTES:
        raise ValueError(f"argv and environment take {len(payload)} bytes, more than {MAX_REQUEST_BYTES}")
    return payload


def reply_end(reply: str) -> tuple[int | None, int | None]:
    """(exit code, signal number) from boxserver's reply. Raises SandboxError when it could not
    start the program or refused the request."""
    kind, _, number = reply.strip().partition(" ")
    if kind == "exit" and number.isdigit():  # the usual reply, read without parse_status
        return int(number), None
    if kind == "refused":
        raise SandboxError(f"the session box refused the request ({os.strerror(int(number or 0))})")
    end = parse_status(reply)
    if end is None:
        raise SandboxError(f"the session box sent an unreadable reply {reply!r}")
    return program_end(0, None, end)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (of its main thread), from /proc; empty if it is gone."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except OSError:
        return []


def prepare_root(root: Path, uid: int | None, gid: int | None) -> Path:
    """The real path of the session's work folder, made searchable but not listable by the slot
    uid (mode 0711; left alone without root). Raises SandboxError if it is not a folder or the
    slot uid cannot reach it."""
    if not root.is_dir() or root.is_symlink():
        raise SandboxError(f"session folder {root} is not a folder")
    real = Path(os.path.realpath(root))
    if uid is not None:
        check_reachable(real, uid, gid)
        os.chmod(real, 0o711)
    return real


class BoxServer:
    """The running session box: bubblewrap's process, its status, and the judge's end of the
    socket to ``boxserver``. Raises SandboxError if the box does not come up."""

    def __init__(self, box, root: Path, binds: list[Path]) -> None:
        helpers = box.helpers
        fds = OpenFds()  # the child's ends: closed here once it has them
        judge_end, server_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket = judge_end
        self.process: subprocess.Popen | None = None
        self._status_fd: int | None = None
        self._stderr_fd: int | None = None
        try:
            self._status_fd, status_w = os.pipe2(os.O_CLOEXEC)
            fds.add(status_w)
            self._stderr_fd, stderr_w = os.pipe2(os.O_CLOEXEC)
            fds.add(stderr_w)
            seccomp_r, seccomp_w = fds.pipe()
            os.write(seccomp_w, box.seccomp_filter)
            fds.close(seccomp_w)
            server_fd = server_end.fileno()
            # copied into the box's own root (a bind would show its host path in the mount table)
            program_fd = fds.add(os.open(helpers.boxserver, os.O_RDONLY | os.O_CLOEXEC))
            command = launch_arguments(helpers.launch, box.uid, box.gid, []) + session_arguments(
                box.bwrap_fixed,
                root=root,
                readonly_binds=binds,
                server_fd=program_fd,
                status_fd=status_w,
                argv=[BOXSERVER_BOX_PATH, str(server_fd), str(seccomp_r)],
            )
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr_w,
                pass_fds=[server_fd, seccomp_r, status_w, program_fd],
                env={},
                close_fds=True,
                start_new_session=True,
            )
            self.status = BwrapStatus(self._status_fd)
            for fd in (status_w, stderr_w, seccomp_r, program_fd):
                fds.close(fd)
            server_end.close()
            os.set_blocking(self._stderr_fd, False)
            self._wait_ready()
        except BaseException:
            server_end.close()
            self.close()
            fds.close_all()
            raise

    def _wait_ready(self) -> None:
        ready, _, _ = select.select([self.socket], [], [], START_TIMEOUT_S)
        reply = self.socket.recv(REPLY_BYTES) if ready else b""
        if reply != b"ready\n":
            self.kill()
            if self.process is not None:
                self.process.wait()
            message = self.messages()
            self.close()
            raise SandboxError(f"bubblewrap could not set up the session box: {message or 'no message'}")

    @property
    def pid(self) -> int:
        """Host pid of bubblewrap. Raises SandboxError if it was never started."""
        if self.process is None:
            raise SandboxError("the session box was never started")
        return self.process.pid

    def messages(self) -> str:
        """What bubblewrap wrote on its standard error so far."""
        if self._stderr_fd is None:
            return ""
        try:
            return os.read(self._stderr_fd, 65536).decode(errors="replace").strip()
        except OSError:  # BlockingIOError: nothing written
            return ""

    def alive(self) -> bool:
        """Whether bubblewrap (and so the box) is still running."""
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """Kill the box now (its init, so the kernel kills the rest); its socket then reads as
        closed."""
        self.status.read()
        stop_box(self.pid, self.status.child_pid)

    def close(self) -> None:
        """End the box: closing the socket makes boxserver exit, and the kernel kills what is
        left in its PID namespace; a box that does not end in time is killed."""
        self.socket.close()
        if self.process is not None and self.process.returncode is None:
            try:
                self.process.wait(CLEANUP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.kill()
                self.process.wait()
        for fd in (self._status_fd, self._stderr_fd):
            if fd is not None:
                os.close(fd)
        self._status_fd = self._stderr_fd = None


class Session:
    """A box reused by the runs of one submission; made by ``Sandbox.session``.

    box: the ``sandbox.runner.Sandbox`` of the slot.
    root: the session's work folder (made mode 0711); each run works in a sub-folder ``name``
    (``folder(name)`` makes a fresh one). readonly_binds: host paths shown read-only, for every
    run. env: the default environment of a run. disk_bytes: as root, the size (bytes) of a tmpfs
    mounted over ``root`` for the session's folders (``sandbox.disk``; ``root`` must then be
    empty), unmounted by ``close``; None: the folders stay on the host's file system.
    Use as a context manager, or call ``close()``. One run at a time; not shared between
    threads. Raises SandboxError if the box or its disk cannot be set up, or the slot already
    has a session open.
    """

    def __init__(self, box, root: Path, readonly_binds, env: dict[str, str], disk_bytes: int | None = None) -> None:
        self.box = box
        self.root = prepare_root(root, box.uid, box.gid)
        self.binds = box.checked_binds(readonly_binds)
        self.env = dict(env)
        self.own_disk = False  # a tmpfs is mounted over root
        self._server: BoxServer | None = None
        self._in_doubt = False  # a run was sent but not seen through: the box must be replaced
        self._procs: dict[bytes, int] = {}  # cgroup.procs path -> write descriptor
        self._devnull: int | None = None  # read descriptor of /dev/null, a run's empty input
        self._next_pipes: tuple[int, int, int, int] | None = None  # the next run's (``_take_pipes``)
        # the last request sent: ((folder name, limits, argv), environment, its bytes)
        self._last_request: tuple[tuple, dict[str, str], bytes] | None = None
        # when the last run was sent and when it was seen to end (monotonic ns; (0, 0) before any):
        # which of two runs connected by pipes ended first
        self.last_run_ns = (0, 0)
        self.reuses_box = box.cgroups is not None and box.helpers is not None
        if self.reuses_box and box.session_open is not None:
            raise SandboxError(f"sandbox slot {box.slot} already has a session open")
        if disk_bytes is not None and box.privileged:
            mount_tmpfs(self.root, disk_bytes)
            note_mounted(box.lock_key, self.root)
            self.own_disk = True
        if not self.reuses_box:
            warn_once(
                "session-one-shot",
                "sandbox sessions run each program in a box of its own "
                "(no root, no cgroups or no C helpers): no set-up is reused",
            )
            return
        box.session_open = self
        try:
            self._server = BoxServer(box, self.root, self.binds)
        except BaseException:
            box.session_open = None
            self._unmount()
            raise

    @property
    def box_pids(self) -> tuple[int, ...]:
        """Host pids of the session box's own processes, which run as the slot's uid between
        runs: bubblewrap, boxserver, its zygotes (the one kept ready for the next run, and those
        of ended runs until they have exited) and their children (the next run's program
        process, waiting for its request). Between runs nothing else is left below boxserver:
        ``run`` returns once every task of the run is gone. Empty when no box is running."""
        server = self._server
        if server is None or not server.alive():
            return ()
        server.status.read()
        init = server.status.child_pid
        if init is None:
            return (server.pid,)
        zygotes = _children(init)
        return (server.pid, init, *zygotes, *(pid for zygote in zygotes for pid in _children(zygote)))

    def folder(self, name: str) -> Path:
        """A fresh, empty sub-folder ``name`` of the root, for the judge to fill before ``run``:
        what an earlier run left there is removed (``sandbox.tree.clear_folder``: any depth; what
        cannot be removed is moved aside and logged). Raises ValueError for a name that is not a
        plain file name."""
        check_plain_name(name, "run folder name")
        return clear_folder(self.root / name)

    def remove(self, name: str) -> None:
        """Delete sub-folder ``name`` and all a run left in it (any depth; symlinks are not
        followed). Raises OSError if something cannot be removed."""
        check_plain_name(name, "run folder name")
        remove_tree(self.root / name)

    def run(
        self,
        argv: list[str],
        name: str,
        limits: Limits | None = None,
        stdin: Path | None = None,
        env: dict[str, str] | None = None,
        pipe_fds: tuple[int, int] | None = None,
    ) -> RunResult:
        """Run ``argv`` in the session's box with cwd /box = sub-folder ``name`` of the root.

        name: an existing sub-folder (given to the slot's uid, mode 0700). stdin: a host file read
        on standard input (None: empty input). env: the program's whole environment (default:
        the session's). pipe_fds: (standard input, standard output) descriptors given instead of
        ``stdin`` and the drained stdout pipe, for a program talking to another one (an
        interactive problem: the other end is a run in another slot's box); the session owns and
        closes them, and no output limit is counted on them (the other program reads them).
        Returns the same ``RunResult`` as ``Sandbox.run``.
        Raises SandboxError if the program cannot be started or a task outlives the run (the box
        is then set up again for the next run), or for ``pipe_fds`` without a reused box (no
        root, cgroups or C helpers); ValueError for an empty argv or a bad name.
        """
        if not argv:
            raise ValueError("argv must name a program")
        check_plain_name(name, "run folder name")
        limits = limits or DEFAULT_LIMITS
        env = self.env if env is None else env
        fds = OpenFds()
        for fd in pipe_fds or ():
            fds.add(fd)
        try:
            if pipe_fds is not None and not self.reuses_box:
                raise SandboxError("runs connected by pipes need a session box (root, cgroups and the C helpers)")
            if not self.reuses_box:
                return self.box.run(argv, self.root / name, limits, stdin, self.binds, env)
            if self._server is None:  # a box that died since the last run shows when the request is sent
                self._restart()
            folder = self.root / name
            hand_over(folder, self.box.uid, self.box.gid)
            request = self._request(name, limits, env, argv)
        except BaseException:
            fds.close_all()
            raise
        cgroups = self.box.cgroups  # empty: every run ends with its tasks gone, or raises
        self._in_doubt = True  # until the box has answered and nothing of the run is left
        try:
            outcome, reply = self._run(request, folder, limits, stdin, cgroups, fds, pipe_fds)
            try:
                exit_code, signal_number = reply_end(reply)
            except SandboxError:
                self._prepare_next(reply, limits)  # the program could not start: the box stays
                raise
            result = collect_result(limits, outcome, exit_code, signal_number, cgroups, self.box.slot)
            self._prepare_next(reply, limits)
            return result
        except BaseException:
            if self._in_doubt:  # the box may still run the program: a new box for the next run
                cgroups.kill_all()
                self._stop_server()
                cgroups.wait_empty(CLEANUP_TIMEOUT_S)
            raise
        finally:
            fds.close_all()

    def _request(self, name: str, limits: Limits, env: dict[str, str], argv: list[str]) -> bytes:
        """The request of a run (``encode_request``), kept from the last run when it asks the
        same (the runs of a submission's tests all do). Raises ValueError as
        ``encode_request``."""
        key = (name, limits, tuple(argv))
        last = self._last_request
        if last is not None and last[0] == key and last[1] == env:
            return last[2]
        request = encode_request(
            name, limits.tmp_bytes, rlimits_for(limits, with_cgroups=True), {**env, "PWD": "/box"}, list(argv)
        )
        self._last_request = (key, dict(env), request)
        return request

    def _run(
        self,
        request: bytes,
        folder: Path,
        limits: Limits,
        stdin: Path | None,
        cgroups,
        fds: OpenFds,
        pipe_fds: tuple[int, int] | None = None,
    ) -> tuple[WatchOutcome, str]:
        """Send the request and watch the run: (its outcome, boxserver's reply). Only what the
        request needs is done before it is sent; the rest (the watchdog's set-up, the next
        run's memory cgroup) while the run goes on."""
        stdout_r, stdout_w, stderr_r, stderr_w = (fds.add(fd) for fd in self._take_pipes())
        if pipe_fds is not None:  # the stdout pipe stays, never written: the watchdog sees its end at once
            fds.close(stdout_w)
            stdin_fd, stdout_w = pipe_fds
        else:
            stdin_fd = self._empty_input() if stdin is None else fds.add(self.box.inputs.open(stdin))
        # the run's init (PID 1 of its namespace) stays out of the cgroups: the program joins alone
        joined = cgroups.prepare(limits, extra_tasks=0, defer_removal=True)
        passed = array.array("i", [stdin_fd, stdout_w, stderr_w, *self._procs_fds(joined)])
        growth = (
            FolderGrowth(folder, limits.workdir_bytes, filesystem_usage)
            if self.own_disk
            else FolderGrowth(folder, limits.workdir_bytes)
        )
        server = self._server
        if server is None:
            raise SandboxError("the session box is not running")
        started = time.monotonic_ns()
        try:
            server.socket.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, passed)])
        except OSError:  # the box died since the last run (nothing of this one started): a new box
            server = self._restart()
            started = time.monotonic_ns()
            try:
                server.socket.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, passed)])
            except OSError as error:
                raise SandboxError(f"the session box is gone: {error.strerror}") from error
        for fd in (stdin_fd, stdout_w, stderr_w):  # boxserver holds them now (/dev/null stays the session's)
            fds.close(fd)
        try:  # while the run goes on: the next run's pipes
            self._next_pipes = self._take_pipes()
        except OSError:
            pass  # made by the next run
        streams = output_streams(stdout_r, stderr_r, limits)
        probes = [growth, CpuProbe(cgroups.cpu_ns, limits.cpu_ms * 1_000_000), *cgroups.warmth]
        try:  # while the run goes on: the next run's memory cgroup, and its cgroup.procs opened
            cgroups.make_ahead(limits)
            self._procs_fds(cgroups.next_procs())
        except (SandboxError, OSError) as error:  # the next run's prepare tries again, and says why
            log.debug("no memory cgroup made ahead: %s", error)
        self._forget_procs(joined, cgroups.next_procs())
        replies: list[str] = []

        def reap() -> tuple[int, None]:
            try:
                reply = server.socket.recv(REPLY_BYTES).decode(errors="replace")
            except OSError:
                reply = ""
            if not reply:
                raise SandboxError(f"the session box ended during a run: {server.messages() or 'no message'}")
            replies.append(reply)
            if cgroups.count_tasks():
                # what the program left running (daemons, children) dies now, so stderr ends
                cgroups.kill_all()
                if not cgroups.wait_empty(CLEANUP_TIMEOUT_S) or not cgroups.wait_released(CLEANUP_TIMEOUT_S):
                    raise SandboxError(f"tasks of sandbox slot {self.box.slot} survived the run")
            return 0, None

        outcome = watch(
            server.socket.fileno(),
            reap,
            started,
            streams,
            wall_limit_ns=limits.wall_ms * 1_000_000,
            probes=probes,
            kill=cgroups.kill_all,
            last_resort=server.kill,
        )
        if outcome.killed_for is None and growth.exceeded():
            outcome.killed_for = growth.name  # grew between the last check and the end
        self.last_run_ns = (started, started + outcome.wall_ns)
        return outcome, replies[0]

    def _prepare_next(self, reply: str, limits: Limits) -> None:
        """Nothing of the last run is left: tell boxserver to make the next run's process now,
        as the last step of ``run`` (its work then overlaps the caller's, not this run's end),
        with the ``cgroup.procs`` files of the next run's cgroups, which that process joins at
        once (a cgroup migration can wait for an RCU grace period: milliseconds), and the size
        of its /tmp and /dev/shm, which it mounts ahead (that of ``limits``, the last run's)."""
        server = self._server
        if server is None or reply.startswith("refused"):  # boxserver and the judge disagree: a new box
            return
        try:
            fds = self._procs_fds(self.box.cgroups.next_procs())
            passed = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
            server.socket.sendmsg([PREPARE + str(limits.tmp_bytes).encode() + b"\0"], passed)
            self._in_doubt = False
        except OSError:
            pass  # the box is gone (or a cgroup): the next run sets it up again

    def _procs_fds(self, paths: list[bytes]) -> list[int]:
        """Write descriptors of the ``cgroup.procs`` files ``paths`` of a run's cgroups, each
        opened once and kept until ``_forget_procs`` leaves it out (the slot's persistent
        cgroups from run to run; a memory leaf from the run that made it ahead to its own run:
        an open costs more than the rest of a run's cgroup set-up). Raises OSError if one
        cannot be opened."""
        fds = []
        for path in paths:
            fd = self._procs.get(path)
            if fd is None:
                fd = self._procs[path] = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            fds.append(fd)
        return fds

    def _forget_procs(self, *kept: list[bytes]) -> None:
        """Close the kept ``cgroup.procs`` descriptors of every path not in ``kept`` (an earlier
        run's memory leaf)."""
        for path in [path for path in self._procs if not any(path in paths for paths in kept)]:
            os.close(self._procs.pop(path))

    def _take_pipes(self) -> tuple[int, int, int, int]:
        """Two new close-on-exec pipes, a run's standard output and error (read end, write end,
        read end, write end), made while the last run went on if it could; the caller owns them.
        Raises OSError."""
        pipes, self._next_pipes = self._next_pipes, None
        if pipes is None:
            stdout = os.pipe2(os.O_CLOEXEC)
            try:
                pipes = (*stdout, *os.pipe2(os.O_CLOEXEC))
            except OSError:
                for fd in stdout:
                    os.close(fd)
                raise
        return pipes

    def _empty_input(self) -> int:
        """A read descriptor of /dev/null, opened once for the session's runs."""
        if self._devnull is None:
            self._devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        return self._devnull

    def _restart(self) -> BoxServer:
        """A new box in place of the last one (ended first). Raises SandboxError as ``BoxServer``."""
        self._stop_server()
        self._server = BoxServer(self.box, self.root, self.binds)
        return self._server

    def _stop_server(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            server.close()

    def close(self) -> None:
        """End the box (every process in it is killed) and free the slot for ``Sandbox.run`` or
        another session. The session's own disk is unmounted (its folders go with it); on the
        host's file system the run folders are left to the caller."""
        self._stop_server()
        self._forget_procs()
        for fd in [self._devnull, *(self._next_pipes or ())]:
            if fd is not None:
                os.close(fd)
        self._devnull, self._next_pipes = None, None
        if self.box.session_open is self:
            self.box.cgroups.kill_all()
            self.box.cgroups.wait_empty(CLEANUP_TIMEOUT_S)
            self.box.cgroups.remove_used()
            self.box.session_open = None
        self._unmount()

    def _unmount(self) -> None:
        if self.own_disk:
            self.own_disk = False
            unmount(self.root)
            forget_mounted(self.box.lock_key)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
