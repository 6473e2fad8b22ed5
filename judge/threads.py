"""How many requests of one kind run in worker threads at once, per API process.

A synchronous endpoint runs in anyio's default pool of 40 threads. Under a burst, 40 threads that
each need the interpreter lock (and, on SQLite, the one writer's lock) spend more CPU taking turns
than working: at a steady 300 submissions/s over 64 connections the queue then never drains.
Work that comes in bursts and needs the CPU for its whole length (polling for events) therefore
runs under a ``LoopLimiter`` of its own: the requests past the limit wait in the event loop, which
costs nothing, and the rest of the API keeps the default pool. Work whose items can share their
cost (submissions: one commit for many) runs under a ``LoopBatcher``: one thread at a time, taking
every item that came meanwhile.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import anyio

T = TypeVar("T")
A = TypeVar("A")
R = TypeVar("R")


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


class LoopBatcher(Generic[A, R]):
    """Calls of ``run`` that come while a batch is being worked on wait and are worked on together
    in the next batch: ``work`` (a list of at most ``most`` items → one outcome each, in order; an
    outcome that is an exception is raised to its caller) runs in a worker thread, one batch at a
    time per event loop. A lone call runs at once, as a batch of one; under a burst the batch grows
    to what came during the last one, so each batch costs one thread hop and whatever else
    ``work`` shares (one commit). An error ``work`` raises is raised to every call of its batch."""

    def __init__(self, work: Callable[[list[A]], list[R | Exception]], most: int) -> None:
        self.work, self.most = work, most
        self._waiting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Waiting] = weakref.WeakKeyDictionary()

    async def run(self, item: A) -> R:
        """The outcome of ``item`` once its batch is done."""
        loop = asyncio.get_running_loop()
        waiting = self._waiting.get(loop)
        if waiting is None:
            waiting = self._waiting[loop] = _Waiting()
        answer: asyncio.Future = loop.create_future()
        waiting.items.append((item, answer))
        if not waiting.draining:
            waiting.draining = True
            waiting.task = loop.create_task(self._drain(waiting))
        return await answer

    async def _drain(self, waiting: _Waiting) -> None:
        try:
            while waiting.items:
                batch, waiting.items = waiting.items[: self.most], waiting.items[self.most :]
                items = [item for item, _ in batch]
                try:
                    outcomes: list = await anyio.to_thread.run_sync(self.work, items)
                except Exception as exc:
                    outcomes = [exc] * len(batch)
                for (_, answer), outcome in zip(batch, outcomes, strict=True):
                    if answer.done():  # its caller went away
                        continue
                    if isinstance(outcome, Exception):
                        answer.set_exception(outcome)
                    else:
                        answer.set_result(outcome)
        finally:
            waiting.draining = False


class _Waiting:
    """A ``LoopBatcher``'s calls waiting in one event loop, and whether a task works them off."""

    def __init__(self) -> None:
        self.items: list[tuple[Any, asyncio.Future]] = []
        self.draining = False
        self.task: asyncio.Task | None = None  # held: the loop keeps only a weak reference to a task
