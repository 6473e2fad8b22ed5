"""How many requests of one kind run in worker threads at once, per API process.

A synchronous endpoint runs in anyio's default pool of 40 threads. Under a burst, 40 threads that
each need the interpreter lock (and, on SQLite, the one writer's lock) spend more CPU taking turns
than working: at a steady 300 submissions/s over 64 connections the queue then never drains.
Work that comes in bursts and needs the CPU for its whole length (accepting a submission, polling
for events) therefore runs under a ``LoopLimiter`` of its own: the requests past the limit wait
in the event loop, which costs nothing, and the rest of the API keeps the default pool.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import TypeVar

import anyio

T = TypeVar("T")


class LoopLimiter:
    """At most ``tokens`` calls at once of ``run`` per event loop (an anyio ``CapacityLimiter``
    belongs to the loop that made it; tests run several loops in one process)."""

    def __init__(self, tokens: int) -> None:
        self.tokens = tokens
        self._limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
            weakref.WeakKeyDictionary()
        )

    def limiter(self) -> anyio.CapacityLimiter:
        """The running loop's limiter, made on first use."""
        loop = asyncio.get_running_loop()
        limiter = self._limiters.get(loop)
        if limiter is None:
            limiter = self._limiters[loop] = anyio.CapacityLimiter(self.tokens)
        return limiter

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread once one of the ``tokens`` is free; its result or its error."""
        return await anyio.to_thread.run_sync(work, limiter=self.limiter())
