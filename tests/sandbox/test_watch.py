"""The watchdog on its own, with a stand-in for a run (a pipe whose read end is the run's "end"
descriptor): it kills at the wall limit, and a run that does not end after the kill gets the
last resort instead of hanging the judge."""

from __future__ import annotations

import os
import resource
import threading
import time

from sandbox import watch as watchdog

USAGE = resource.getrusage(resource.RUSAGE_SELF)  # what a reap hands back, passed through


def test_a_run_that_ignores_the_kill_gets_the_last_resort(monkeypatch):
    monkeypatch.setattr(watchdog, "KILL_GRACE_S", 0.2)
    end_r, end_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    calls: list[str] = []

    def last_resort():
        calls.append("last resort")
        os.write(end_w, b"x")  # as when a session's box is killed: its socket reads as closed
        os.close(stderr_w)
        os.close(stdout_w)

    # without a last resort the watch would never end: this ends it (and the test fails) at 10 s
    backstop = threading.Timer(10, lambda: os.write(end_w, b"x"))
    backstop.start()
    try:
        outcome = watchdog.watch(
            end_r,
            lambda: (0, None),
            time.monotonic_ns(),
            (watchdog.Stream(stdout_r, 1024, stop_at=1024), watchdog.Stream(stderr_r, 1024)),
            wall_limit_ns=50_000_000,
            probes=[],
            kill=lambda: calls.append("kill"),
            last_resort=last_resort,
        )
    finally:
        backstop.cancel()
        for fd in (end_r, end_w, stderr_r, stdout_r):
            os.close(fd)
    assert calls == ["kill", "last resort"]
    assert outcome.killed_for == "wall"
    assert outcome.wall_ns >= 250_000_000  # the wall limit, then the grace


def watch_streams(stdout: bytes, stderr: bytes, cap: int, kill=lambda: None) -> watchdog.WatchOutcome:
    """``watch`` over a run that has already ended, having written ``stdout`` and ``stderr``
    (each at most a pipe's buffer) with stdout's cap and stop at ``cap`` bytes."""
    end_r, end_w = os.pipe()
    pipes = [os.pipe(), os.pipe()]
    for (_, write_end), data in zip(pipes, (stdout, stderr), strict=True):
        os.write(write_end, data)
        os.close(write_end)
    os.write(end_w, b"x")
    try:
        return watchdog.watch(
            end_r,
            lambda: (7 << 8, USAGE),
            time.monotonic_ns(),
            (watchdog.Stream(pipes[0][0], cap, stop_at=cap), watchdog.Stream(pipes[1][0], 10)),
            wall_limit_ns=10_000_000_000,
            probes=[],
            kill=kill,
        )
    finally:
        for fd in (end_r, end_w, pipes[0][0], pipes[1][0]):
            os.close(fd)


def test_streams_are_kept_up_to_their_caps_and_the_end_is_reaped():
    outcome = watch_streams(b"o" * 50, b"e" * 100, cap=50)
    assert (outcome.status, outcome.rusage, outcome.killed_for) == (7 << 8, USAGE, None)
    assert (outcome.stdout, outcome.stdout_bytes, outcome.stderr) == (b"o" * 50, 50, b"e" * 10)


def test_stdout_past_its_cap_stops_the_run():
    kills: list[str] = []
    outcome = watch_streams(b"o" * 51, b"", cap=50, kill=lambda: kills.append("kill"))
    assert (outcome.killed_for, outcome.stdout, outcome.stdout_bytes) == ("output", b"o" * 50, 51)
    assert kills in ([], ["kill"])  # killed while running, or seen over its cap at the end
