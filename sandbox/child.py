"""What the forked child does before it becomes bubblewrap: join the slot's cgroups, set the
rlimits, drop to the slot's unprivileged uid.

Guarantees:
- The child writes itself into the cgroups *before* it execs bubblewrap, so bubblewrap and every
  process of the program are counted from their first instruction (no fork escapes the counters).
  tests/sandbox/test_limits.py::test_forked_children_share_one_cpu_budget
- It drops to the slot's uid/gid with no supplementary groups before exec: bubblewrap run as root
  would keep uid 0 and every capability inside the box. tests/sandbox/test_isolation.py::
  test_namespaces_and_identity
- rlimits: RLIMIT_CPU a little above the CPU limit (a backstop for the cgroup watchdog, per
  process), RLIMIT_FSIZE = the larger of the output and file limits + 1 byte (SIGXFSZ stops a
  flood), RLIMIT_STACK = the memory limit (deep recursion works), RLIMIT_CORE = 0, RLIMIT_NOFILE.
  Never RLIMIT_AS: it breaks the JVM, Go and Node, which reserve large address ranges.
  Without cgroups (not root) also RLIMIT_DATA = memory and RLIMIT_NPROC (per uid, weaker).
  tests/sandbox/test_limits.py::test_stdout_flood_hits_the_output_limit

The function returned by ``make_preexec`` runs between fork and exec, so it only makes system
calls (no imports, no locks, no allocation-heavy work).
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


def make_preexec(procs_files: list[bytes], rlimits: list[tuple[int, int, int]],
                 uid: int | None, gid: int | None) -> Callable[[], None]:
    """The child's set-up: join each ``cgroup.procs`` file (writing 0 means "this process"), set
    the rlimits, then (if ``uid`` is given, i.e. the judge is root) drop all groups, set gid, uid."""

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
            os.setgid(gid)
            os.setuid(uid)

    return preexec
