"""The watchdog on its own, with a stand-in for a run (a pipe whose read end is the run's "end"
descriptor): it kills at the wall limit, and a run that does not end after the kill gets the
last resort instead of hanging the judge."""

from __future__ import annotations

import os
import threading
import time

from sandbox import watch as watchdog


def test_a_run_that_ignores_the_kill_gets_the_last_resort(monkeypatch):
    monkeypatch.setattr(watchdog, "KILL_GRACE_S", 0.2)
    end_r, end_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    calls: list[str] = []

    def last_resort():
        calls.append("last resort")
        os.write(end_w, b"x")  # as when a session's box is killed: its socket reads as closed
        os.close(stderr_w)

    # without a last resort the watch would never end: this ends it (and the test fails) at 10 s
    backstop = threading.Timer(10, lambda: os.write(end_w, b"x"))
    backstop.start()
    try:
        outcome = watchdog.watch(
            end_r,
            lambda: (0, None),
            time.monotonic_ns(),
            stderr_r,
            1024,
            wall_limit_ns=50_000_000,
            probes=[],
            kill=lambda: calls.append("kill"),
            last_resort=last_resort,
        )
    finally:
        backstop.cancel()
        for fd in (end_r, end_w, stderr_r):
            os.close(fd)
    assert calls == ["kill", "last resort"]
    assert outcome.killed_for == "wall"
    assert outcome.wall_ns >= 250_000_000  # the wall limit, then the grace


def test_stderr_is_kept_up_to_its_cap_and_the_end_is_reaped():
    end_r, end_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    os.write(stderr_w, b"e" * 100)
    os.close(stderr_w)
    os.write(end_w, b"x")
    try:
        outcome = watchdog.watch(
            end_r,
            lambda: (7 << 8, "usage"),
            time.monotonic_ns(),
            stderr_r,
            10,
            wall_limit_ns=10_000_000_000,
            probes=[],
            kill=lambda: None,
        )
    finally:
        for fd in (end_r, end_w, stderr_r):
            os.close(fd)
    assert (outcome.status, outcome.rusage, outcome.killed_for, outcome.stderr) == (7 << 8, "usage", None, b"e" * 10)
