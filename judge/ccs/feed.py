"""The Contest API event feed (icpc/ccs-specs 2023-06, ``Contest_API.md`` "Event feed"): NDJSON,
one notification ``{"type", "id", "data", "token"}`` per line.

The feed reads the database, never the worker (as ``judge.events`` does): every ``poll_s`` seconds
it looks at the contest's fingerprint, rebuilds the viewer's objects
(``judge.ccs.objects.ContestView``) when it changed, and sends a notification for each object that
is new or changed since the last poll (``data`` null for one that went away, e.g. the judgement of
a rejudged submission). The first poll sends every object: contest, judgement
types, languages, problems, groups, teams, accounts, state, submissions, judgements, runs,
clarifications, awards. A newline keeps the connection alive after ``KEEPALIVE_S`` quiet seconds.
The feed ends after the state notification that sets ``end_of_updates``.

A public viewer's feed is built from the public objects, so a judgement the freeze hides is never
sent to it: it arrives only when the contest is unfrozen.

Tokens: ``<n>-<check>``, ``n`` counting notifications in one connection, ``check`` a digest of the
contest and ``n``. Reconnecting with ``since_token`` set to a token of this contest sends the whole
current state again (the specification allows more events than missed); a token that is not one
of ours is refused (400), as is the older parameter ``since_id``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from sqlalchemy.orm import sessionmaker

from judge.ccs.objects import COLLECTIONS, ContestView
from judge.clarifications import clarifications_fingerprint
from judge.clock import utcnow
from judge.models import Contest, User
from judge.schemas import whole_number
from judge.scoreboard import scoreboard_fingerprint
from judge.vocabulary import ScoreboardView

KEEPALIVE_S = 10.0
Key = tuple[str, str | None]


def snapshot(view: ContestView) -> dict[Key, Any]:
    """Every object the viewer may see, keyed by (type, id) in feed order; ``contest`` and ``state``
    have id None."""
    objects: dict[Key, Any] = {("contest", None): view.contest_object()}
    for endpoint in COLLECTIONS:
        if endpoint == "submissions":  # the state comes before the live data
            objects[("state", None)] = view.state()
        for obj in view.collection(endpoint) or []:
            objects[(endpoint, obj["id"])] = obj
    return objects


def snapshots(
    sessions: sessionmaker, contest_id: int, view: ScoreboardView, viewer_id: int | None, cache_dir: Path
) -> Callable[[], dict[Key, Any]]:
    """A ``poll`` for ``stream``: the viewer's ``snapshot`` in a fresh session, rebuilt only when
    the contest's scoreboard fingerprint (``judge.scoreboard.scoreboard_fingerprint``: submissions,
    verdicts, settings, the start, the freeze), its clarifications
    (``judge.clarifications.clarifications_fingerprint``) or its end has passed since the last one (``{}`` once
    the contest is gone)."""
    last: dict[str, Any] = {"key": None, "objects": {}}

    def poll() -> dict[Key, Any]:
        with sessions() as session:
            contest = session.get(Contest, contest_id)
            if contest is None:
                return {}
            now = utcnow()
            key = (
                scoreboard_fingerprint(session, contest, now),
                clarifications_fingerprint(session, contest_id),
                now >= contest.end_at,
            )
            if key != last["key"]:
                viewer = session.get(User, viewer_id) if viewer_id is not None else None
                last["objects"] = snapshot(ContestView(session, contest, view, viewer, cache_dir, now))
                last["key"] = key
            return last["objects"]

    return poll


def token_check(contest_id: int, seq: int) -> str:
    """The check part of token ``seq`` of a contest's feed."""
    return hashlib.sha256(f"classjudge-ccs:{contest_id}:{seq}".encode()).hexdigest()[:10]


def valid_token(contest_id: int, token: str) -> bool:
    """Whether ``token`` is one this contest's feed hands out."""
    seq, _, check = token.partition("-")
    number = whole_number(seq, 10**12)
    return number is not None and check == token_check(contest_id, number)


class EventFeed:
    """The notifications of one contest for one viewer; ``build_view`` makes a fresh
    ``ContestView`` (in its own session) for each poll."""

    def __init__(self, contest_id: int):
        self.contest_id = contest_id
        self.sent: dict[Key, Any] = {}
        self.seq = 0
        self.finished = False

    def changes(self, objects: dict[Key, Any]) -> list[dict]:
        """The notifications that bring a client from the last sent state to ``objects``."""
        changed = [(key, data) for key, data in objects.items() if self.sent.get(key) != data]
        changed += [(key, None) for key in self.sent if key not in objects]
        self.sent = objects
        state = objects.get(("state", None))
        if state and state.get("end_of_updates"):  # that notification must be the feed's last
            self.finished = True
            changed = [c for c in changed if c[0] != ("state", None)] + [(("state", None), state)]
        return [self._event(key, data) for key, data in changed]

    def _event(self, key: Key, data: Any) -> dict:
        self.seq += 1
        kind, object_id = key
        return {
            "type": kind,
            "id": object_id,
            "data": data,
            "token": f"{self.seq}-{token_check(self.contest_id, self.seq)}",
        }


def ndjson(event: dict) -> str:
    """One notification as a line of NDJSON."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n"


async def stream(
    feed: EventFeed,
    poll: Callable[[], dict[Key, Any]],
    poll_s: float,
    disconnected: Callable[[], Awaitable[bool]] | None = None,
    max_s: float | None = None,
) -> AsyncIterator[str]:
    """Call ``poll`` (in a worker thread: database calls block) every ``poll_s`` seconds and yield
    the feed's notifications as NDJSON lines, a bare newline after ``KEEPALIVE_S`` quiet seconds,
    until the feed finishes, the client goes away or ``max_s`` seconds pass."""
    quiet_since = start = time.monotonic()
    while True:
        objects = await anyio.to_thread.run_sync(poll)
        for event in feed.changes(objects):
            quiet_since = time.monotonic()
            yield ndjson(event)
        if feed.finished or (max_s is not None and time.monotonic() - start >= max_s):
            return
        if time.monotonic() - quiet_since >= KEEPALIVE_S:
            quiet_since = time.monotonic()
            yield "\n"
        if disconnected is not None and await disconnected():
            return
        await asyncio.sleep(poll_s)
