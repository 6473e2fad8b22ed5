"""Per-run overhead of the sandbox (issue #4): a static ``int main(){}`` spawned bare
(subprocess), in a one-shot box (``Sandbox.run``: one bubblewrap per run) and in a session box
(``Session.run``: one bubblewrap for all the runs of a submission), N times each; prints the
medians and each path's ratio to the bare spawn.

The three are measured in turns (bare, one-shot, session, bare, ...) so that a change in the
machine's load during the measurement weighs on all three alike.

Run: ``.venv/bin/python benchmarks/sandbox_overhead.py [N]`` (as root; N defaults to 200).
Prints numbers only, asserts nothing (timings depend on the machine's load).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time

from sandbox_support import scratch_program

from sandbox import Limits, Sandbox

SESSION_SLOT = 950
ONE_SHOT_SLOT = 952  # 951 is sandbox_timing.py's
EMPTY_MAIN = "int main(void) { return 0; }\n"
TARGET_RATIO = 3.0


def timed(run) -> float:
    """Wall time (ms) of one call of ``run``."""
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def summary(label: str, times: list[float], bare_median: float | None = None) -> str:
    """One line: median, p90 and (if ``bare_median`` is given) the ratio of the medians."""
    ordered = sorted(times)
    line = f"{label:18} median {statistics.median(times):7.2f} ms   p90 {ordered[int(0.9 * len(ordered))]:7.2f} ms"
    if bare_median is not None:
        line += f"   ratio {statistics.median(times) / bare_median:6.1f}x"
    return line


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    limits = Limits(cpu_ms=1000, wall_ms=5000)
    with (
        scratch_program("empty", EMPTY_MAIN, ("-O2", "-static")) as scratch,
        Sandbox(slot=ONE_SHOT_SLOT) as one_shot,
        Sandbox(slot=SESSION_SLOT) as box,
    ):
        session_root = scratch.workdir.parent / "session"
        session_root.mkdir()
        with box.session(session_root) as session:
            shutil.copy(scratch.binary, session.folder("run") / "empty")
            runs = {
                "bare subprocess": lambda: subprocess.run([str(scratch.binary)], check=True),
                "Sandbox.run": lambda: one_shot.run(["./empty"], scratch.workdir, limits),
                "Session.run": lambda: session.run(["./empty"], "run", limits),
            }
            for run in runs.values():  # warm-up: helpers built, caches filled
                run()
            times: dict[str, list[float]] = {label: [] for label in runs}
            for _ in range(count):
                for label, run in runs.items():
                    times[label].append(timed(run))
        bare = statistics.median(times["bare subprocess"])
        print(f"runs: {count} each, in turns; cgroups: {box.cgroup_kind}; load average: {os.getloadavg()[0]:.2f}")
        for label, measured in times.items():
            print(summary(label, measured, None if label.startswith("bare") else bare))
        print(
            f"target: at most {TARGET_RATIO:.0f}x a bare spawn (the session path; its box set-up, once per "
            "submission, is left out)"
        )


if __name__ == "__main__":
    main()
