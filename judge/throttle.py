"""Limits on how often and how many: failed logins per account and per client address (a sliding
window), and event streams open at once per account and per client address.

Both are kept in the database (tables ``login_failures`` and ``stream_slots``), so every API
process of ``judge serve --api-processes N`` enforces the same limits on the same counts. A refusal
is ``Throttled``: the API answers 429 with ``Retry-After`` (``judge.api.errors``); the browser pages
call the same objects. Each object takes a session factory and writes in short transactions of its
own, apart from the request's.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import sessionmaker
from starlette.requests import Request

from judge.models import LoginFailure, StreamSlot


def with_wait(reason: str, retry_after_s: int) -> str:
    """A refusal for now as the API says it, the wait once: ``too many failed logins: try again in 5 s``."""
    return f"{reason}: try again in {retry_after_s} s"


class Throttled(Exception):
    """A request refused for now: the one-line ``reason``, ``retry_after_s`` whole seconds to wait,
    and the ``message`` of both (``with_wait``). A page shows the reason and counts the wait down."""

    def __init__(self, reason: str, retry_after_s: int):
        self.reason, self.retry_after_s = reason, retry_after_s
        self.message = with_wait(reason, retry_after_s)
        super().__init__(self.message)


def _digest(key: str) -> str:
    """The stored form of a key: SHA-256 in hex (any text a client sends fits, NULs included)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class FailureWindow:
    """Failures per key (an account name, an address) within the last ``window_s`` seconds; a key
    with ``limit`` of them is refused until its oldest one ages out. A refusal is never permanent:
    after ``window_s`` seconds without failures every key is free again.

    ``scope`` prefixes the keys (``account``, ``address``); ``clock`` gives seconds since the Unix
    epoch (``time.time`` by default: every process shares it; tests pass their own)."""

    def __init__(
        self, sessions: sessionmaker, scope: str, limit: int, window_s: float, clock: Callable[[], float] = time.time
    ):
        self.sessions, self.scope = sessions, scope
        self.limit, self.window_s, self.clock = limit, window_s, clock

    def wait_s(self, key: str) -> int:
        """Whole seconds until ``key`` may try again; 0 when it may now."""
        now = self.clock()
        with self.sessions() as session:
            times = session.scalars(
                select(LoginFailure.failed_at)
                .where(LoginFailure.key_sha256 == self._key(key), LoginFailure.failed_at > now - self.window_s)
                .order_by(LoginFailure.failed_at.desc())
                .limit(self.limit)
            ).all()
        if len(times) < self.limit:
            return 0
        return max(1, math.ceil(times[-1] + self.window_s - now))

    def fail(self, key: str) -> None:
        """Count a failure of ``key`` now; failures of every key older than the window are dropped."""
        now = self.clock()
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(LoginFailure.failed_at <= now - self.window_s))
            session.add(LoginFailure(key_sha256=self._key(key), failed_at=now))
            session.commit()

    def forget(self, key: str) -> None:
        """Drop ``key``'s failures (its owner logged in)."""
        with self.sessions() as session:
            session.execute(delete(LoginFailure).where(LoginFailure.key_sha256 == self._key(key)))
            session.commit()

    def _key(self, key: str) -> str:
        return _digest(f"{self.scope}:{key}")


class LoginThrottle:
    """Failed logins counted per account name and per client address; either limit reached refuses
    further attempts (right password or not) until enough failures age out. A successful login
    clears its account's count (not its address's: one address may be a whole class behind NAT)."""

    def __init__(
        self,
        sessions: sessionmaker,
        per_account: int,
        per_address: int,
        window_s: float,
        clock: Callable[[], float] = time.time,
    ):
        self.accounts = FailureWindow(sessions, "account", per_account, window_s, clock)
        self.addresses = FailureWindow(sessions, "address", per_address, window_s, clock)

    def check(self, account: str, address: str) -> None:
        """Raise Throttled when ``account`` or ``address`` has failed too often lately."""
        wait = max(self.accounts.wait_s(account), self.addresses.wait_s(address))
        if wait:
            raise Throttled("too many failed logins", wait)

    def failed(self, account: str, address: str) -> None:
        """Count a wrong name or password for ``account`` from ``address``."""
        self.accounts.fail(account)
        self.addresses.fail(address)

    def succeeded(self, account: str) -> None:
        """The owner got in: their account's failures no longer count."""
        self.accounts.forget(account)


