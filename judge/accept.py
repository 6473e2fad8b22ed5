"""Accepting a submission: every rule a new submission passes before it joins the queue, in one
function that the API and the browser pages both call.

The rules, in order: the target (problem visible to the user; for a contest, its window and
participants; a practice submission to a problem of a running contest refused), the language (known,
and judged by a live worker when any worker is alive), the source (at most ``max_source_bytes``, not
blank, no NUL character), then the student's rate limit. Each refusal is a ``ContestRuleError`` with
its HTTP status and a one-line reason.

``accept_submission`` applies them one by one to a known user and says which one refuses.
``accept_by_token`` is the API's way in: a submission that breaks no rule, which is nearly every
one, is taken in two statements and a commit, with no lookup of its own for the token: one UPDATE
of the user row that checks the token (``judge.auth.token_owner``), the account and the rate limit
and takes the slot, then one ``INSERT … SELECT`` whose WHERE clause holds the target and language
rules as SQL conditions (``fast_target``). Those conditions are never more lenient than the rules:
where they find no row (a refusal, or a case they leave to the rules, such as practice on a problem
of a contest that has not ended), the transaction is rolled back and ``accept_submission`` decides,
with its exact reason.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import ColumnElement, Integer, Select, and_, bindparam, case, cast, exists, or_, select, true, update
from sqlalchemy import String as SqlString
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert, ReturningUpdate

from judge import board, lifecycle
from judge import contests as rules
from judge.auth import JURY_ROLES, token_owner, token_parameters, user_for_token
from judge.clock import UtcDateTime, utcnow
from judge.config import Settings
from judge.contests import ContestRuleError
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

    The usual case takes two statements (see the module docstring), each built once per process
    and shape (``slot_statement``, ``target_statement``); any other falls back to
    ``accept_submission`` in a new transaction. Raises ContestRuleError as ``accept_submission``.
    """
    now = now or utcnow()
    if language in LANGUAGES and source_refusal(settings, source) is None:
        interval_s = settings.submit_interval_s
        slot = {**token_parameters(token), "now": now, "free_since": now - timedelta(seconds=max(interval_s, 0))}
        connection = session.connection()  # Core execution: these statements need nothing of the ORM
        taken = connection.execute(slot_statement(interval_s > 0), slot).first()
        if taken is not None:
            user_id, jury = taken[0], taken[1] in JURY_ROLES
            parameters = lifecycle.enqueue_parameters(
                language=language, source=source, user_id=user_id, contest_id=contest_id, is_jury=jury, now=now
            )
            parameters |= {"problem": problem, "letter": problem.upper(), "offered": _offered(language)}
            parameters |= {"now": now, "alive_since": now - WORKER_ALIVE}
            queued = connection.execute(target_statement(contest_id is not None, jury), parameters).first()
            if queued is not None:
                if contest_id is not None and not jury:  # a pending attempt shows on the board at once
                    board.refresh(session, [(contest_id, user_id, queued[1])])
                session.commit()
                return queued[0]
        session.rollback()
    user = user_for_token(session, token)
    if user is None:
        return None
    accepted = accept_submission(
        session, settings, user, problem=problem, language=language, source=source, contest_id=contest_id, now=now
    )
    return accepted.id


@cache
def slot_statement(limited: bool) -> ReturningUpdate[int, str]:
    """The UPDATE by which the active owner of a live token (``judge.auth.token_owner``) takes its
    submission slot, returning its (id, role); no row when the token is not live, the account
    inactive or the slot not free. ``limited``: a student's slot is free when its last submission
    was made at the parameter ``free_since`` or earlier, and taking it sets that time to ``now``; a
    teacher's or an admin's is always free and its time left as it is. Without ``limited`` the
    UPDATE changes nothing and only checks the token."""
    jury = User.role.in_(JURY_ROLES)
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
