"""Per-run overhead of the sandbox: a static ``int main(){}`` spawned bare (subprocess) and in
the sandbox (Sandbox.run), N times each; prints both medians and their ratio.

Run: ``.venv/bin/python benchmarks/sandbox_overhead.py [N]`` (as root; N defaults to 100).
Prints numbers only, asserts nothing (timings depend on the machine's load).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from sandbox_support import scratch_program

from sandbox import Limits, Sandbox

BENCH_SLOT = 950
EMPTY_MAIN = "int main(void) { return 0; }\n"


def time_runs(count: int, run) -> list[float]:
    """Wall time (ms) of ``count`` calls of ``run``, after one warm-up call."""
    run()
    times = []
    for _ in range(count):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with scratch_program("empty", EMPTY_MAIN, ("-O2", "-static")) as scratch:
        bare = time_runs(count, lambda: subprocess.run([str(scratch.binary)], check=True))
        with Sandbox(slot=BENCH_SLOT) as box:
            limits = Limits(cpu_ms=1000, wall_ms=5000)
            boxed = time_runs(count, lambda: box.run(["./empty"], scratch.workdir, limits))
            kind = box.cgroup_kind
        bare_median, boxed_median = statistics.median(bare), statistics.median(boxed)
        print(f"runs: {count} each; cgroups: {kind}; load average: {os.getloadavg()[0]:.2f}")
        print(f"bare subprocess   median {bare_median:7.2f} ms   p90 {sorted(bare)[int(0.9 * count)]:7.2f} ms")
        print(f"Sandbox.run       median {boxed_median:7.2f} ms   p90 {sorted(boxed)[int(0.9 * count)]:7.2f} ms")
        print(f"ratio (median)    {boxed_median / bare_median:7.1f}x   (target <= 3x)")


if __name__ == "__main__":
    main()
