"""A judge worker: claims queued submissions, judges them in its sandbox slot, stores the results.

One worker process owns one sandbox slot (its own uid and cgroups). It needs only the database URL:
packages come from the database by hash (``judge.package_store``). A judge fault (a crashing
checker, a broken package, a sandbox error) ends that submission as JE and the worker goes on.
SIGTERM: the current test finishes, then the submission is given back to the queue and the worker exits.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.orm import Session

from judge import lifecycle
from judge.clock import utcnow
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker
from judge.judging import JudgingOutcome, TestOutcome, fit_session, judge_submission, open_session
from judge.languages import LANGUAGES, Language
from judge.models import Submission
from judge.models import Worker as WorkerRow
from judge.package_store import cached_package
from judge.selftest import available_languages
from judge.verdicts import AC, JE
from sandbox import Sandbox, SandboxError, clear_folder, is_empty_folder
from sandbox.session import Session as BoxSession

log = logging.getLogger(__name__)
IDLE_SLEEP_S = 0.2
# a judging's test results are written together (one transaction, by the claim's writer thread)
# this long (s) after the last write, and the rest with the verdict: a slow test is written as
# soon as it is done, a run of fast tests costs one commit, not one each
STORE_EVERY_S = 0.5


class LeaseLost(Exception):
    """This worker's claim on the submission was taken over (its lease expired)."""


class StopRequested(Exception):
    """SIGTERM arrived while judging."""


