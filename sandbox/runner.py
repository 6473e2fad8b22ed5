"""``Sandbox.run``: one command in a bubblewrap box under limits, with counters as the result
(the one-shot path: one box per run). ``Sandbox.session`` gives the session path, one box for
the runs of a submission (sandbox.session); both share the watchdog (sandbox.watch), the
counters-to-result step (sandbox.results) and the cgroup backends.

Guarantees (besides those of the modules it composes, see their docstrings):
- Nothing the program starts survives the run: the PID namespace dies with its init, then the
  slot's cgroups are emptied and checked; a run that leaves a task raises SandboxError.
  tests/sandbox/test_hostile.py::test_daemon_does_not_outlive_the_run, test_fork_bomb_is_contained
- No judge file descriptor reaches the program: only 0, 1, 2 are open inside.
  tests/sandbox/test_isolation.py::test_only_standard_descriptors_are_open
- Standard output and standard error are pipes the judge drains (``sandbox.watch``); standard
  input is a sealed unnamed copy of the input (``sandbox.fds``). tests/sandbox/test_limits.py::
  test_stdout_flood_hits_the_output_limit
- A box that bubblewrap could not set up (missing bind, command not found) raises SandboxError
  with bubblewrap's message (a judge error), told apart from a program's own exit by bubblewrap's
  JSON status. tests/sandbox/test_runner.py::test_missing_command_is_a_sandbox_error
- Without root or without usable cgroups the sandbox still runs (bubblewrap in a user namespace,
  rlimits for CPU per process, data size and process count) and logs once which guarantees are
  weaker. tests/sandbox/test_runner.py::test_runs_without_cgroups_with_a_warning
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

from sandbox import cgroups as cgroup_backends
from sandbox.bwrap import BwrapStatus, fixed_arguments, run_arguments
from sandbox.cgroups import BWRAP_TASKS
from sandbox.child import make_preexec, rlimits_for
from sandbox.disk import release_stale_disk
from sandbox.errors import SandboxError
from sandbox.fds import OpenFds, SealedInputs, read_all
from sandbox.helpers import BOXINIT_BOX_PATH, build_helpers, launch_arguments, parse_maxrss, parse_status
from sandbox.limits import Limits, RunResult
from sandbox.notices import warn_once
from sandbox.results import CLEANUP_TIMEOUT_S, collect_result, program_end
from sandbox.seccomp import build_filter
from sandbox.session import SESSION_DISK_BYTES, Session
from sandbox.slot import DEFAULT_UID_BASE, lock_slot, slot_uid
from sandbox.watch import CpuProbe, output_streams, stop_box, wait_for_exit, watch_process
from sandbox.workdir import FolderGrowth, check_reachable, prepare_workdir

log = logging.getLogger(__name__)


class Sandbox:
    """One worker slot's sandbox (bubblewrap + cgroups): its own uid/gid and cgroups.

    slot: the worker slot number (uid = gid = uid_base + slot as root).
    use_cgroups: False to run without cgroups even as root (rlimits only, weaker).
    use_helpers: False to run without the C helpers ``launch``, ``boxinit`` and ``boxserver``
        (sandbox.helpers), as on a machine without a C compiler (for tests of that path); a
        session then runs each program in a box of its own.
    Raises SandboxError if bubblewrap is missing, the slot is in use, or its cgroups cannot be
    made. Use as a context manager, or call ``close()``, to remove the slot's cgroups.
    """

    def __init__(
        self,
        slot: int = 0,
        *,
        uid_base: int = DEFAULT_UID_BASE,
        use_cgroups: bool = True,
        use_helpers: bool = True,
    ) -> None:
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxError("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")
        self.slot = slot
        self.privileged = os.geteuid() == 0
        if self.privileged:
            self.uid: int | None = slot_uid(slot, uid_base)
            self.gid: int | None = self.uid
        else:
            self.uid = self.gid = None
            warn_once(
                "unprivileged",
                "sandbox runs without root: programs keep the judge's uid, "
                "no cgroups (CPU limit per process only, memory by RLIMIT_DATA, "
                "process count by RLIMIT_NPROC of the whole user)",
            )
        self.lock_key = self.uid if self.uid is not None else os.geteuid() * 1000 + slot
        self._lock_fd: int | None = lock_slot(self.lock_key)
        if self.privileged:
            release_stale_disk(self.lock_key)
        self.cgroups = None
        self.inputs = SealedInputs()  # the standard input of every run, sealed copies kept
        self.session_open: Session | None = None  # it owns the slot's cgroups while open
        try:
            if self.privileged and use_cgroups:
                self.cgroups = cgroup_backends.open_slot_cgroups(slot)
            if self.privileged and self.cgroups is None:
                warn_once(
                    "no-cgroups",
                    "sandbox runs without cgroups (none usable, or disabled): CPU "
                    "limit per process (RLIMIT_CPU), memory by RLIMIT_DATA, tasks by RLIMIT_NPROC, "
                    "peak memory of the largest process only",
                )
            self.bwrap_fixed = fixed_arguments(bwrap)
            self.helpers = build_helpers() if use_helpers else None
            self.seccomp_filter = build_filter()
        except BaseException:
            self.close()
            raise

    @property
    def cgroup_kind(self) -> str | None:
        """ "v1", "v2" or None (no cgroups)."""
        return None if self.cgroups is None else self.cgroups.kind

    def run(
        self,
        argv: list[str],
        workdir: Path,
        limits: Limits | None = None,
        stdin: Path | None = None,
        readonly_binds: list[Path] | tuple[Path, ...] = (),
        env: dict[str, str] | None = None,
    ) -> RunResult:
        """Run ``argv`` in the box with cwd /box = ``workdir`` and return its ``RunResult``.

        workdir: an existing host folder; it is given to the slot's uid (mode 0700).
        stdin: a host file read on standard input (None: empty input).
        readonly_binds: extra host paths shown read-only at the same path.
        env: the program's whole environment (default: empty).
        Raises SandboxError if the box cannot be set up, the program cannot be executed, or a task
        outlives the run; ValueError for an empty argv.
        """
        if not argv:
            raise ValueError("argv must name a program")
        if self.session_open is not None:
            raise SandboxError(f"sandbox slot {self.slot} has a session open: run in the session")
        limits = limits or Limits()
        workdir = prepare_workdir(workdir, self.uid, self.gid)
        binds = self.checked_binds(readonly_binds)
        if self.cgroups is not None:
            self.cgroups.wait_empty(CLEANUP_TIMEOUT_S)
        fds = OpenFds()
        try:
            return self._run(argv, workdir, limits, stdin, binds, env or {}, fds)
        finally:
            fds.close_all()

    def session(
        self,
        root: Path,
        readonly_binds: list[Path] | tuple[Path, ...] = (),
        env: dict[str, str] | None = None,
        disk_bytes: int | None = SESSION_DISK_BYTES,
    ) -> Session:
        """A reusable box for the runs of one submission (``sandbox.session.Session``), to use
        as a context manager: ``with box.session(root) as s: s.run(argv, "t01", limits)``.

        root: the session's work folder; each run works in a sub-folder of it. readonly_binds
        and env: as for ``run``, shared by every run of the session (env can be given per run).
        disk_bytes: as root, a tmpfs of this size (bytes) is mounted over ``root`` (which must
        be empty) for the session's folders and unmounted when it closes; None keeps ``root``
        on the host's file system.
        Raises SandboxError if the box cannot be set up or a session is already open.
        """
        return Session(self, Path(root), readonly_binds, env or {}, disk_bytes)

    def checked_binds(self, readonly_binds) -> list[Path]:
        """The real paths of ``readonly_binds``; SandboxError if one is missing or the slot's
        uid cannot reach it."""
        binds = [Path(os.path.realpath(p)) for p in readonly_binds]
        for path in binds:
            if not path.exists():
                raise SandboxError(f"read-only bind {path} does not exist")
            if self.uid is not None:
                check_reachable(path, self.uid, self.gid)
        return binds

    def open_stdio(self, fds: OpenFds, stdin: Path | None) -> tuple[int, int, int, int, int]:
        """The standard streams of a run, owned by ``fds``: (stdin, stdout read end, stdout write
        end, stderr read end, stderr write end). stdin is a sealed unnamed copy of the host file
        ``stdin`` (``SealedInputs.open``; None: /dev/null); stdout and stderr are pipes the
        watchdog drains."""
        if stdin is None:
            stdin_fd = fds.add(os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC))
        else:
            stdin_fd = fds.add(self.inputs.open(stdin))
        return (stdin_fd, *fds.pipe(), *fds.pipe())

    def _run(
        self,
        argv: list[str],
        workdir: Path,
        limits: Limits,
        stdin: Path | None,
        binds: list[Path],
        env: dict[str, str],
        fds: OpenFds,
    ) -> RunResult:
        stdin_fd, stdout_r, stdout_w, stderr_r, stderr_w = self.open_stdio(fds, stdin)
        bwrap_status_r, bwrap_status_w = fds.pipe()
        init_status_r, init_status_w = fds.pipe()
        seccomp_r, seccomp_w = fds.pipe()
        os.write(seccomp_w, self.seccomp_filter)
        fds.close(seccomp_w)
        helpers = self.helpers
        procs_files = []
        if self.cgroups is not None:
            procs_files = self.cgroups.prepare(limits, extra_tasks=1 if helpers else BWRAP_TASKS)
        rlimits = rlimits_for(limits, with_cgroups=self.cgroups is not None, nproc=self._fallback_nproc(limits))
        passed = [seccomp_r, bwrap_status_w]
        shown: list[Path | tuple[Path, str]] = list(binds)
        if helpers is not None:
            # boxinit joins the cgroups from inside through these FDs (opened here, as root)
            cgroup_fds = [fds.add(os.open(path, os.O_WRONLY | os.O_CLOEXEC)) for path in procs_files]
            program = [BOXINIT_BOX_PATH, str(init_status_w), *map(str, cgroup_fds), "--", *argv]
            shown.append((helpers.boxinit, BOXINIT_BOX_PATH))
            passed += [init_status_w, *cgroup_fds]
            prefix, preexec = launch_arguments(helpers.launch, self.uid, self.gid, rlimits), None
        else:
            program, prefix = list(argv), []
            preexec = make_preexec(procs_files, rlimits, self.uid, self.gid)
        command = prefix + run_arguments(
            self.bwrap_fixed,
            workdir=workdir,
            tmp_bytes=limits.tmp_bytes,
            readonly_binds=shown,
            env=env,
            seccomp_fd=seccomp_r,
            status_fd=bwrap_status_w,
            argv=program,
            as_pid_1=helpers is not None,
        )
        growth = FolderGrowth(workdir, limits.workdir_bytes)
        probes: list[FolderGrowth | CpuProbe] = [growth]
        if self.cgroups is not None:
            probes.append(CpuProbe(self.cgroups.cpu_ns, limits.cpu_ms * 1_000_000))
        started = time.monotonic_ns()
        process = subprocess.Popen(
            command,
            stdin=stdin_fd,
            stdout=stdout_w,
            stderr=stderr_w,
            pass_fds=passed,
            env={},
            close_fds=True,
            start_new_session=True,
            preexec_fn=preexec,
        )
        # the child holds its ends now: close ours so end-of-file arrives when the box ends
        for fd in (stdin_fd, stdout_w, stderr_w, init_status_w, *passed):
            fds.close(fd)
        bwrap_status = BwrapStatus(bwrap_status_r)
        try:
            outcome = watch_process(
                process.pid,
                started,
                output_streams(stdout_r, stderr_r, limits),
                wall_limit_ns=limits.wall_ms * 1_000_000,
                probes=probes,
                kill=lambda: self._kill_box(process.pid, bwrap_status),
            )
            process.returncode = outcome.status  # reaped by watch(): Popen must not wait again
        finally:
            if process.returncode is None:
                self._kill_box(process.pid, bwrap_status)
                process.wait()
        bwrap_status.read()
        if helpers is None:
            wait_for_exit(bwrap_status.child_pid, CLEANUP_TIMEOUT_S)
        if outcome.killed_for is None and growth.exceeded():
            outcome.killed_for = growth.name  # grew between the last check and the end
        return self._result(limits, outcome, bwrap_status.exit_code, read_all(init_status_r))

    def _fallback_nproc(self, limits: Limits) -> int | None:
        """RLIMIT_NPROC when there is no pids cgroup: the slot uid runs nothing else as root;
        without root the user's running processes are counted in (racy, hence weaker)."""
        if self.cgroups is not None:
            return None
        own = (
            0
            if self.privileged
            else sum(1 for entry in os.scandir("/proc") if entry.name.isdigit() and _owned_by_me(entry.path))
        )
        return own + limits.processes + BWRAP_TASKS + 1

    def _kill_box(self, bwrap_pid: int, bwrap_status: BwrapStatus) -> None:
        bwrap_status.read()
        stop_box(bwrap_pid, bwrap_status.child_pid)
        if self.cgroups is not None:
            self.cgroups.kill_all()

    def _result(self, limits: Limits, outcome, reported: int | None, init_status: str) -> RunResult:
        if reported is None and outcome.killed_for is None:
            message = outcome.stderr.decode(errors="replace").strip()
            raise SandboxError(f"bubblewrap could not start the program: {message or 'no message'}")
        exit_code, signal_number = program_end(outcome.status, reported, parse_status(init_status))
        return collect_result(
            limits, outcome, exit_code, signal_number, self.cgroups, self.slot, parse_maxrss(init_status)
        )

    def close(self) -> None:
        """End an open session, kill whatever is left of the slot, remove its cgroups, release
        the slot."""
        session = getattr(self, "session_open", None)
        if session is not None:
            session.close()
        cgroups = getattr(self, "cgroups", None)
        if cgroups is not None:
            cgroups.close()
            self.cgroups = None
        inputs = getattr(self, "inputs", None)
        if inputs is not None:
            inputs.close()
        lock_fd = getattr(self, "_lock_fd", None)
        if lock_fd is not None:
            os.close(lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _owned_by_me(proc_path: str) -> bool:
    try:
        return os.stat(proc_path).st_uid == os.geteuid()
    except OSError:
        return False
