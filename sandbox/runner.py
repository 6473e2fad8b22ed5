"""``Sandbox.run``: one command in a bubblewrap box under limits, with counters as the result.

Guarantees (besides those of the modules it composes, see their docstrings):
- Nothing the program starts survives the run: the PID namespace dies with its init, then the
  slot's cgroups are emptied and checked; a run that leaves a task raises SandboxError.
  tests/sandbox/test_hostile.py::test_daemon_does_not_outlive_the_run, test_fork_bomb_is_contained
- No judge file descriptor reaches the program: only 0, 1, 2 are open inside.
  tests/sandbox/test_isolation.py::test_only_standard_descriptors_are_open
- Standard output goes to a judge-owned file outside the box (RLIMIT_FSIZE caps it); it is read
  back up to ``output_bytes``. tests/sandbox/test_limits.py::test_stdout_flood_hits_the_output_limit
- A box that bubblewrap could not set up (missing bind, command not found) raises SandboxError
  with bubblewrap's message (a judge error), told apart from a program's own exit by bubblewrap's
  JSON status. tests/sandbox/test_runner.py::test_missing_command_is_a_sandbox_error
- Without root or without usable cgroups the sandbox still runs (bubblewrap in a user namespace,
  rlimits for CPU per process, data size and process count) and logs once which guarantees are
  weaker. tests/sandbox/test_runner.py::test_runs_without_cgroups_with_a_warning
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from sandbox import cgroups as cgroup_backends
from sandbox.bwrap import fixed_arguments, run_arguments
from sandbox.child import make_preexec, rlimits_for
from sandbox.errors import SandboxError
from sandbox.limits import Limits, RunResult
from sandbox.outputs import read_capped
from sandbox.seccomp import build_filter
from sandbox.slot import DEFAULT_UID_BASE, lock_slot, slot_uid
from sandbox.watch import kill_process, watch

log = logging.getLogger(__name__)
_warned: set[str] = set()
# how long leftover tasks may take to die after the box ended (s)
CLEANUP_TIMEOUT_S = 5.0


def warn_once(key: str, message: str) -> None:
    """Log ``message`` as a warning the first time ``key`` is seen in this process."""
    if key not in _warned:
        _warned.add(key)
        log.warning(message)


def check_reachable(path: Path, uid: int, gid: int) -> None:
    """Raise SandboxError unless every folder above ``path`` lets ``uid``/``gid`` pass (x bit):
    bubblewrap runs as the slot's uid and must reach the path to bind it."""
    for folder in path.parents:
        info = os.stat(folder)
        if info.st_mode & stat.S_IXOTH:
            continue
        if info.st_uid == uid and info.st_mode & stat.S_IXUSR:
            continue
        if info.st_gid == gid and info.st_mode & stat.S_IXGRP:
            continue
        raise SandboxError(f"{path} cannot be reached by the sandbox uid {uid}: {folder} has mode "
                           f"{stat.filemode(info.st_mode)}; make it searchable (chmod o+x)")


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


def reported_exit_code(status_text: str) -> int | None:
    """The ``exit-code`` bubblewrap wrote on its JSON status FD, or None if the program never ran."""
    for line in status_text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "exit-code" in record:
            return int(record["exit-code"])
    return None