class Worker:
    """A worker loop bound to sandbox slot ``slot``.

    ``run_forever`` claims and judges until ``stop`` is set; ``judge_one`` does one submission and
    returns False when the queue was empty.
    """

    def __init__(self, settings: Settings, slot: int = 0, worker_id: str | None = None):
        self.settings = settings
        self.slot = slot
        self.host = socket.gethostname()
        self.id = worker_id or f"{self.host}:{os.getpid()}:{slot}"
        self.engine = make_engine(settings.database_url)
        self.sessions = make_sessionmaker(self.engine)
        self.work = settings.work_dir / f"slot-{slot}-{os.getpid()}"
        self.box = Sandbox(slot=slot)
        self.stop = threading.Event()
        self.languages: list[str] = []
        self._ahead: _SessionAhead | None = None  # the next judging's sandbox session, being set up
        self._boxes = ThreadPoolExecutor(1, thread_name_prefix=f"boxes-{slot}")  # see _SessionAhead

    # -- start-up ----------------------------------------------------------------------------
    def start(self) -> None:
        """Self-test the languages and register this worker (host, slot, languages)."""
        self.languages, broken = available_languages(self.box, self.work)
        with self.sessions() as session:
            row = session.get(WorkerRow, self.id) or WorkerRow(id=self.id)
            row.host, row.slots, row.languages = self.host, 1, self.languages
            row.started_at = row.last_heartbeat = utcnow()
            session.add(row)
            session.commit()
        log.info(
            "worker %s ready: languages %s%s",
            self.id,
            ", ".join(self.languages),
            f"; unavailable: {', '.join(broken)}" if broken else "",
        )

    def heartbeat(self, session: Session, current: int | None) -> None:
        """Record that this worker is alive and what it is judging."""
        session.execute(
            update(WorkerRow)
            .where(WorkerRow.id == self.id)
            .values(last_heartbeat=utcnow(), current_submission_id=current)
        )
        session.commit()

    # -- the loop ----------------------------------------------------------------------------
    def run_forever(self) -> None:
        """Judge until ``stop`` is set (SIGTERM/SIGINT set it when installed by ``install_signals``).

        Waits for the database (it may still be migrating on another host) before the first claim.
        """
        while not self.stop.is_set():
            try:
                self.start()
                break
            except Exception as exc:
                log.warning("database not ready (%s); retrying", str(exc).splitlines()[0][:200])
                self.stop.wait(2.0)
        last_reap = 0.0
        while not self.stop.is_set():
            try:
                if time.monotonic() - last_reap > 5:
                    with self.sessions() as session:
                        lifecycle.requeue_expired(session, self.settings.max_attempts)
                        self.heartbeat(session, None)
                    last_reap = time.monotonic()
                if not self.judge_one():
                    self.stop.wait(IDLE_SLEEP_S)
            except Exception:  # the database went away for a moment: keep the worker alive
                log.exception("worker loop error; retrying")
                self.stop.wait(1.0)
        self.close()

    def close(self) -> None:
        """Close the sandbox session set up ahead (if any) and the slot's box."""
        if self._ahead is not None:
            ahead, self._ahead = self._ahead, None
            ahead.close()
        self._boxes.shutdown()
        self.box.close()

    def install_signals(self) -> None:
        """SIGTERM and SIGINT ask for a graceful stop."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stop.set())

    def judge_one(self) -> bool:
        """Claim one submission and judge it; False if the queue was empty (or the work folder
        cannot be made clean: nothing is claimed then).

        The submission's sandbox session is set up by a thread of its own (``_SessionAhead``):
        the next one's as soon as a verdict is stored, so that a worker waiting for a
        submission has it ready (or, at the first call, while the claim is made); it is kept
        for the next call when the queue is empty, and closed by that thread while the verdict
        is stored (done when this returns)."""
        if self._ahead is None:
            if not self._clean_work():
                return False
            self._ahead = _SessionAhead(self._boxes, self.box, self.work)
        with self.sessions() as session:
            claim = lifecycle.claim(session, self.id, self.settings.lease_seconds, self.languages)
            if claim is None:
                return False
            submission = session.get(Submission, claim.submission_id)
        ahead, self._ahead = self._ahead, None
        writer = _ClaimWriter(self, claim)  # the heartbeat, the lease and the test results
        writer.start()
        closing = None
        try:
            outcome = self._judge(submission, writer, ahead)
            closing = ahead.close_in_background()  # while the verdict is stored
            self._finish(claim, outcome, writer)
        except StopRequested:
            writer.close()
            with self.sessions() as session:
                lifecycle.give_back(session, claim)
            log.info("submission %s given back to the queue (stopping)", claim.submission_id)
        except LeaseLost:
            log.warning("lease on submission %s lost; its results are discarded", claim.submission_id)
        finally:
            writer.close()
            if closing is None:
                ahead.close()
            else:
                closing.result()
        if not self.stop.is_set() and self._clean_work():  # the next submission's box, set up while none is here
            self._ahead = _SessionAhead(self._boxes, self.box, self.work)
        return True

    def _clean_work(self) -> bool:
        """Whether the work folder is empty, made so if needed (``sandbox.clear_folder``: what
        cannot be removed is moved aside); False, logged, if neither works."""
        try:
            if not is_empty_folder(self.work):
                clear_folder(self.work)
            return True
        except (OSError, SandboxError) as error:
            log.error("work folder %s cannot be made clean (%s): no submission is claimed", self.work, error)
            return False

    def _judge(self, submission: Submission, writer: _ClaimWriter, ahead: _SessionAhead) -> JudgingOutcome:
        language = LANGUAGES.get(submission.language)
        try:
            if language is None:
                return JudgingOutcome(JE, judge_message=f"unknown language {submission.language!r}")
            packages = self.work.parent / "packages"
            with self.sessions() as session:
                package = cached_package(session, submission.package_sha256, submission.problem_id, packages)
            return judge_submission(
                self.box,
                package,
                language,
                submission.source,
                self.work,
                on_test=lambda t: self._store_test(writer, t),
                validator_cache=packages / "validators",
                session=ahead.fit(language),
            )
        except (StopRequested, LeaseLost):
            raise
        except Exception as exc:  # judge fault: JE for this submission, the worker goes on
            log.exception("judge error on submission %s", submission.id)
            return JudgingOutcome(JE, judge_message=f"judge error: {type(exc).__name__}: {exc}"[:2000])

    def _store_test(self, writer: _ClaimWriter, test: TestOutcome) -> None:
        """Hand one test result to the claim's writer (``_ClaimWriter.keep``: written in the
        background); stop early on SIGTERM or a lost lease."""
        writer.keep(
            {
                "ordinal": test.ordinal,
                "test_name": test.test.name,
                "test_group": test.test.group,
                "verdict": test.verdict,
                "time_ms": test.time_ms,
                "wall_ms": test.wall_ms,
                "memory_kib": test.memory_kib,
                "exit_code": test.exit_code,
                "signal": test.signal,
                "message": test.message,
                "feedback": test.feedback,
                "output": None
                if test.output is None
                else test.output.decode(errors="replace").replace("\x00", "\ufffd"),
            }
        )
        if writer.lost:
            raise LeaseLost()
        if self.stop.is_set():
            raise StopRequested()

    def _finish(self, claim: lifecycle.Claim, outcome: JudgingOutcome, writer: _ClaimWriter) -> None:
        """Store the verdict under the claim in one transaction with the test results the writer
        has not written (after its last write has ended: every result is stored when the verdict
        is); LeaseLost when the claim no longer holds."""
        unwritten = writer.close()
        if writer.lost:
            raise LeaseLost()
        with self.sessions() as session:
            done = lifecycle.finish(
                session,
                claim,
                verdict=outcome.verdict,
                compile_message=outcome.compile_message,
                judge_message=outcome.judge_message,
                time_ms=outcome.time_ms,
                memory_kib=outcome.memory_kib,
                tests_passed=sum(t.verdict == AC for t in outcome.tests),
                tests_total=len(outcome.tests),
                score=outcome.score,
                max_score=outcome.max_score,
                results=unwritten,
            )
        if not done:
            raise LeaseLost()
        log.info("submission %s: %s", claim.submission_id, outcome.verdict)


class _ClaimWriter:
    """The writes of one judging that it never waits for, made by a thread of their own: the
    worker's heartbeat naming the submission, the claim's lease renewed every third of its
    length, and the test results handed over by ``keep``, written together (``lifecycle.
    store_tests``, one transaction) ``STORE_EVERY_S`` after the last write.

    ``lost`` becomes True once a write finds the claim no longer holds (nothing more is
    written). A write that fails (the database went away) is logged and its results are kept
    for the next one. ``close`` lets the write under way end, stops the thread and returns the
    results not written, for the verdict's own transaction (``lifecycle.finish``).
    """

    def __init__(self, worker: Worker, claim: lifecycle.Claim):
        self.worker, self.claim = worker, claim
        self.lost = False
        self._pending: list[lifecycle.ResultRow] = []
        self._written_at = time.monotonic()  # when results were last written, or the judging began
        self._closed = False
        self._wake = threading.Condition()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def keep(self, result: lifecycle.ResultRow) -> None:
        """Hand ``result`` over to be written; returns at once."""
        with self._wake:
            self._pending.append(result)
            self._wake.notify()

    def close(self) -> list[lifecycle.ResultRow]:
        """Stop the thread once its write under way (if any) has ended; the results not written
        (none once ``lost``). Idempotent."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self.thread.ident is not None:
            self.thread.join()
        with self._wake:
            unwritten, self._pending = self._pending, []
        return [] if self.lost else unwritten

    def _loop(self) -> None:
        settings, worker = self.worker.settings, self.worker
        try:
            with worker.sessions() as session:
                worker.heartbeat(session, self.claim.submission_id)
        except Exception:  # a missed heartbeat only makes the worker look idle a while
            log.exception("heartbeat failed")
        period = settings.lease_seconds / 3
        renew_at = time.monotonic() + period
        while not self.lost:
            with self._wake:
                while not self._closed:
                    now = time.monotonic()
                    store_at = self._written_at + STORE_EVERY_S if self._pending else float("inf")
                    if now >= min(store_at, renew_at):
                        break
                    self._wake.wait(min(store_at, renew_at) - now)
                if self._closed:
                    return
                now = time.monotonic()
                batch = self._pending if now >= self._written_at + STORE_EVERY_S else []
                if batch:
                    self._pending = []
            if batch:
                self._write(batch)
            if time.monotonic() >= renew_at:
                self._renew()
                renew_at = time.monotonic() + period

    def _write(self, batch: list[lifecycle.ResultRow]) -> None:
        try:
            with self.worker.sessions() as session:
                self.lost = not lifecycle.store_tests(session, self.claim, self.worker.id, batch)
        except Exception:  # written with the next batch, or with the verdict
            log.exception("test results not written; kept for the next write")
            with self._wake:
                self._pending[:0] = batch
        with self._wake:
            self._written_at = time.monotonic()

    def _renew(self) -> None:
        try:
            with self.worker.sessions() as session:
                self.lost = not lifecycle.renew(session, self.claim, self.worker.settings.lease_seconds)
        except Exception:  # a missed renewal only shortens the lease
            log.exception("lease renewal failed")


