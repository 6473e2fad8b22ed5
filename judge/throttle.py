"""Limits on how often and how many: failed logins per account and per client address (a sliding
window), and event streams open at once per account and per client address.

Both live in the memory of one API process (a school runs one; with several behind a balancer each
enforces the limits on its own share). A refusal is ``Throttled``: the API answers 429 with
``Retry-After`` (``judge.api.errors``); the browser pages call the same objects.
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable

from starlette.requests import Request


class Throttled(Exception):
    """A request refused for now: a one-line ``message`` and ``retry_after_s`` whole seconds to wait."""

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.message, self.retry_after_s = message, retry_after_s


class FailureWindow:
    """Failures per key (an account name, an address) within the last ``window_s`` seconds; a key
    with ``limit`` of them is refused until its oldest one ages out. A refusal is never permanent:
    after ``window_s`` seconds without failures every key is free again.

    ``clock`` gives seconds (``time.monotonic`` by default; tests pass their own)."""

    def __init__(self, limit: int, window_s: float, clock: Callable[[], float] = time.monotonic):
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()  # login runs in FastAPI's thread pool

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures[key]
        while times and times[0] <= now - self.window_s:
            times.popleft()
        if not times:
            del self._failures[key]  # the map holds only keys with recent failures
            return deque()
        return times

    def wait_s(self, key: str) -> int:
        """Whole seconds until ``key`` may try again; 0 when it may now."""
        with self._lock:
            now = self.clock()
            times = self._recent(key, now)
            if len(times) < self.limit:
                return 0
            return max(1, math.ceil(times[len(times) - self.limit] + self.window_s - now))

    def fail(self, key: str) -> None:
        """Count a failure of ``key`` now."""
        with self._lock:
            now = self.clock()
            self._recent(key, now)
            self._failures[key].append(now)

    def forget(self, key: str) -> None:
        """Drop ``key``'s failures (its owner logged in)."""
        with self._lock:
            self._failures.pop(key, None)


class LoginThrottle:
    """Failed logins counted per account name and per client address; either limit reached refuses
    further attempts (right password or not) until enough failures age out. A successful login
    clears its account's count (not its address's: one address may be a whole class behind NAT)."""

    def __init__(
        self, per_account: int, per_address: int, window_s: float, clock: Callable[[], float] = time.monotonic
    ):
        self.accounts = FailureWindow(per_account, window_s, clock)
        self.addresses = FailureWindow(per_address, window_s, clock)

    def check(self, account: str, address: str) -> None:
        """Raise Throttled when ``account`` or ``address`` has failed too often lately."""
        wait = max(self.accounts.wait_s(account), self.addresses.wait_s(address))
        if wait:
            raise Throttled(f"too many failed logins: try again in {wait} s", wait)

    def failed(self, account: str, address: str) -> None:
        """Count a wrong name or password for ``account`` from ``address``."""
        self.accounts.fail(account)
        self.addresses.fail(address)

    def succeeded(self, account: str) -> None:
        """The owner got in: their account's failures no longer count."""
        self.accounts.forget(account)


STREAM_RETRY_S = 5  # what a refused stream is told to wait: streams end with their clients


class StreamSlots:
    """Event streams open at once per key (``user:<id>`` or ``address:<ip>``), each key up to its
    limit. ``take`` returns a release function to call once when the stream ends."""

    def __init__(self) -> None:
        self._open: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def take(self, key: str, limit: int) -> Callable[[], None]:
        """Hold one of ``key``'s ``limit`` slots; raise Throttled when all are held."""
        with self._lock:
            if self._open[key] >= limit:
                raise Throttled(
                    f"{limit} event streams are open already for this {key.split(':')[0]}: close one first",
                    STREAM_RETRY_S,
                )
            self._open[key] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if not released:
                    released = True
                    self._open[key] -= 1
                    if not self._open[key]:
                        del self._open[key]

        return release

    def held(self, key: str) -> int:
        """Streams open now for ``key``."""
        with self._lock:
            return self._open.get(key, 0)


def client_address(request: Request) -> str:
    """The client's IP address as the server sees it (a proxy's own unless it passes the client's on
    to uvicorn, which trusts ``X-Forwarded-For`` from 127.0.0.1 only)."""
    return request.client.host if request.client else "unknown"
