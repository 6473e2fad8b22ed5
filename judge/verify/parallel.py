"""Run one check per item on a few threads: the checks start validator and solver processes, so
threads only wait; the machine's cores do the work."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from judge.verify.report import Progress

Item = TypeVar("Item")
Result = TypeVar("Result")


def worker_count() -> int:
    """Threads to use: one per core (at least one)."""
    return max(1, os.cpu_count() or 1)


def map_checks(check: Callable[[Item], Result], items: Iterable[Item], progress: Progress) -> list[Result]:
    """``[check(item) for item in items]`` run on ``worker_count()`` threads, results in item order;
    ``progress.advance()`` after each item. An exception of ``check`` is raised here."""
    items = list(items)
    with ThreadPoolExecutor(max_workers=worker_count()) as pool:
        futures = [pool.submit(check, item) for item in items]
        results = []
        for future in futures:
            results.append(future.result())
            progress.advance()
    return results
