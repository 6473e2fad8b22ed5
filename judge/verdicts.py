"""Verdict logic: the verdict of one test from the sandbox's counters and the checker, and the
verdict of a whole submission (the verdicts themselves: ``judge.vocabulary.Verdict``).

Order, our own choice: MLE, then TLE (CPU), TLE (wall), OLE, RTE (signal or non-zero exit), and only
then the checker's AC / WA. MLE comes first because a program that runs out of memory often also
burns its time (a swapping allocator, a kill that lands late) or dies by a signal, and "memory" names
the cause where "time" or "killed" name a symptom. Others choose differently: DOMjudge's judgehost
script testcase_run.sh checks the time limit first and reports a memory kill as a run error; CMS
reports it as "Execution killed (could be triggered by violating memory limits)".

Resource verdicts come from the counters, never from the exit code alone: a program may
``exit(137)`` itself and that is an RTE, not an MLE.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from judge.vocabulary import Verdict

if TYPE_CHECKING:  # the sandbox is not imported to judge a verdict: verify runs without it
    from sandbox import RunResult

AC, WA, TLE, MLE, RTE, OLE, CE, JE = (
    Verdict.AC,
    Verdict.WA,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.RTE,
    Verdict.OLE,
    Verdict.CE,
    Verdict.JE,
)
ALL_VERDICTS = tuple(Verdict)


def resource_verdict(result: RunResult, heap_markers: tuple[bytes, ...] = ()) -> tuple[Verdict, str] | None:
    """The verdict a run earns before its output is checked, with a one-line reason, or None.

    ``result`` is a ``sandbox.RunResult``: limit flags, exit_code, signal, cpu_ms, wall_ms,
    peak_memory_kib, stderr. ``heap_markers``: what a managed runtime (JVM, V8) writes on standard
    error when its heap, capped at the memory limit, ran out; a failed run showing one is MLE.
    """
    if result.memory_limit_exceeded:
        return MLE, f"memory limit exceeded (peak {result.peak_memory_kib} KiB)"
    if result.cpu_limit_exceeded:
        return TLE, f"CPU time limit exceeded ({result.cpu_ms} ms)"
    if result.wall_limit_exceeded:
        return TLE, f"wall time limit exceeded ({result.wall_ms} ms; waiting or sleeping)"
    if result.output_limit_exceeded:
        return OLE, "output limit exceeded"
    failed = result.signal is not None or result.exit_code not in (0, None)
    if failed and any(marker in result.stderr for marker in heap_markers):
        return MLE, "memory limit exceeded (the runtime's heap, capped at the limit, ran out)"
    if result.signal is not None:
        return RTE, f"killed by {result.signal_name}"
    if result.exit_code not in (0, None):
        return RTE, f"exit code {result.exit_code}"
    return None


def submission_verdict(test_verdicts: Iterable[str]) -> Verdict:
    """The first non-AC verdict in test order (samples first), AC if all passed.

    An empty sequence is a judge error: a package with no tests cannot accept anything.
    """
    seen = False
    for verdict in test_verdicts:
        seen = True
        if verdict != AC:
            return Verdict(verdict)
    return AC if seen else JE
