"""Live updates as server-sent events (the WHATWG HTML "server-sent events" format:
``event: NAME`` / ``id: N`` / ``data: JSON`` lines, a blank line after each event).

The streams read the database, never the worker: each one polls (every ``poll_s`` seconds) the rows
the workers write anyway, so any API host serves any stream and nothing is lost when a worker dies.

- ``SubmissionFeed``: ``test`` (one test case finished: its result, as much as the viewer may see),
  ``status`` (queued / judging / done, and the judging attempt: a rejudge starts a new one),
  ``verdict`` (the final verdict), then the stream ends.
- ``ContestFeed``: ``scoreboard`` (the board as the viewer may see it, sent at once and whenever it
  changes; none for a viewer who may see the contest but not its board), ``verdict`` (a submission
  of the contest got its verdict: every one for the jury, the viewer's own for a student) and
  ``clarification`` (a question, answer or announcement the viewer sees was added or changed:
  ``judge.clarifications.ClarificationWatch``). Under the freeze a student's stream carries nothing
  another student's frozen verdict would change.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta

import anyio
from fastapi import Request
from fastapi.responses import StreamingResponse
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.types import Receive, Scope, Send

from judge.clarifications import ClarificationWatch
from judge.clock import iso_utc, utcnow
from judge.contests import shown_figures, shown_test
from judge.models import Contest, ContestProblem, Submission, TestResult, User
from judge.scoreboard import compute_scoreboard, scoreboard_fingerprint
from judge.threads import LoopLimiter
from judge.throttle import HeldSlot, client_address
from judge.vocabulary import DetailLevel, ScoreboardView, Status

KEEPALIVE_S = 15.0
CLOCK_SLACK = timedelta(minutes=1)  # workers on other hosts stamp finished_at with their own clocks


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    """One server-sent event as text: ``event:``, optional ``id:``, one ``data:`` line of JSON."""
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return f"{head}data: {json.dumps(data, default=_json_value, separators=(',', ':'))}\n\n"


def _json_value(value: object) -> str:
    """A value JSON has no type for: a time as the API writes it (``iso_utc``), anything else as text."""
    return iso_utc(value) if isinstance(value, datetime) else str(value)


class SubmissionFeed:
    """Events of one submission for a viewer at detail ``level`` (``judge.contests.detail_level``)."""

    def __init__(self, submission_id: int, level: DetailLevel):
        self.submission_id, self.level = submission_id, level
        self.attempt: int | None = None
        self.status: str | None = None
        self.sent_ordinal = 0
        self.finished = False

    def poll(self, session: Session) -> list[tuple[str, dict]]:
        """The events since the last poll, as (name, data); sets ``finished`` after the verdict."""
        row = session.get(Submission, self.submission_id)  # the row first: once it says done, every result is in
        if row is None:
            self.finished = True
            return [("gone", {"id": self.submission_id})]
        events = []
        if row.attempt != self.attempt:  # a new judging (or the first look): its tests start over
            self.attempt, self.sent_ordinal = row.attempt, 0
        results = (
            []
            if row.status == Status.QUEUED
            else session.scalars(  # queued again: old results are stale
                select(TestResult)
                .where(
                    TestResult.submission_id == row.id,
                    TestResult.attempt == row.attempt,
                    TestResult.ordinal > self.sent_ordinal,
                )
                .order_by(TestResult.ordinal)
            ).all()
        )
        if row.status != self.status or (results and self.status is None):
            self.status = row.status
            events.append(("status", {"id": row.id, "status": row.status, "attempt": row.attempt}))
        for result in results:
            events.append(("test", {"id": row.id, "attempt": row.attempt, **shown_test(result, self.level)}))
            self.sent_ordinal = result.ordinal
        if row.status == Status.DONE:
            time_ms, memory_kib = shown_figures(row, self._results(session, row), self.level)
            events.append(
                (
                    "verdict",
                    {
                        "id": row.id,
                        "verdict": row.verdict,
                        "tests_passed": row.tests_passed,
                        "tests_total": row.tests_total,
                        "time_ms": time_ms,
                        "memory_kib": memory_kib,
                    },
                )
            )
            self.finished = True
        return events

    @staticmethod
    def _results(session: Session, row: Submission) -> list[TestResult]:
        """Every test result of the submission's current judging."""
        return list(
            session.scalars(
                select(TestResult).where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
            )
        )


