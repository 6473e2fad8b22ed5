"""The judge's sandbox: run one command under bubblewrap with cgroup limits and report counters.

It knows nothing of problems or submissions (it imports nothing from ``judge``)::

    with Sandbox(slot=0) as box:
        result = box.run(argv=["./prog"], workdir=path, limits=Limits(cpu_ms=1000),
                         stdin=input_path, readonly_binds=[], env={"PATH": "/usr/bin:/bin"})
        data = read_output_file(path, "output.txt", 8 << 20)

Modules: ``limits`` (Limits, RunResult), ``runner`` (Sandbox), ``bwrap`` (command line and
status), ``cgroups`` (v1/v2 counters and limits), ``seccomp`` (BPF deny-list), ``helpers`` (the C
programs ``launch`` and ``boxinit`` in ``init/``), ``child`` (rlimits, Python fallback of
``launch``), ``watch`` (CPU, wall and folder watchdog; stopping a box), ``workdir`` (the work
folder), ``outputs`` (safe reading of program files), ``slot`` (uid and lock of a worker slot).
Each states its guarantees and the tests that prove them (tests/sandbox/).

A ``Sandbox`` runs one command at a time (one per worker slot; not shared between threads).
"""
from sandbox.errors import SandboxError
from sandbox.limits import Limits, RunResult
from sandbox.outputs import read_output_file
from sandbox.runner import Sandbox

__all__ = ["Limits", "RunResult", "Sandbox", "SandboxError", "read_output_file"]
