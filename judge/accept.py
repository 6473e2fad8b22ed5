"""Accepting a submission: every rule a new submission passes before it joins the queue, in one
function that the API and the browser pages both call.

The rules, in order: the target (problem visible to the user; for a contest, its window and
participants; a practice submission to a problem of a running contest refused), the language (known,
and judged by a live worker when any worker is alive), the source (at most ``max_source_bytes``, not
blank, no NUL character), then the student's rate limit. Each refusal is a ``ContestRuleError`` with
its HTTP status and a one-line reason.

``accept_submission`` applies them one by one to a known user and says which one refuses.
``accept_batch`` is the API's way in (``accept_by_token`` for one submission): a submission that
breaks no rule, which is nearly every one, is taken in two statements, with no lookup of its own for
the token, and the submissions of a batch share one commit: one UPDATE of the user row that checks
the token (``judge.auth.token_owner``), the account and the rate limit and takes the slot, then one
``INSERT … SELECT`` whose WHERE clause holds the target and language rules as SQL conditions
(``fast_target``). Those conditions are never more lenient than the rules: where they find no row (a
refusal, or a case they leave to the rules, such as practice on a problem of a contest that has not
ended), that submission's statements are rolled back and ``accept_submission`` decides, with its
exact reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import ColumnElement, Integer, Select, and_, bindparam, case, cast, exists, or_, select, true, update
from sqlalchemy import String as SqlString
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert, ReturningUpdate

from judge import board, lifecycle
from judge import contests as rules
from judge.auth import JURY_ROLES, token_owner, token_parameters, user_for_token
from judge.clock import UtcDateTime, utcnow
from judge.config import Settings
from judge.contests import ContestRuleError
from judge.db import one_of
from judge.languages import LANGUAGES
from judge.models import Contest, ContestProblem, Problem, Submission, User, Worker
from judge.vocabulary import Role

WORKER_ALIVE = timedelta(minutes=2)  # a worker whose last heartbeat is older counts as down


def live_languages(session: Session) -> set[str] | None:
    """Languages some live worker passed the self-test for; None when no worker is alive (none has
    reported yet, or all are down for a restart: submissions then wait in the queue for them, where
    refusing them would tell students that every language failed its self-test)."""
    since = utcnow() - WORKER_ALIVE
    live = session.scalars(select(Worker).where(Worker.last_heartbeat >= since)).all()
    if not live:
        return None
    return {lang for w in live for lang in (w.languages or [])}


def check_language(session: Session, language: str) -> None:
    """Raise ContestRuleError (422) for an unknown language or one no live worker can judge."""
    if language not in LANGUAGES:
        raise ContestRuleError(422, f"unknown language {language!r}; see GET /api/v1/languages")
    live = live_languages(session)
    if live is not None and language not in live:
        raise ContestRuleError(422, f"language {language!r} is unavailable: no worker passed its self-test")


def language_live() -> ColumnElement[bool]:
    """SQL condition: the language whose ``_offered`` pattern is the parameter ``offered`` is judged
    by a live worker (a heartbeat at the parameter ``alive_since`` or later: ``WORKER_ALIVE`` before
    now), or no worker is alive: ``check_language``'s rule as one condition."""
    alive = Worker.last_heartbeat >= bindparam("alive_since", type_=UtcDateTime)
    offers = cast(Worker.languages, SqlString).like(bindparam("offered"), escape="/")
    return or_(~exists().where(alive), exists().where(alive, offers))


def _offered(language: str) -> str:
    """A LIKE pattern (escape character ``/``) matching a worker's language list, as JSON text,
    that holds ``language``: the id between double quotes, its wildcards escaped."""
    quoted = '"' + language.replace("/", "//").replace("%", "/%").replace("_", "/_") + '"'
    return f"%{quoted}%"


def source_refusal(settings: Settings, source: str) -> ContestRuleError | None:
    """Why ``source`` cannot be judged (413 over ``settings.max_source_bytes``, 422 blank or with a
    NUL character), or None. Looks at no database."""
    size = len(source.encode("utf-8"))
    if size > settings.max_source_bytes:
        return ContestRuleError(413, f"source is {size} bytes; the limit is {settings.max_source_bytes}")
    if not source.strip():
        return ContestRuleError(422, "source is empty")
    if "\x00" in source:
        return ContestRuleError(422, "source contains a NUL character")
    return None


