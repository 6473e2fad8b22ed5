"""Per-run overhead of the sandbox: a static ``int main(){}`` spawned bare (subprocess), in a
one-shot box (``Sandbox.run``: one bubblewrap per run) and in a session box (``Session.run``:
one bubblewrap for all the runs of a submission), N times each; prints each path's median wall
time and CPU time per run, and its ratios to the bare spawn.

The three are measured in turns (bare, one-shot, session, bare, ...) so that a change in the
machine's load during the measurement weighs on all three alike. CPU time counts the judge's
thread and every process of the run (bare: the child; one-shot: bubblewrap and all below it;
session: the session's box server and all it reaped), so it does not depend on what else the
machine runs.

Run: ``.venv/bin/python benchmarks/sandbox_overhead.py [N]`` (as root; N defaults to 200).
Prints numbers only, asserts nothing (timings depend on the machine's load).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

from sandbox_support import SLOT_OFFSET, scratch_program

from sandbox import Limits, Sandbox

# slots apart from a worker's and the tests', moved by JUDGE_TEST_SLOT_OFFSET like theirs
SESSION_SLOT = 950 + SLOT_OFFSET
ONE_SHOT_SLOT = 952 + SLOT_OFFSET  # 951 is sandbox_timing.py's
EMPTY_MAIN = "int main(void) { return 0; }\n"
TARGET_RATIO = 1.5


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


def children_cpu_s() -> float:
    """CPU seconds of this process's reaped children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of process ``pid`` and of its reaped descendants (/proc/PID/stat utime, stime,
    cutime, cstime; clock ticks)."""
    with open(f"/proc/{pid}/stat", "rb") as stat_file:
        fields = stat_file.read().rsplit(b")", 1)[1].split()
    return sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")


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
            cpu = dict.fromkeys(runs, 0.0)  # CPU seconds of each path, over all its runs
            server = session.box_pids[1]  # boxserver: its children are the runs' processes
            server_cpu = tree_cpu_s(server)
            for _ in range(count):
                for label, run in runs.items():
                    own, children = time.thread_time(), children_cpu_s()
                    times[label].append(timed(run))
                    cpu[label] += time.thread_time() - own + children_cpu_s() - children
            cpu["Session.run"] += tree_cpu_s(server) - server_cpu
        bare = statistics.median(times["bare subprocess"])
        bare_cpu = cpu["bare subprocess"]
        print(f"runs: {count} each, in turns; cgroups: {box.cgroup_kind}; load average: {os.getloadavg()[0]:.2f}")
        for label, measured in times.items():
            line = summary(label, measured, None if label.startswith("bare") else bare)
            line += f"   CPU {1000 * cpu[label] / count:6.2f} ms"
            if not label.startswith("bare"):
                line += f" ({cpu[label] / bare_cpu:4.1f}x)"
            print(line)
        print(
            f"target: at most {TARGET_RATIO:.1f}x a bare spawn (the session path; its box set-up, once per "
            "submission, is left out). CPU: the judge's thread, and the processes of the run (the "
            "session's: its box server's and theirs)"
        )


if __name__ == "__main__":
    main()
