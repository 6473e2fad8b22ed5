"""The judge's sandbox: run one command under bubblewrap with cgroup limits and report counters.

It knows nothing of problems or submissions (it imports nothing from ``judge``)::

    with Sandbox(slot=0) as box:
        result = box.run(argv=["./prog"], workdir=path, limits=Limits(cpu_ms=1000),
                         stdin=input_path, readonly_binds=[], env={"PATH": "/usr/bin:/bin"})
        data = read_output_file(path, "output.txt", 8 << 20)

        # the runs of one submission: one box set up once, a fork and exec per run
        with box.session(work_root, readonly_binds=[], env={"PATH": "/usr/bin:/bin"}) as session:
            folder = session.folder("t01")          # fresh; the judge copies the program in
            result = session.run(["./prog"], "t01", Limits(cpu_ms=1000), stdin=input_path)

Modules: ``limits`` (Limits, RunResult), ``runner`` (Sandbox), ``bwrap`` (command line and
status), ``cgroups`` (v1/v2 counters and limits), ``seccomp`` (BPF deny-list), ``helpers`` (the C
programs ``launch`` and ``boxinit`` in ``init/``), ``child`` (rlimits, Python fallback of
``launch``), ``watch`` (CPU, wall and folder watchdog; stopping a box), ``workdir`` (the work
folder), ``outputs`` (safe reading of program files), ``slot`` (uid and lock of a worker slot),
``session`` (Session: one box for many runs, with ``boxserver`` in ``init/``), ``results``
(counters to RunResult, both paths), ``fds`` (a run's descriptors, the stdin copy), ``tree``
(removing and walking any folder tree), ``disk`` (a session's capped tmpfs), ``notices``
(warnings logged once). Each states its guarantees and the tests that prove them
(tests/sandbox/); sandbox/README.md is the whole contract on one page.

A ``Sandbox`` runs one command at a time (one per worker slot; not shared between threads); while
one of its sessions is open, its runs go through the session.
"""

from sandbox.errors import SandboxError
from sandbox.limits import Limits, RunResult
from sandbox.outputs import read_output_file
from sandbox.runner import Sandbox
from sandbox.session import Session
from sandbox.tree import clear_folder, is_empty_folder

__all__ = [
    "Limits",
    "RunResult",
    "Sandbox",
    "SandboxError",
    "Session",
    "clear_folder",
    "is_empty_folder",
    "read_output_file",
]