def accept_submission(
    session: Session,
    settings: Settings,
    user: User,
    *,
    problem: str,
    language: str,
    source: str,
    contest_id: int | None = None,
    now: datetime | None = None,
) -> Submission:
    """Queue ``user``'s ``source`` in ``language`` for ``problem`` (a problem id, or a letter when
    ``contest_id`` is given) and return the new submission (committed).

    Raises ContestRuleError: 404 unknown or hidden problem or contest; 403 with the reason outside the
    contest's window, for a non-participant, or for practice on a running contest's problem; 422
    bad language, blank source or a NUL character; 413 source over ``settings.max_source_bytes``;
    429 (``RateLimited``, with the seconds to wait) when a student submits too often. A refused
    submission changes nothing.
    """
    now = now or utcnow()
    target = rules.submission_target(session, user, problem, contest_id, now)
    check_language(session, language)
    refusal = source_refusal(settings, source)
    if refusal is not None:
        raise refusal
    rules.take_submission_slot(session, user, settings.submit_interval_s, now)
    submission = lifecycle.enqueue(
        session,
        problem=target.problem,
        language=language,
        source=source,
        user_id=user.id,
        contest_id=target.contest.id if target.contest else None,
        is_jury=target.is_jury,
        now=now,
    )
    session.commit()
    return submission


@dataclass(frozen=True)
class SubmitRequest:
    """One submission as the API receives it: the caller's bearer ``token`` (not yet checked), then
    ``accept_submission``'s arguments."""

    token: str
    problem: str
    language: str
    source: str
    contest_id: int | None = None


Outcome = int | None | Exception  # a submission's id, None for a token not live, or its refusal


def accept_by_token(
    session: Session,
    settings: Settings,
    token: str,
    *,
    problem: str,
    language: str,
    source: str,
    contest_id: int | None = None,
    now: datetime | None = None,
) -> int | None:
    """Queue a submission of the owner of bearer ``token`` as ``accept_submission`` does (the same
    rules, the same refusals) and return its id (committed); None when ``token`` is not live
    (unknown, expired, ended) or its account is deactivated: nothing was stored then.

    ``accept_batch`` of this one submission. Raises ContestRuleError as ``accept_submission``.
    """
    request = SubmitRequest(token, problem, language, source, contest_id)
    (outcome,) = accept_batch(session, settings, [request], now)
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def accept_batch(
    session: Session, settings: Settings, requests: Sequence[SubmitRequest], now: datetime | None = None
) -> list[Outcome]:
    """Queue each of ``requests`` as ``accept_by_token`` would, and return their outcomes in order:
    the new submission's id (committed), None for a token that is not live, or the exception that
    refused it (ContestRuleError as ``accept_submission``).

    Every submission that breaks no rule is taken by two statements (see the module docstring) in
    one transaction shared by the whole batch, so the batch pays one commit (one fsync on SQLite,
    one WAL flush on PostgreSQL) and takes SQLite's writer lock once; nothing is answered before
    that commit. A submission after the first written one runs inside a savepoint, so one that the
    statements leave to the rules is undone alone. Those left to the rules are then decided one
    by one by ``accept_submission``, each in its own transaction, after the batch is committed (a
    student's second submission in one batch thus gets the rate limit's 429).

    An OperationalError (a busy or lost database) while the batch is written refuses the whole
    batch with that error: nothing of it was stored. Any other error while it is written rolls it
    back and each submission is then decided alone.
    """
    now = now or utcnow()
    outcomes: list[Outcome | None] = [None] * len(requests)
    left = list(range(len(requests)))
    try:
        left = _take_batch(session, settings, requests, now, outcomes)
    except OperationalError as exc:
        session.rollback()
        return [exc] * len(requests)
    except Exception:
        session.rollback()
        outcomes = [None] * len(requests)  # ids set before the error were rolled back with it
    for index in left:
        outcomes[index] = _by_the_rules(session, settings, requests[index], now)
    return outcomes