class ContestFeed:
    """Events of one contest for ``viewer`` seeing the board as ``view`` (``jury`` or ``public``;
    None: no board, for a viewer who sees the contest but not its scoreboard)."""

    def __init__(self, contest_id: int, viewer: User | None, view: ScoreboardView | None, now: datetime | None = None):
        self.contest_id, self.view = contest_id, view
        self.viewer_id = viewer.id if viewer else None
        self.fingerprint: tuple | None = None
        self.board: dict | None = None
        self.since = (now or utcnow()) - CLOCK_SLACK
        self.seen: set[tuple[int, int]] = set()
        self.clarifications = ClarificationWatch(self.viewer_id, view == ScoreboardView.JURY, now or utcnow())
        self.finished = False

    def poll(self, session: Session, now: datetime | None = None) -> list[tuple[str, dict]]:
        """The events since the last poll: new or changed clarifications, new verdicts, then the
        board if it changed for this view."""
        now = now or utcnow()
        contest = session.get(Contest, self.contest_id)
        if contest is None:
            self.finished = True
            return [("gone", {"contest": self.contest_id})]
        events = self.clarifications.poll(session, contest)
        fingerprint = scoreboard_fingerprint(session, contest, now)
        if fingerprint == self.fingerprint:  # nothing of the scoreboard changed: skip its queries
            return events
        self.fingerprint = fingerprint
        events += self._verdicts(session, contest)
        if self.view is None:
            return events
        board = compute_scoreboard(session, contest, self.view, now).to_dict()
        board.pop("computed_at")
        if board != self.board:
            self.board = board
            events.append(("scoreboard", board))
        return events

    def _verdicts(self, session: Session, contest: Contest) -> list[tuple[str, dict]]:
        s = Submission
        query = (
            select(s.id, s.attempt, s.user_id, s.verdict, s.is_jury, ContestProblem.letter, s.finished_at)
            .join(
                ContestProblem,
                (ContestProblem.contest_id == s.contest_id) & (ContestProblem.problem_id == s.problem_id),
            )
            .where(s.contest_id == contest.id, s.status == Status.DONE, s.finished_at >= self.since)
            .order_by(s.finished_at, s.id)
        )
        if self.view != ScoreboardView.JURY:
            query = query.where(s.user_id == self.viewer_id)
        events = []
        for sid, attempt, user_id, verdict, jury, letter, finished_at in session.execute(query):
            if finished_at is not None:  # the window moves on with the verdicts
                self.since = max(self.since, finished_at - CLOCK_SLACK)
            if (sid, attempt) not in self.seen:
                self.seen.add((sid, attempt))
                events.append(
                    (
                        "verdict",
                        {
                            "id": sid,
                            "attempt": attempt,
                            "user_id": user_id,
                            "letter": letter,
                            "verdict": verdict,
                            "jury": jury,
                        },
                    )
                )
        return events


MAX_CONCURRENT_POLLS = 4  # of the pool's connections (judge.db.POOL_SIZE): open streams never starve other requests
POLLS = LoopLimiter(MAX_CONCURRENT_POLLS)


Feed = SubmissionFeed | ContestFeed


async def stream(
    feed: Feed,
    sessions: sessionmaker,
    poll_s: float,
    max_s: float,
    disconnected: Callable[[], Awaitable[bool]] | None = None,
    slot: HeldSlot | None = None,
) -> AsyncIterator[str]:
    """Poll ``feed`` every ``poll_s`` seconds (in a worker thread: database calls block; at most
    ``MAX_CONCURRENT_POLLS`` polls of all streams at once) and yield its
    events as SSE text, a keep-alive comment every ``KEEPALIVE_S``, until the feed finishes, the client
    goes away (``await disconnected()`` is true) or ``max_s`` seconds pass (``end`` event: the
    client reconnects, as EventSource does on its own). Each poll renews ``slot``'s lease when due."""

    def poll():
        if slot is not None:
            slot.renew()
        with sessions() as session:
            return feed.poll(session)

    yield "retry: 2000\n\n"
    deadline = time.monotonic() + max_s
    quiet_since = time.monotonic()
    event_id = 0
    while True:
        for name, data in await POLLS.run(poll):
            event_id += 1
            quiet_since = time.monotonic()
            yield sse(name, data, event_id)
        if feed.finished:
            return
        if time.monotonic() >= deadline:
            yield sse("end", {"reason": "stream time limit; reconnect"})
            return
        if time.monotonic() - quiet_since >= KEEPALIVE_S:
            quiet_since = time.monotonic()
            yield ": keep-alive\n\n"
        if disconnected is not None and await disconnected():
            return
        await asyncio.sleep(poll_s)


class HeldStream(StreamingResponse):
    """A streaming response that gives back its stream slot when it ends, however it ends (in a
    worker thread: giving it back writes to the database)."""

    def __init__(self, content, slot: HeldSlot, **kwargs):
        super().__init__(content, **kwargs)
        self.slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await anyio.to_thread.run_sync(self.slot.release)


def event_response(
    request: Request, session: Session, user: User | None, feed: Feed, poll_s: float, max_s: float
) -> StreamingResponse:
    """The HTTP response streaming ``feed`` (``stream``) to the client of ``request``, polled through
    the app's session factory every ``poll_s`` seconds (raised to the ``min_poll_s`` setting) for at
    most ``max_s`` seconds. The stream holds one of the caller's slots (``max_streams_per_user`` per
    account, ``max_streams_per_address`` per address without one; ``judge.throttle.StreamSlots``):
    raises Throttled (429) when all are held.

    Closes ``session`` (the request's own) first: it would otherwise keep its pooled connection for
    the stream's whole life, and a few open streams would hold them all."""
    settings, slots = request.app.state.settings, request.app.state.streams
    if user is not None:
        slot = slots.take(f"user:{user.id}", settings.max_streams_per_user)
    else:
        slot = slots.take(f"address:{client_address(request)}", settings.max_streams_per_address)
    session.close()
    poll_s = max(poll_s, settings.min_poll_s)
    return HeldStream(
        stream(feed, request.app.state.sessions, poll_s, max_s, request.is_disconnected, slot),
        slot,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
