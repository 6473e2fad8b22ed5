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

from sqlalchemy import ColumnElement, Select, and_, case, cast, exists, or_, select, true, update
from sqlalchemy import String as SqlString
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.auth import JURY_ROLES, token_owner, user_for_token
from judge.clock import utcnow
from judge.config import Settings
from judge.contests import ContestRuleError
from judge.languages import LANGUAGES
from judge.models import Contest, ContestProblem, Problem, Submission, User, Worker

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


def language_live(language: str, now: datetime) -> ColumnElement[bool]:
    """SQL condition: ``language`` is judged by a live worker, or no worker is alive (``live_languages``
    as one condition; the language list is matched as JSON text, ``"id"`` quoted, wildcards escaped)."""
    alive = Worker.last_heartbeat >= now - WORKER_ALIVE
    offers = cast(Worker.languages, SqlString).contains(f'"{language}"', autoescape=True)
    return or_(~exists().where(alive), exists().where(alive, offers))


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

    The usual case takes two statements (see the module docstring); any other falls back to
    ``accept_submission`` in a new transaction. Raises ContestRuleError as ``accept_submission``.
    """
    now = now or utcnow()
    if language in LANGUAGES and source_refusal(settings, source) is None:
        taken = _take_slot(session, settings, token, now)
        if taken is not None:
            user_id, role = taken
            jury = role in JURY_ROLES
            submission_id = lifecycle.enqueue_where(
                session,
                problems=fast_target(user_id, role, problem, contest_id, now).where(language_live(language, now)),
                language=language,
                source=source,
                user_id=user_id,
                contest_id=contest_id,
                is_jury=jury,
                now=now,
            )
            if submission_id is not None:
                session.commit()
                return submission_id
        session.rollback()
    user = user_for_token(session, token)
    if user is None:
        return None
    accepted = accept_submission(
        session, settings, user, problem=problem, language=language, source=source, contest_id=contest_id, now=now
    )
    return accepted.id


def _take_slot(session: Session, settings: Settings, token: str, now: datetime) -> tuple[int, str] | None:
    """In one UPDATE: the live ``token``'s active owner takes its submission slot (a student whose
    last submission is ``submit_interval_s`` old or more; a teacher or an admin always, its time left
    as it is). Its (id, role), or None when the token is not live, the account inactive or the slot
    not free (not committed)."""
    jury = User.role.in_(JURY_ROLES)
    limited = settings.submit_interval_s > 0
    threshold = now - timedelta(seconds=settings.submit_interval_s)
    free = or_(jury, User.last_submission_at.is_(None), User.last_submission_at <= threshold) if limited else true()
    statement = (
        update(User)
        .where(User.id == token_owner(token, now), User.active.is_(True), free)
        .values(
            last_submission_at=case((jury, User.last_submission_at), else_=now) if limited else User.last_submission_at
        )
        .returning(User.id, User.role)
        .execution_options(synchronize_session=False)
    )
    row = session.execute(statement).first()
    return (row[0], row[1]) if row else None


def fast_target(user_id: int, role: str, problem: str, contest_id: int | None, now: datetime) -> Select[str, str]:
    """SELECT of the (id, package hash) of the problem a submission of user ``user_id`` (``role``)
    goes to, under conditions never more lenient than ``judge.contests.submission_target``: the
    problem is loaded; in practice, for a student, it is in no contest that has not ended (which
    covers both the hidden problems of contests yet to start and the practice lock of running ones,
    and leaves every such case to the rules); in a contest, ``problem`` is a letter of it and, for a
    student, the contest is not archived, the student takes part and ``now`` is in its window."""
    chosen = select(Problem.id, Problem.package_sha256).where(Problem.archived.is_(False))
    jury = role in JURY_ROLES
    if contest_id is None:
        chosen = chosen.where(Problem.id == problem)
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
        .where(Contest.id == contest_id, ContestProblem.letter == problem.upper())
    )
    if jury:
        return chosen
    window = and_(Contest.start_at <= now, Contest.end_at > now, Contest.archived.is_(False))
    return chosen.where(window, rules.takes_part_in(user_id, role))