def _take_batch(
    session: Session, settings: Settings, requests: Sequence[SubmitRequest], now: datetime, outcomes: list
) -> list[int]:
    """Write every submission of ``requests`` that ``_take`` takes, set its id in ``outcomes`` and
    commit; the indexes of the others (nothing of them written), in order."""
    left, cells = [], []
    written = False  # a submission is written: a later one needs a savepoint to be undone alone
    for index, request in enumerate(requests):
        if request.language not in LANGUAGES or source_refusal(settings, request.source) is not None:
            left.append(index)
            continue
        connection = session.connection()  # Core execution: these statements need nothing of the ORM
        if written:  # never released: the commit ends them all, and a rollback goes to the newest
            connection.exec_driver_sql(f"SAVEPOINT {_SAVEPOINT}")
        taken = _take(connection, settings, request, now)
        if taken is None:
            if written:
                connection.exec_driver_sql(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
            else:
                session.rollback()
            left.append(index)
            continue
        written, (outcomes[index], cell) = True, taken
        if cell is not None:
            cells.append(cell)
    if written:
        if cells:  # a pending attempt shows on the board at once
            board.refresh(session, cells)
        session.commit()
    else:
        session.rollback()
    return left


_SAVEPOINT = "submission"


def _take(
    connection: Connection, settings: Settings, request: SubmitRequest, now: datetime
) -> tuple[int, board.CellKey | None] | None:
    """Run the two statements of the usual case for ``request`` (not committed): the new
    submission's id and the board cell it shows in (None in practice or for the jury); None when
    they took nothing (the slot's UPDATE may have been written: the caller undoes it)."""
    interval_s = settings.submit_interval_s
    slot = {**token_parameters(request.token), "now": now}
    slot["free_since"] = now - timedelta(seconds=max(interval_s, 0))
    taken = connection.execute(slot_statement(interval_s > 0), slot).first()
    if taken is None:
        return None
    user_id, jury, contest_id = taken[0], taken[1] in JURY_ROLES, request.contest_id
    parameters = lifecycle.enqueue_parameters(
        language=request.language,
        source=request.source,
        user_id=user_id,
        contest_id=contest_id,
        is_jury=jury,
        now=now,
    )
    parameters |= {"problem": request.problem, "letter": request.problem.upper()}
    parameters |= {"offered": _offered(request.language), "now": now, "alive_since": now - WORKER_ALIVE}
    queued = connection.execute(target_statement(contest_id is not None, jury), parameters).first()
    if queued is None:
        return None
    cell = (contest_id, user_id, queued[1]) if contest_id is not None and not jury else None
    return queued[0], cell


def _by_the_rules(session: Session, settings: Settings, request: SubmitRequest, now: datetime) -> Outcome:
    """``request`` decided alone by ``accept_submission`` in its own transaction: its id, None for a
    token that is not live, or the exception that refused it."""
    try:
        user = user_for_token(session, request.token)
        if user is None:
            session.rollback()
            return None
        arguments = {"problem": request.problem, "language": request.language, "source": request.source}
        return accept_submission(session, settings, user, contest_id=request.contest_id, now=now, **arguments).id
    except Exception as exc:
        session.rollback()
        return exc


@cache
def slot_statement(limited: bool) -> ReturningUpdate[int, str]:
    """The UPDATE by which the active owner of a live token (``judge.auth.token_owner``) takes its
    submission slot, returning its (id, role); no row when the token is not live, the account
    inactive or the slot not free. ``limited``: a student's slot is free when its last submission
    was made at the parameter ``free_since`` or earlier, and taking it sets that time to ``now``; a
    teacher's or an admin's is always free and its time left as it is. Without ``limited`` the
    UPDATE changes nothing and only checks the token."""
    jury = one_of(User.role, JURY_ROLES)
    last = User.last_submission_at
    free = or_(jury, last.is_(None), last <= bindparam("free_since")) if limited else true()
    taken_at = case((jury, last), else_=bindparam("now", type_=UtcDateTime)) if limited else last
    return (
        update(User)
        .where(User.id == token_owner(), User.active.is_(True), free)
        .values(last_submission_at=taken_at)
        .returning(User.id, User.role)
        .execution_options(synchronize_session=False)
    )


@cache
def target_statement(to_contest: bool, jury: bool) -> ReturningInsert[int, str]:
    """The ``INSERT … SELECT`` (``judge.lifecycle.enqueue_where``) that queues a submission only if
    ``fast_target`` and ``language_live`` hold; parameters as ``enqueue_where``'s plus ``now``,
    ``problem`` (the problem id), ``letter`` (in a contest: ``problem`` in upper case), ``offered``
    (``_offered`` of the language) and ``alive_since``."""
    return lifecycle.enqueue_where(fast_target(to_contest, jury).where(language_live()))


def fast_target(to_contest: bool, jury: bool) -> Select[str, str]:
    """SELECT of the (id, package hash) of the problem a submission goes to, under conditions never
    more lenient than ``judge.contests.submission_target``, for a submission by the user of the
    parameter ``user_id`` (a teacher or an admin when ``jury``, else a student), to the contest of
    the parameter ``contest_id`` when ``to_contest``. The problem is loaded, and: in practice, the
    parameter ``problem`` is its id and, for a student, it is in no contest that has not ended (which
    covers both the hidden problems of contests yet to start and the practice lock of running ones,
    and leaves every such case to the rules); in a contest, it is the contest's problem under the
    parameter ``letter`` and, for a student, the contest is not archived, the student takes part and
    ``now`` is in its window."""
    chosen = select(Problem.id, Problem.package_sha256).where(Problem.archived.is_(False))
    now = bindparam("now", type_=UtcDateTime)
    if not to_contest:
        chosen = chosen.where(Problem.id == bindparam("problem"))
        if jury:
            return chosen
        contested = (
            select(ContestProblem.problem_id)
            .join(Contest, Contest.id == ContestProblem.contest_id)
            .where(ContestProblem.problem_id == Problem.id, Contest.end_at > now)
        )
        return chosen.where(~contested.exists())
    chosen = (
        chosen.join(ContestProblem, ContestProblem.problem_id == Problem.id)
        .join(Contest, Contest.id == ContestProblem.contest_id)
        .where(Contest.id == bindparam("contest_id", type_=Integer), ContestProblem.letter == bindparam("letter"))
    )
    if jury:
        return chosen
    window = and_(Contest.start_at <= now, Contest.end_at > now, Contest.archived.is_(False))
    return chosen.where(window, rules.takes_part_in(bindparam("user_id", type_=Integer), Role.STUDENT))