STREAM_RETRY_S = 5  # what a refused stream is told to wait: streams end with their clients
STREAM_LEASE_S = 60.0  # a slot not renewed for this long is free (its process died)


class StreamSlots:
    """Event streams open at once per key (``user:<id>`` or ``address:<ip>``), each key up to its
    limit, counted over every API process. ``take`` returns a ``HeldSlot``.

    A slot is a row with a lease of ``STREAM_LEASE_S`` seconds, renewed by its stream; a stream
    whose process died stops counting when its lease ends. ``clock`` gives seconds since the Unix
    epoch."""

    def __init__(self, sessions: sessionmaker, clock: Callable[[], float] = time.time) -> None:
        self.sessions, self.clock = sessions, clock

    def take(self, key: str, limit: int) -> HeldSlot:
        """Hold one of ``key``'s ``limit`` slots; raise Throttled when all are held.

        The slot is stored first, then the key's live slots are counted: when two processes take the
        last slot at once, both may count each other and refuse (never both hold it)."""
        digest, now = _digest(key), self.clock()
        with self.sessions() as session:
            session.execute(delete(StreamSlot).where(StreamSlot.expires_at <= now))
            slot = StreamSlot(key_sha256=digest, expires_at=now + STREAM_LEASE_S)
            session.add(slot)
            session.commit()
            held = session.scalar(
                select(func.count()).where(StreamSlot.key_sha256 == digest, StreamSlot.expires_at > now)
            )
            if held is not None and held > limit:
                session.execute(delete(StreamSlot).where(StreamSlot.id == slot.id))
                session.commit()
                raise Throttled(
                    f"{limit} event streams are open already for this {key.split(':')[0]}; close one first",
                    STREAM_RETRY_S,
                )
        return HeldSlot(self, slot.id, now)

    def held(self, key: str) -> int:
        """Streams open now for ``key``."""
        with self.sessions() as session:
            return (
                session.scalar(
                    select(func.count()).where(
                        StreamSlot.key_sha256 == _digest(key), StreamSlot.expires_at > self.clock()
                    )
                )
                or 0
            )


class HeldSlot:
    """One slot of ``StreamSlots`` held by a stream: ``renew()`` while it lives (it writes once per
    half lease, else does nothing), ``release()`` when it ends (once; later calls do nothing)."""

    def __init__(self, slots: StreamSlots, slot_id: int, renewed_at: float):
        self.slots, self.slot_id, self.renewed_at = slots, slot_id, renewed_at
        self.released = False

    def renew(self) -> None:
        """Extend the lease when half of it has passed."""
        now = self.slots.clock()
        if self.released or now - self.renewed_at < STREAM_LEASE_S / 2:
            return
        with self.slots.sessions() as session:
            session.execute(
                update(StreamSlot).where(StreamSlot.id == self.slot_id).values(expires_at=now + STREAM_LEASE_S)
            )
            session.commit()
        self.renewed_at = now

    def release(self) -> None:
        """Give the slot back."""
        if self.released:
            return
        self.released = True
        with self.slots.sessions() as session:
            session.execute(delete(StreamSlot).where(StreamSlot.id == self.slot_id))
            session.commit()


def client_address(request: Request) -> str:
    """The client's IP address as the server sees it (a proxy's own unless it passes the client's on
    to uvicorn, which trusts ``X-Forwarded-For`` from 127.0.0.1 only)."""
    return request.client.host if request.client else "unknown"