class Sandbox:
    """One worker slot's sandbox (bubblewrap + cgroups): its own uid/gid and cgroups.

    slot: the worker slot number (uid = gid = uid_base + slot as root).
    use_cgroups: False to run without cgroups even as root (rlimits only, weaker).
    scratch_dir: where the judge-owned stdout files are made (default: the temp folder).
    Raises SandboxError if bubblewrap is missing, the slot is in use, or its cgroups cannot be
    made. Use as a context manager, or call ``close()``, to remove the slot's cgroups.
    """

    def __init__(self, slot: int = 0, *, uid_base: int = DEFAULT_UID_BASE, use_cgroups: bool = True,
                 scratch_dir: Path | None = None) -> None:
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
            warn_once("unprivileged", "sandbox runs without root: programs keep the judge's uid, "
                      "no cgroups (CPU limit per process only, memory by RLIMIT_DATA, "
                      "process count by RLIMIT_NPROC of the whole user)")
        self._lock_fd = lock_slot(self.uid if self.uid is not None else os.geteuid() * 1000 + slot)
        self.scratch_dir = scratch_dir
        self.cgroups = None
        try:
            if self.privileged and use_cgroups:
                self.cgroups = cgroup_backends.open_slot_cgroups(slot)
                if self.cgroups is None:
                    warn_once("no-cgroups", "no usable cgroups (v2 with memory/pids/cpu or v1 memory/"
                              "pids/cpuacct): CPU limit per process only, memory by RLIMIT_DATA")
            self._fixed = fixed_arguments(bwrap)
            self._seccomp = build_filter()
        except BaseException:
            self.close()
            raise

    @property
    def cgroup_kind(self) -> str | None:
        """"v1", "v2" or None (no cgroups)."""
        return None if self.cgroups is None else self.cgroups.kind

    def run(self, argv: list[str], workdir: Path, limits: Limits | None = None, stdin: Path | None = None,
            readonly_binds: list[Path] | tuple[Path, ...] = (), env: dict[str, str] | None = None) -> RunResult:
        """Run ``argv`` in the box with cwd /box = ``workdir`` and return its ``RunResult``.

        workdir: an existing host folder; it is given to the slot's uid (mode 0700).
        stdin: a host file read on standard input (None: empty input).
        readonly_binds: extra host paths shown read-only at the same path.
        env: the program's whole environment (default: empty).
        Raises SandboxError if the box cannot be set up or a task outlives the run; ValueError
        for an empty argv.
        """
        if not argv:
            raise ValueError("argv must name a program")
        limits = limits or Limits()
        workdir = self._prepare_workdir(workdir)
        binds = [Path(os.path.realpath(p)) for p in readonly_binds]
        for path in binds:
            if not path.exists():
                raise SandboxError(f"read-only bind {path} does not exist")
            if self.uid is not None:
                check_reachable(path, self.uid, self.gid)
        if self.cgroups is not None:
            self.cgroups.wait_empty(CLEANUP_TIMEOUT_S)
        with tempfile.TemporaryFile(dir=self.scratch_dir) as stdout_file:
            return self._run(argv, workdir, limits, stdin, binds, env or {}, stdout_file.fileno())

    def _prepare_workdir(self, workdir: Path) -> Path:
        info = os.lstat(workdir)
        if not stat.S_ISDIR(info.st_mode):
            raise SandboxError(f"workdir {workdir} is not a folder")
        real = Path(os.path.realpath(workdir))
        if self.uid is not None:
            check_reachable(real, self.uid, self.gid)
            os.chown(real, self.uid, self.gid, follow_symlinks=False)
            os.chmod(real, 0o700, follow_symlinks=False)
        return real

    def _run(self, argv: list[str], workdir: Path, limits: Limits, stdin: Path | None,
             binds: list[Path], env: dict[str, str], stdout_fd: int) -> RunResult:
        stdin_fd = os.open(stdin if stdin is not None else os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        stderr_r, stderr_w = os.pipe2(os.O_CLOEXEC)
        status_r, status_w = os.pipe2(os.O_CLOEXEC)
        seccomp_r, seccomp_w = os.pipe2(os.O_CLOEXEC)
        os.write(seccomp_w, self._seccomp)
        os.close(seccomp_w)
        command = run_arguments(self._fixed, workdir=workdir, tmp_bytes=limits.tmp_bytes, readonly_binds=binds,
                                env=env, seccomp_fd=seccomp_r, status_fd=status_w, argv=list(argv))
        procs_files = self.cgroups.prepare(limits) if self.cgroups is not None else []
        preexec = make_preexec(procs_files, rlimits_for(limits, with_cgroups=self.cgroups is not None,
                                                        nproc=self._fallback_nproc(limits)),
                               self.uid, self.gid)
        child_fds = (stdin_fd, stderr_w, status_w, seccomp_r)
        try:
            started = time.monotonic_ns()
            process = subprocess.Popen(command, stdin=stdin_fd, stdout=stdout_fd, stderr=stderr_w,
                                       pass_fds=(seccomp_r, status_w), env={}, close_fds=True,
                                       start_new_session=True, preexec_fn=preexec)
        except BaseException:
            for fd in (*child_fds, stderr_r, status_r):
                os.close(fd)
            raise
        for fd in child_fds:
            os.close(fd)
        try:
            outcome = watch(process.pid, started, stderr_r, limits.stderr_bytes,
                            cpu_limit_ns=limits.cpu_ms * 1_000_000, wall_limit_ns=limits.wall_ms * 1_000_000,
                            cpu_ns=self.cgroups.cpu_ns if self.cgroups is not None else None,
                            kill=lambda: self._kill_box(process.pid))
            process.returncode = 0  # reaped by watch(): keep Popen from waiting again
        finally:
            if process.returncode is None:
                self._kill_box(process.pid)
                process.wait()
            with os.fdopen(status_r, "rb") as status_pipe:
                status_text = status_pipe.read().decode(errors="replace")
        return self._result(limits, outcome, status_text, stdout_fd)

    def _fallback_nproc(self, limits: Limits) -> int | None:
        if self.cgroups is not None or self.privileged:
            return None
        # RLIMIT_NPROC counts every process of the user: allow the ones already running
        mine = sum(1 for entry in os.scandir("/proc") if entry.name.isdigit() and _owned_by_me(entry.path))
        return mine + limits.processes + 2

    def _kill_box(self, pid: int) -> None:
        kill_process(pid)
        if self.cgroups is not None:
            self.cgroups.kill_all()

    def _result(self, limits: Limits, outcome, status_text: str, stdout_fd: int) -> RunResult:
        reported = reported_exit_code(status_text)
        if reported is None and outcome.killed_for is None:
            message = outcome.stderr.decode(errors="replace").strip()
            raise SandboxError(f"bubblewrap could not start the program: {message or 'no message'}")
        exit_code, signal_number = decode_exit(outcome.status, reported)
        stdout, stdout_size = read_capped(stdout_fd, limits.output_bytes)
        if self.cgroups is not None:
            if not self.cgroups.wait_empty(CLEANUP_TIMEOUT_S):
                raise SandboxError(f"tasks of sandbox slot {self.slot} survived the run")
            usage = self.cgroups.finish()
            cpu_ns, peak_kib = usage.cpu_ns, usage.peak_bytes // 1024
            oom, task_hits = usage.oom_kills > 0, usage.task_limit_hits > 0
        else:
            rusage = outcome.rusage
            cpu_ns = int((rusage.ru_utime + rusage.ru_stime) * 1e9)
            peak_kib, task_hits = rusage.ru_maxrss, False
            oom = peak_kib >= limits.memory_kib
        return RunResult(
            exit_code=exit_code, signal=signal_number,
            cpu_ms=cpu_ns // 1_000_000, wall_ms=outcome.wall_ns // 1_000_000, peak_memory_kib=peak_kib,
            cpu_limit_exceeded=outcome.killed_for == "cpu" or cpu_ns > limits.cpu_ms * 1_000_000,
            wall_limit_exceeded=outcome.killed_for == "wall",
            memory_limit_exceeded=oom,
            output_limit_exceeded=stdout_size > limits.output_bytes or signal_number == signal.SIGXFSZ,
            process_limit_hit=task_hits,
            stdout=stdout, stderr=outcome.stderr,
        )

    def close(self) -> None:
        """Kill whatever is left of the slot, remove its cgroups, release the slot."""
        if getattr(self, "cgroups", None) is not None:
            self.cgroups.close()
            self.cgroups = None
        if getattr(self, "_lock_fd", None) is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _owned_by_me(proc_path: str) -> bool:
    try:
        return os.stat(proc_path).st_uid == os.geteuid()
    except OSError:
        return False