class _SessionAhead:
    """The sandbox session of a worker's next judging (``judge.judging.open_session`` for no
    language in particular, in ``work``), set up by the worker's box thread (``boxes``: one
    thread for the worker's life, as the main thread is, since bubblewrap dies with the thread
    that started it) while the worker claims, or waits for a submission. ``fit`` waits for it
    and makes it ready for the submission's language (``fit_session``); ``close`` or
    ``close_in_background`` ends it (or the one ``fit`` put in its place). An error setting it
    up is raised by ``fit``."""

    def __init__(self, boxes: ThreadPoolExecutor, box: Sandbox, work: Path):
        self.boxes = boxes
        self._opening: Future[BoxSession] | None = boxes.submit(open_session, box, None, work)
        self._session: BoxSession | None = None
        self.box, self.work = box, work

    def fit(self, language: Language) -> BoxSession:
        """The session, ready for a submission in ``language``. Raises SandboxError (or what
        else setting it up raised) if there is none."""
        if self._opening is not None:
            opening, self._opening = self._opening, None
            self._session = opening.result()
        if self._session is None:
            raise SandboxError("the sandbox session set up ahead is closed")
        self._session = fit_session(self._session, self.box, language, self.work)
        return self._session

    def close(self) -> None:
        """End the session (once it is set up); never raises: a failure is logged."""
        try:
            if self._opening is not None:
                opening, self._opening = self._opening, None
                self._session = opening.result()
            session, self._session = self._session, None
            if session is not None:
                session.close()
        except Exception:  # the slot's next session says what is wrong, if anything is
            log.exception("the sandbox session set up ahead could not be set up or closed")

    def close_in_background(self) -> Future[None]:
        """``close``, by the worker's box thread; its result is there once it is done."""
        return self.boxes.submit(self.close)


def run_worker(settings: Settings, slot: int) -> None:
    """Entry point of one worker process (``judge worker``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker[%(process)d] %(message)s")
    try:
        worker = Worker(settings, slot)
    except SandboxError as exc:  # bwrap missing, slot taken by another worker, no cgroups access
        log.error("worker for slot %s cannot start: %s", slot, exc)
        raise SystemExit(2) from exc
    worker.install_signals()
    worker.run_forever()
