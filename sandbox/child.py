"""The rlimits of a run, and the Python fallback of the ``launch`` helper.

Normally the C helper ``launch`` (sandbox.helpers) sets these rlimits and drops to the slot's
uid, and ``boxinit`` joins the cgroups from inside the box. Without a C compiler,
``make_preexec`` does the same between fork and exec of bubblewrap (slower: the judge's Python
process must fork instead of vfork), joining the cgroups before exec so that no fork escapes the
counters.

Guarantees (both paths):
- Before bubblewrap runs, the process drops to the slot's uid/gid with no supplementary groups:
  bubblewrap run as root would keep uid 0 and every capability inside the box.
  tests/sandbox/test_isolation.py::test_namespaces_and_identity,
  tests/sandbox/test_runner.py::test_runs_without_helpers
- rlimits: RLIMIT_CPU a whole second above the CPU limit (a per-process backstop for the cgroup
  watchdog), RLIMIT_FSIZE = the larger of the output and file limits + 1 byte (SIGXFSZ stops a
  flood), RLIMIT_STACK = the memory limit (deep recursion works), RLIMIT_CORE = 0,
  RLIMIT_NOFILE = 1024. Never RLIMIT_AS: it breaks the JVM, Go and Node, which reserve large
  address ranges. Without cgroups also RLIMIT_DATA = memory and RLIMIT_NPROC (weaker).
  tests/sandbox/test_limits.py::test_stdout_flood_hits_the_output_limit,
  test_limits.py::test_deep_recursion_with_200_mib_stack_passes,
  tests/sandbox/test_runner.py::test_runs_without_cgroups_with_a_warning
"""

from __future__ import annotations

import math
import os
import resource
from collections.abc import Callable

from sandbox.limits import Limits

NOFILE = 1024
# RLIMIT_CPU backstop: whole seconds above the limit (the watchdog stops the run first)
CPU_BACKSTOP_S = 1


def rlimits_for(limits: Limits, *, with_cgroups: bool, nproc: int | None = None) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) triples for a run under ``limits``.

    with_cgroups: cgroups limit memory and tasks; without them RLIMIT_DATA (bytes) and, if
    ``nproc`` is given, RLIMIT_NPROC stand in.
    """
    cpu_s = math.ceil(limits.cpu_ms / 1000) + CPU_BACKSTOP_S
    memory_bytes = limits.memory_kib * 1024
    file_bytes = max(limits.output_bytes, limits.file_bytes) + 1
    triples = [
        (resource.RLIMIT_CPU, cpu_s, cpu_s + 1),
        (resource.RLIMIT_FSIZE, file_bytes, file_bytes),
        (resource.RLIMIT_STACK, memory_bytes, memory_bytes),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_NOFILE, NOFILE, NOFILE),
    ]
    if not with_cgroups:
        triples.append((resource.RLIMIT_DATA, memory_bytes, memory_bytes))
        if nproc is not None:
            triples.append((resource.RLIMIT_NPROC, nproc, nproc))
    return triples


def make_preexec(
    procs_files: list[bytes], rlimits: list[tuple[int, int, int]], uid: int | None, gid: int | None
) -> Callable[[], None]:
    """The child's set-up when the ``launch`` helper is missing: join each ``cgroup.procs`` file
    (writing 0 means "this process"), set the rlimits, then (if ``uid`` is given, i.e. the judge
    is root) drop all groups, set gid, uid. It runs between fork and exec, so it only makes
    system calls (no imports, no locks)."""

    def preexec() -> None:
        for path in procs_files:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        for which, soft, hard in rlimits:
            resource.setrlimit(which, (soft, hard))
        os.umask(0o022)
        if uid is not None:
            os.setgroups([])
            os.setgid(uid if gid is None else gid)
            os.setuid(uid)

    return preexec
