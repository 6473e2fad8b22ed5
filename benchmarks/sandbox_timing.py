"""CPU time accuracy of the sandbox: a calibrated CPU loop at 50 % of the limit must never be
flagged, at 200 % it must always be; prints how many runs were flagged and the spread of the
measured CPU time, for both paths (``Sandbox.run``, one box per run, and ``Session.run``, one
box for all the runs: its program starts from a process made ahead, whose set-up is not
counted).

Run: ``.venv/bin/python benchmarks/sandbox_timing.py [RUNS] [LIMIT_MS]`` (as root; defaults
100 runs per case and path and a 500 ms limit). Prints numbers only, asserts nothing.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

from sandbox_support import SLOT_OFFSET, scratch_program

from sandbox import Limits, Sandbox

BENCH_SLOT = 951 + SLOT_OFFSET  # moved by JUDGE_TEST_SLOT_OFFSET like the tests' slots
SHARES = (0.5, 2.0)  # of the CPU limit
CPU_LOOP = r"""
#include <stdlib.h>
int main(int argc, char **argv) {
    volatile unsigned long n = 0, rounds = strtoul(argv[1], 0, 10);
    for (unsigned long i = 0; i < rounds; i++) n += i;
    return 0;
}
"""


def cpu_ms_of(binary: Path, rounds: int) -> float:
    """CPU time (ms) of one bare run of the loop with ``rounds``, from the children's rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(binary), str(rounds)], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def calibrate(binary: Path, target_ms: float) -> int:
    """Loop rounds that take about ``target_ms`` of CPU (median of 5 bare runs)."""
    rounds = 10_000_000
    for _ in range(3):
        measured = statistics.median(cpu_ms_of(binary, rounds) for _ in range(5))
        rounds = int(rounds * target_ms / max(measured, 1.0))
    return rounds


def spread(values: list[int]) -> str:
    return (
        f"min {min(values)}  median {statistics.median(values):.0f}  max {max(values)}  "
        f"stdev {statistics.pstdev(values):.1f} ms"
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    limit_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    with scratch_program("loop", CPU_LOOP) as scratch:
        limits = Limits(cpu_ms=limit_ms, wall_ms=limit_ms * 10)
        print(f"CPU limit {limit_ms} ms, {runs} runs per case and path, load average {os.getloadavg()[0]:.2f}")
        rounds = {share: calibrate(scratch.binary, limit_ms * share) for share in SHARES}
        with Sandbox(slot=BENCH_SLOT) as box:
            report("Sandbox.run", rounds, runs, lambda count: box.run(["./loop", str(count)], scratch.workdir, limits))
            with box.session(scratch.workdir.parent, disk_bytes=None) as session:  # holds the program
                report(
                    "Session.run",
                    rounds,
                    runs,
                    lambda count: session.run(["./loop", str(count)], scratch.workdir.name, limits),
                )


def report(path: str, rounds: dict[float, int], runs: int, run) -> None:
    """Run the loop ``runs`` times at each share of the limit (``rounds``: share -> loop rounds)
    through ``run(rounds)`` and print how many were flagged and the CPU time measured."""
    for share, count in rounds.items():
        results = [run(count) for _ in range(runs)]
        flagged = sum(result.cpu_limit_exceeded for result in results)
        cpu = [result.cpu_ms for result in results]
        expected = "never" if share < 1 else "always"
        print(
            f"{path:12} {share:.0%} of the limit: flagged {flagged}/{runs} (expected: {expected}); "
            f"measured CPU {spread(cpu)}"
        )


if __name__ == "__main__":
    main()
