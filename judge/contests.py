"""Contest rules: creating and changing contests, who takes part, who may submit when, what each
user may see of a submission or a problem, and the per-user rate limit.

Every rule reads the database only, so any number of API hosts apply the same rules. Times are UTC
(``judge.clock``).

Roles (``judge.auth``): a contest's jury is every admin and the teacher who owns it. Students take
part when the contest is open to all students, or lists them by name, or lists a class they are in
(``judge.classes``; the class as it is at each moment). A contest is open to all students when it
lists neither names nor classes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, and_, delete, false, literal, or_, select, true, update
from sqlalchemy.orm import Session

from judge import board
from judge.auth import is_jury, named_any, same_name
from judge.board import in_window
from judge.classes import classes_seen, sees_user, users_seen
from judge.clock import to_utc
from judge.models import (
    ClassMember,
    Contest,
    ContestClass,
    ContestParticipant,
    ContestProblem,
    Problem,
    SchoolClass,
    Submission,
    TestResult,
    User,
)
from judge.package.testdata import is_sample_group
from judge.schemas import MAX_POINTS, whole_number
from judge.throttle import with_wait
from judge.verdicts import MLE, OLE, RTE, TLE
from judge.vocabulary import DetailLevel, Role, ScoreboardView, Scoring, Visibility

LETTER = re.compile(r"^[A-Z][A-Z0-9]{0,7}$")
RESOURCE_VERDICTS = (TLE, MLE, OLE, RTE)  # their reasons quote counters, never test data


class ContestRuleError(Exception):
    """A request a contest rule refuses: the HTTP ``status`` and a one-line reason."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class LocalTimeError(ValueError):
    """A local time the machine's zone skips or repeats (a daylight-saving change); the message says
    which and gives the offsets to write instead."""


class RateLimited(ContestRuleError):
    """A submission sooner than the rate limit allows: ``retry_after_s`` whole seconds to wait, the
    one-line ``reason`` (the rule: "one submission every 10 s"), and the ``message`` of both
    (``judge.throttle.with_wait``)."""

    def __init__(self, retry_after_s: int, reason: str):
        super().__init__(429, with_wait(reason, retry_after_s))
        self.reason, self.retry_after_s = reason, retry_after_s


# -- creating and changing contests ----------------------------------------------------------------
@dataclass
class ProblemEntry:
    """A problem of a contest: its ``letter``, the problem id, and its IOI ``points`` (None: 100)."""

    letter: str
    problem_id: str
    points: int | None = None


@dataclass
class ContestSpec:
    """Everything that defines a contest; ``participants`` (user names) and ``classes`` (class ids)
    both None or empty means every student takes part."""

    name: str
    start_at: datetime
    end_at: datetime
    problems: list[ProblemEntry]
    freeze_at: datetime | None = None
    scoring: str = Scoring.ICPC
    participants: list[str] | None = None
    classes: list[int] | None = None
    scoreboard_visibility: str = Visibility.PARTICIPANTS
    show_test_details: bool = False
    penalty_minutes: int = 20
    owner: str | None = None


def letters_for(problem_ids: list[str]) -> list[ProblemEntry]:
    """Entries A, B, C, … for ``problem_ids`` in order; an id may carry points as ``id:points``.

    Raises ContestRuleError (422) for points that are not a positive integer.
    """
    entries = []
    for i, item in enumerate(problem_ids):
        problem_id, _, points = item.strip().partition(":")
        number = whole_number(points, MAX_POINTS)
        if points and not number:
            raise ContestRuleError(
                422, f"points of {problem_id}: a positive integer, at most {MAX_POINTS} points, not {points[:20]!r}"
            )
        letter = chr(ord("A") + i) if i < 26 else f"Z{i - 25}"
        entries.append(ProblemEntry(letter, problem_id, number))
    return entries


def check_contest(contest: Contest, now: datetime | None = None) -> None:
    """Raise ContestRuleError (422) unless start < end, the freeze lies in the window, the scoring
    mode, visibility and penalty are known values, and (given ``now``, UTC) an unfrozen contest is over.
    """
    if contest.start_at >= contest.end_at:
        raise ContestRuleError(422, "the contest must end after it starts")
    if contest.freeze_at is not None and not contest.start_at <= contest.freeze_at <= contest.end_at:
        raise ContestRuleError(422, "the freeze time must lie between start and end")
    if contest.scoring not in tuple(Scoring):
        raise ContestRuleError(422, f"scoring {contest.scoring!r}: one of {', '.join(Scoring)}")
    if contest.scoreboard_visibility not in tuple(Visibility):
        raise ContestRuleError(
            422, f"scoreboard visibility {contest.scoreboard_visibility!r}: one of {', '.join(Visibility)}"
        )
    if contest.penalty_minutes < 0:
        raise ContestRuleError(422, "the penalty cannot be negative")
    if now is not None and contest.unfrozen and now < contest.end_at:
        raise ContestRuleError(
            422, "an unfrozen contest must be over: send unfrozen false to freeze it again before it runs again"
        )


EDITABLE = (
    "name",
    "start_at",
    "end_at",
    "freeze_at",
    "scoring",
    "problems",
    "participants",
    "classes",
    "scoreboard_visibility",
    "show_test_details",
    "penalty_minutes",
    "unfrozen",
    "archived",
)
NULLABLE = ("freeze_at", "participants", "classes")  # null: no freeze; no names or no classes
REDERIVING = frozenset(("start_at", "end_at", "freeze_at", "scoring", "problems"))  # edits re-deriving its board


def edit_contest(
    session: Session, contest: Contest, changes: dict[str, object], now: datetime, actor: User | None = None
) -> None:
    """Apply ``changes`` (field name to new value, the fields of ``EDITABLE``; ``problems`` a list of
    ProblemEntry) to ``contest`` and commit, or change nothing and raise ContestRuleError.

    Rules: an unknown field, or null for a field other than ``NULLABLE``, is 422. Moving ``end_at``
    moves a freeze that is not itself sent by the same amount: a freeze is "the last N minutes".
    The result must pass ``check_contest`` at ``now`` (so ``unfrozen`` true only once the contest is
    over and has a freeze, ``set_unfrozen``). Scoreboards always count only the submissions made in
    the window as it is (``in_window``), so an edit of the window re-decides what counts.
    ``participants`` and ``classes`` each replace their list and keep the other (``set_participants``,
    with ``actor`` the one making the change: None for the server's command line). The contest's
    kept scoreboard is re-derived in the same transaction after an edit of ``REDERIVING``
    (``judge.board.rebuild``); any other edit bumps its board version.
    Raises 404 for an unknown problem or participant, 422 for invalid values.
    """
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ContestRuleError(422, f"unknown field {unknown[0]!r}; a contest has {', '.join(EDITABLE)}")
    nulls = [name for name, value in changes.items() if value is None and name not in NULLABLE]
    if nulls:
        raise ContestRuleError(422, f"{nulls[0]} cannot be null")
    with session.no_autoflush:
        old_end = contest.end_at
        for name in ("name", "scoring", "scoreboard_visibility", "show_test_details", "penalty_minutes", "archived"):
            if name in changes:
                setattr(contest, name, changes[name])
        for name in ("start_at", "end_at", "freeze_at"):
            if name in changes:
                value = changes[name]
                setattr(contest, name, to_utc(cast(datetime, value)) if value is not None else None)
        if "freeze_at" not in changes and contest.freeze_at is not None:
            contest.freeze_at += contest.end_at - old_end
    try:
        if "unfrozen" in changes:
            set_unfrozen(contest, bool(changes["unfrozen"]), now)
        check_contest(contest, now)
        if "problems" in changes:
            set_problems(session, contest, cast(list[ProblemEntry], changes["problems"]))
        if "participants" in changes or "classes" in changes:
            names = changes["participants"] if "participants" in changes else named_participants(session, contest)
            class_ids = changes["classes"] if "classes" in changes else contest_class_ids(session, contest)
            set_participants(session, contest, cast(list[str] | None, names), cast(list[int] | None, class_ids), actor)
    except ContestRuleError:
        session.rollback()
        raise
    if REDERIVING.intersection(changes):
        board.rebuild(session, contest)
    else:
        board.bump(session, [contest.id])
    session.commit()


def set_unfrozen(contest: Contest, unfrozen: bool, now: datetime) -> None:
    """Lift the freeze (``unfrozen`` true) or put it back (false) on ``contest`` at ``now`` (UTC),
    not committed. Lifting it needs a freeze and a contest that is over (409 otherwise): verdicts
    revealed while it runs could not be hidden again from those who saw them."""
    refusal = unfreeze_refusal(contest, now) if unfrozen else None
    if refusal is not None:
        raise refusal
    contest.unfrozen = unfrozen


def unfreeze_refusal(contest: Contest, now: datetime) -> ContestRuleError | None:
    """Why the freeze of ``contest`` cannot be lifted at ``now`` (UTC), as the 409 ``set_unfrozen``
    raises, or None when it can: the contest has a freeze and is over. Pages offer the unfreeze only then."""
    if contest.freeze_at is None:
        return ContestRuleError(409, f"contest {contest.id} has no freeze")
    if now < contest.end_at:
        return ContestRuleError(
            409, f"contest {contest.id} is not over: unfreeze after it ends at {contest.end_at:%Y-%m-%d %H:%M:%S} UTC"
        )
    return None


def delete_contest(session: Session, contest: Contest) -> None:
    """Delete ``contest`` (committed) when it has no submissions; raises ContestRuleError (409) when it
    has some: archive it instead (``archived``), which keeps the students' work."""
    if session.scalar(select(Submission.id).where(Submission.contest_id == contest.id).limit(1)) is not None:
        raise ContestRuleError(409, f"contest {contest.id} has submissions: archive it instead")
    session.execute(delete(ContestParticipant).where(ContestParticipant.contest_id == contest.id))
    session.execute(delete(ContestClass).where(ContestClass.contest_id == contest.id))
    session.delete(contest)
    session.commit()


def set_problems(session: Session, contest: Contest, entries: list[ProblemEntry]) -> None:
    """Replace the contest's problems (flushed). Raises ContestRuleError: 404 for an unknown problem,
    409 for an unloaded problem the contest did not have already, 422 for a bad or repeated letter,
    a repeated problem, or points that are not positive."""
    letters = [e.letter.upper() for e in entries]
    if len(set(letters)) != len(letters) or len({e.problem_id for e in entries}) != len(entries):
        raise ContestRuleError(422, "each letter and each problem may appear once")
    for entry, letter in zip(entries, letters):
        if not LETTER.match(letter):
            raise ContestRuleError(422, f"letter {entry.letter!r}: A-Z, then up to 7 letters or digits")
        row = session.get(Problem, entry.problem_id)
        if row is None:
            raise ContestRuleError(404, f"no problem {entry.problem_id!r}")
        if row.archived and entry.problem_id not in {p.problem_id for p in contest.problems}:
            raise ContestRuleError(409, f"problem {entry.problem_id!r} is unloaded: load it again to use it")
        if entry.points is not None and entry.points <= 0:
            raise ContestRuleError(422, f"points of {letter} must be positive")
    contest.problems.clear()
    session.flush()
    contest.problems.extend(
        ContestProblem(letter=letter, problem_id=e.problem_id, points=e.points) for e, letter in zip(entries, letters)
    )
    session.flush()


def set_participants(
    session: Session,
    contest: Contest,
    names: list[str] | None,
    class_ids: list[int] | None = None,
    actor: User | None = None,
) -> None:
    """Let exactly these users (``names``) and the students of these classes (``class_ids``) take
    part (flushed). ``names`` None and no classes: every student takes part; an empty ``names`` list
    and no classes: nobody yet.

    ``actor`` (None: the server's command line, which may name anyone) names only accounts and
    classes it sees (``judge.classes``): a teacher its own classes and students, and those the contest
    lists already. Raises ContestRuleError (404) naming the first unknown (or unseen) user or class.
    """
    listed = select(ContestParticipant.user_id).where(ContestParticipant.contest_id == contest.id)
    kept_users, kept_classes = set(session.scalars(listed)), set(contest_class_ids(session, contest))
    session.execute(delete(ContestParticipant).where(ContestParticipant.contest_id == contest.id))
    session.execute(delete(ContestClass).where(ContestClass.contest_id == contest.id))
    class_ids = list(dict.fromkeys(class_ids or []))
    contest.all_students = names is None and not class_ids
    if names:
        seen = or_(users_seen(actor), User.id.in_(kept_users)) if actor is not None else true()
        users = {u.name.lower(): u for u in session.scalars(select(User).where(named_any(names), seen))}
        missing = [n for n in names if n.lower() not in users]
        if missing:
            raise ContestRuleError(404, f"no user {missing[0][:64]!r}")
        user_ids = dict.fromkeys(users[n.lower()].id for n in names)  # Alice and alice: one participant
        session.add_all(ContestParticipant(contest_id=contest.id, user_id=user_id) for user_id in user_ids)
    if class_ids:
        shown = or_(classes_seen(actor), SchoolClass.id.in_(kept_classes)) if actor is not None else true()
        found = set(session.scalars(select(SchoolClass.id).where(SchoolClass.id.in_(class_ids), shown)))
        missing_classes = [c for c in class_ids if c not in found]
        if missing_classes:
            raise ContestRuleError(404, f"no class {missing_classes[0]}")
        session.add_all(ContestClass(contest_id=contest.id, class_id=c) for c in class_ids)
    session.flush()


def named_participants(session: Session, contest: Contest) -> list[str] | None:
    """The names a contest lists one by one, sorted (None when it is open to every student)."""
    if contest.all_students:
        return None
    return sorted(
        session.scalars(
            select(User.name)
            .join(ContestParticipant, ContestParticipant.user_id == User.id)
            .where(ContestParticipant.contest_id == contest.id)
        )
    )


def contest_class_ids(session: Session, contest: Contest) -> list[int]:
    """The ids of the classes taking part in ``contest``, ascending."""
    return sorted(session.scalars(select(ContestClass.class_id).where(ContestClass.contest_id == contest.id)))


def class_students(contest_id: int | Any):
    """SELECT of the ids of the students in the classes taking part in the contest ``contest_id`` (an
    id or a SQL column)."""
    return (
        select(ClassMember.user_id)
        .join(ContestClass, ContestClass.class_id == ClassMember.class_id)
        .where(ContestClass.contest_id == contest_id)
    )


def create_contest(session: Session, spec: ContestSpec, owner: User | None = None) -> Contest:
    """Create a contest from ``spec`` (committed); ``owner`` (else ``spec.owner`` by name) is its teacher.
    An ``owner`` given as a user is also the one creating it: it names only the participants and
    classes it sees (``set_participants``); ``spec.owner`` is the command line's, which may name any.

    Raises ContestRuleError (404 unknown problem, user or owner; 422 invalid times or values).
    """
    actor = owner
    if owner is None and spec.owner is not None:
        owner = session.scalar(select(User).where(same_name(spec.owner)))
        if owner is None:
            raise ContestRuleError(404, f"no user {spec.owner!r}")
    contest = Contest(
        name=spec.name,
        scoring=spec.scoring,
        start_at=to_utc(spec.start_at),
        end_at=to_utc(spec.end_at),
        freeze_at=to_utc(spec.freeze_at) if spec.freeze_at else None,
        scoreboard_visibility=spec.scoreboard_visibility,
        show_test_details=spec.show_test_details,
        penalty_minutes=spec.penalty_minutes,
        owner_id=owner.id if owner else None,
        unfrozen=False,
    )
    check_contest(contest)
    session.add(contest)
    session.flush()
    set_problems(session, contest, spec.problems)
    set_participants(session, contest, spec.participants, spec.classes, actor)
    session.commit()
    return contest


def contest_problem(contest: Contest, letter_or_id: str) -> ContestProblem | None:
    """The contest's problem with this letter (any case), or else with this problem id."""
    for entry in contest.problems:
        if entry.letter == letter_or_id.upper():
            return entry
    return next((e for e in contest.problems if e.problem_id == letter_or_id), None)


# -- who is who ---------------------------------------------------------------------------------------
def is_contest_jury(user: User | None, contest: Contest) -> bool:
    """Admins, and the teacher who owns the contest."""
    return user is not None and (user.role == Role.ADMIN or (is_jury(user) and user.id == contest.owner_id))


def is_participant(session: Session, contest: Contest, user: User | None) -> bool:
    """Whether ``user`` takes part (a student when the contest is open to all, else a listed user or
    a student of a listed class)."""
    if user is None:
        return False
    if contest.all_students and user.role == Role.STUDENT:
        return True
    if session.get(ContestParticipant, (contest.id, user.id)) is not None:
        return True
    return session.scalar(class_students(contest.id).where(ClassMember.user_id == user.id).limit(1)) is not None


def on_scoreboard(contest: Contest) -> ColumnElement[bool]:
    """SQL condition on ``User``: takes part in ``contest`` or has a non-jury submission to it in its
    window (an EXISTS per user, answered from the submissions' scoreboard index)."""
    if contest.all_students:
        listed = User.role == Role.STUDENT
    else:
        named = select(ContestParticipant.user_id).where(ContestParticipant.contest_id == contest.id)
        listed = or_(User.id.in_(named), User.id.in_(class_students(contest.id)))
    submitted = (
        select(Submission.id)
        .where(
            Submission.contest_id == contest.id,
            Submission.user_id == User.id,
            Submission.is_jury.is_(False),
            *in_window(contest),
        )
        .exists()
    )
    return or_(listed, submitted)


def participants(session: Session, contest: Contest) -> list[User]:
    """The users on the scoreboard (``on_scoreboard``), sorted by display name then name."""
    return list(session.scalars(select(User).where(on_scoreboard(contest)).order_by(User.display_name, User.name)))


def contests_for(session: Session, user: User) -> list[Contest]:
    """The contests ``user`` may see: all for an admin; owned ones for a teacher, plus those it takes
    part in; for a student, those it takes part in. An archived contest only for its jury."""
    rows = session.scalars(select(Contest).order_by(Contest.start_at, Contest.id)).all()
    return [c for c in rows if is_contest_jury(user, c) or (not c.archived and is_participant(session, c, user))]


def contest_visible(session: Session, user: User | None, contest: Contest) -> bool:
    """Whether ``user`` may know ``contest`` exists: its jury; while it is not archived, its
    participants and, when its scoreboard is public, anyone."""
    if is_contest_jury(user, contest):
        return True
    return not contest.archived and (
        scoreboard_access(session, user, contest) is not None or is_participant(session, contest, user)
    )


def problems_shown(contest: Contest, jury: bool, now: datetime) -> bool:
    """Whether a viewer sees the contest's problems (letters, names, points) at ``now`` (UTC): the
    jury always, everyone else from the start on. The contest page, its scoreboard (JSON, CSV, event
    stream, command line) and a refused submission all follow this."""
    return jury or now >= contest.start_at


def scoreboard_access(session: Session, user: User | None, contest: Contest) -> ScoreboardView | None:
    """How ``user`` may see the contest's scoreboard: ``jury`` (live), ``public`` (frozen view), or
    None (not at all) under the contest's ``scoreboard_visibility``; an archived contest's only by its jury."""
    if is_contest_jury(user, contest):
        return ScoreboardView.JURY
    if contest.archived:
        return None
    if contest.scoreboard_visibility == Visibility.PUBLIC:
        return ScoreboardView.PUBLIC
    if contest.scoreboard_visibility == Visibility.PARTICIPANTS and is_participant(session, contest, user):
        return ScoreboardView.PUBLIC
    return None


# -- submitting -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SubmissionTarget:
    """Where a submission goes: the problem row, its contest (or None for practice), and whether it
    is a jury submission (kept off the scoreboard)."""

    problem: Problem
    contest: Contest | None
    is_jury: bool


def submission_target(
    session: Session, user: User, problem: str, contest_id: int | None, now: datetime
) -> SubmissionTarget:
    """Resolve a submission of ``user`` to ``problem`` (a letter when ``contest_id`` is given, else a
    problem id) at ``now`` (UTC).

    Raises ContestRuleError: 404 unknown contest or problem (or a problem or contest hidden from the
    user, ``contest_visible``); 403 with the reason for a student who sees the contest but does not
    take part, or outside ``[start, end)``: these come before the letter is looked at, so a refusal
    tells nothing of the contest's problems, and only the contest's id is named. Teachers and admins
    may always submit: their submissions are marked jury. 409 for an unloaded problem (``Problem.archived``),
    in practice and in contests alike (a student is told 404 in practice: the problem is hidden).
    """
    if contest_id is None:
        row = session.get(Problem, problem)
        if row is None or not problem_visible(session, user, problem, now):
            raise ContestRuleError(404, f"no problem {problem!r}")
        refuse_unloaded(row)
        running = None if is_jury(user) else running_contest_of(session, problem, now, user)
        if running is not None:  # a practice verdict would carry no penalty, even under the freeze
            raise ContestRuleError(
                403,
                f"problem {problem!r} is in a running contest ({running}): submit it there (contest {running}, "
                "by the problem's letter), or as practice after the contest ends",
            )
        return SubmissionTarget(row, None, is_jury(user))
    contest = session.get(Contest, contest_id)
    if contest is None:
        raise ContestRuleError(404, f"no contest {contest_id}")
    if not is_jury(user):  # who may submit and when, before the letter: a refusal tells nothing of the problems
        if not contest_visible(session, user, contest):
            raise ContestRuleError(404, f"no contest {contest_id}")
        if not is_participant(session, contest, user):
            raise ContestRuleError(403, f"you do not take part in contest {contest.id}")
        if now < contest.start_at:
            raise ContestRuleError(
                403, f"contest {contest.id} has not started: it starts at {contest.start_at:%Y-%m-%d %H:%M:%S} UTC"
            )
        if now >= contest.end_at:
            raise ContestRuleError(
                403, f"contest {contest.id} is over: it ended at {contest.end_at:%Y-%m-%d %H:%M:%S} UTC"
            )
    entry = contest_problem(contest, problem)
    if entry is None:
        raise ContestRuleError(404, f"contest {contest_id} has no problem {problem!r}")
    row = session.get(Problem, entry.problem_id)
    if row is None:  # the foreign key forbids it; a deleted problem row would be a judge fault
        raise ContestRuleError(404, f"no problem {entry.problem_id!r}")
    refuse_unloaded(row)
    return SubmissionTarget(row, contest, is_jury(user))


def refuse_unloaded(row: Problem) -> None:
    """Raise ContestRuleError (409) when problem ``row`` is unloaded: it takes no submission."""
    if row.archived:
        raise ContestRuleError(409, f"problem {row.id!r} is unloaded: it takes no submissions")


def running_contest_of(session: Session, problem_id: str, now: datetime, user: User | None = None) -> int | None:
    """The id of a contest running at ``now`` (start <= now < end), not archived, that has ``problem_id``
    and (given ``user``) in which ``user`` takes part (``is_participant``), or None."""
    takes_part = true() if user is None else takes_part_in(user.id, user.role)
    return session.scalar(
        select(Contest.id)
        .join(ContestProblem, ContestProblem.contest_id == Contest.id)
        .where(
            ContestProblem.problem_id == problem_id,
            Contest.start_at <= now,
            Contest.end_at > now,
            Contest.archived.is_(False),
            takes_part,
        )
        .limit(1)
    )


def takes_part_in(user_id: int | ColumnElement[int], role: str) -> ColumnElement[bool]:
    """SQL condition on ``Contest``: the user ``user_id`` (an id, or a SQL expression such as a bound
    parameter) of ``role`` takes part (``is_participant`` in one condition: open to all students and
    a student, or named, or in a listed class)."""
    named = select(ContestParticipant.user_id).where(ContestParticipant.contest_id == Contest.id)
    user = literal(user_id) if isinstance(user_id, int) else user_id
    return or_(
        and_(Contest.all_students.is_(True), true() if role == Role.STUDENT else false()),
        user.in_(named),
        user.in_(class_students(Contest.id)),
    )


def package_change_refusal(session: Session, user: User, problem_id: str, now: datetime) -> str | None:
    """Why ``user`` may not replace or unload the package of ``problem_id`` at ``now``, or None when
    it may: a teacher may not while a contest that it does not judge (``is_contest_jury``), not
    archived and not ended, has the problem, since that would change the contest under its jury; an
    admin always may."""
    if user.role == Role.ADMIN:
        return None
    others = session.scalar(
        select(Contest.id)
        .join(ContestProblem, ContestProblem.contest_id == Contest.id)
        .where(
            ContestProblem.problem_id == problem_id,
            Contest.end_at > now,
            Contest.archived.is_(False),
            or_(Contest.owner_id.is_(None), Contest.owner_id != user.id),
        )
        .limit(1)
    )
    if others is None:
        return None
    return f"problem {problem_id!r} is in another teacher's contest that has not ended: only an admin may change it now"


def take_submission_slot(session: Session, user: User, interval_s: float, now: datetime) -> None:
    """Apply the per-user rate limit: a student may submit once every ``interval_s`` seconds.

    Atomic (a conditional UPDATE of the user's ``last_submission_at``, not committed: the caller
    commits it with the new submission, so a refused submission costs no slot). Teachers and admins
    are not limited. Raises RateLimited with the seconds to wait.
    """
    if interval_s <= 0 or is_jury(user):
        return
    threshold = now - timedelta(seconds=interval_s)
    taken = cast(
        CursorResult,
        session.execute(
            update(User)
            .where(User.id == user.id, or_(User.last_submission_at.is_(None), User.last_submission_at <= threshold))
            .values(last_submission_at=now)
            .execution_options(synchronize_session=False)
        ),
    ).rowcount
    if taken != 1:
        last = session.scalar(select(User.last_submission_at).where(User.id == user.id)) or now
        wait_s = max(1, math.ceil(interval_s - (now - last).total_seconds()))
        raise RateLimited(wait_s, f"one submission every {interval_s:g} s")


# -- what a user may see ------------------------------------------------------------------------------
def problem_visible(session: Session, user: User | None, problem_id: str, now: datetime) -> bool:
    """A problem statement is public unless it belongs only to contests that have not started yet,
    or it is unloaded (``Problem.archived``); teachers and admins see every problem."""
    if is_jury(user):
        return True
    if session.scalar(select(Problem.archived).where(Problem.id == problem_id)):
        return False
    return problem_id not in hidden_problem_ids(session, now)


def listed_problems(session: Session, user: User | None, now: datetime) -> list[Problem]:
    """The problems a problem list shows ``user``, by id: those ``problem_visible`` to them, less the
    unloaded ones (for everyone: a teacher reaches an unloaded problem by its id)."""
    rows = session.scalars(select(Problem).where(Problem.archived.is_(False)).order_by(Problem.id)).all()
    hidden = set() if is_jury(user) else hidden_problem_ids(session, now)
    return [row for row in rows if row.id not in hidden]


def hidden_problem_ids(session: Session, now: datetime) -> set[str]:
    """Ids of problems used by a contest that has not started and by no contest that has."""
    rows = session.execute(
        select(ContestProblem.problem_id, Contest.start_at).join(Contest, Contest.id == ContestProblem.contest_id)
    ).all()
    future = {p for p, start in rows if start > now}
    return future - {p for p, start in rows if start <= now}


def can_view_submission(session: Session, user: User, submission: Submission) -> bool:
    """Its author, an admin, the jury of its contest, and for practice submissions a teacher who sees
    its author (``judge.classes.users_seen``: its students, or a student in no class)."""
    if submission.user_id == user.id or user.role == Role.ADMIN:
        return True
    if submission.contest_id is None:
        author = session.get(User, submission.user_id) if submission.user_id is not None else None
        return is_jury(user) and author is not None and sees_user(session, user, author)
    contest = session.get(Contest, submission.contest_id)
    return contest is not None and is_contest_jury(user, contest)


def viewable_submissions(user: User) -> ColumnElement[bool]:
    """SQL condition on ``Submission``: the submissions ``can_view_submission`` lets ``user`` see."""
    if user.role == Role.ADMIN:
        return true()
    own = Submission.user_id == user.id
    if not is_jury(user):
        return own
    judged = Submission.contest_id.in_(select(Contest.id).where(Contest.owner_id == user.id))
    practice = and_(Submission.contest_id.is_(None), Submission.user_id.in_(select(User.id).where(users_seen(user))))
    return or_(own, practice, judged)


def detail_level(session: Session, user: User | None, submission: Submission) -> DetailLevel:
    """How much of the tests ``user`` (who may view ``submission``; None: anyone, the public) sees: ``jury`` everything;
    ``details`` secret tests' names, times and resource reasons (the contest allows it);
    ``verdicts`` only the verdict of each secret test."""
    if is_jury(user):
        return DetailLevel.JURY
    contest = session.get(Contest, submission.contest_id) if submission.contest_id else None
    return DetailLevel.DETAILS if contest is not None and contest.show_test_details else DetailLevel.VERDICTS


def shown_whole(result: TestResult, level: DetailLevel) -> bool:
    """Whether a viewer at ``level`` sees all of a test result (its name, times, checker message and
    feedback): samples for everyone (their data is in the statement), every test for the jury."""
    return is_sample_group(result.test_group) or level == DetailLevel.JURY


def shown_test(result: TestResult, level: DetailLevel) -> dict[str, object]:
    """The fields of one test result a viewer at ``level`` may see, as a dict (hidden ones None).

    Samples are shown whole (their data is in the statement). A secret test's checker message and
    feedback (the picture's data) are for the jury only: they may quote the judge answer or the input.
    """
    shown = {
        "ordinal": result.ordinal,
        "group": result.test_group,
        "verdict": result.verdict,
        "test": result.test_name,
        "time_ms": result.time_ms,
        "wall_ms": result.wall_ms,
        "memory_kib": result.memory_kib,
        "message": result.message,
        "feedback": result.feedback,
    }
    if shown_whole(result, level):
        return shown
    if level == DetailLevel.DETAILS:
        return shown | {"message": result.message if result.verdict in RESOURCE_VERDICTS else None, "feedback": None}
    return shown | {
        "test": f"{result.test_group}/{result.ordinal}",
        "time_ms": None,
        "wall_ms": None,
        "memory_kib": None,
        "message": None,
        "feedback": None,
    }


def shown_figures(
    submission: Submission, results: list[TestResult], level: DetailLevel
) -> tuple[int | None, int | None]:
    """The overall CPU time (ms) and peak memory (KiB) of ``submission`` a viewer at ``level`` may
    see: the stored maxima when every test's figures are shown to it (``shown_test``), else the
    maxima over the tests whose figures it sees (samples), None when it sees none. A maximum over
    hidden tests would carry what their figures hide: a program can spell out a secret input
    through its CPU time."""
    if level != DetailLevel.VERDICTS:
        return submission.time_ms, submission.memory_kib
    shown = [shown_test(r, level) for r in results]
    times = [cast(int, t["time_ms"]) for t in shown if t["time_ms"] is not None]
    memories = [cast(int, t["memory_kib"]) for t in shown if t["memory_kib"] is not None]
    return max(times, default=None), max(memories, default=None)


# -- times typed at the command line -------------------------------------------------------------
def parse_when(text: str, now: datetime) -> datetime:
    """A time typed at the command line, in UTC (timezone-aware): ``now``, ``+90m`` / ``+2h`` / ``+1d`` from
    ``now``, or ISO 8601 (``2026-12-01T09:00``; without a zone it is the machine's local time).

    Raises ValueError for anything else, and LocalTimeError (a ValueError) for a local time that
    does not exist (skipped when the clocks go forward) or is ambiguous (repeated when they go back)
    in the machine's zone: the message asks for an explicit offset.
    """
    text = text.strip()
    if text == "now":
        return now
    relative = re.fullmatch(r"\+(\d+)([mhd])", text)
    if relative:
        unit = {"m": "minutes", "h": "hours", "d": "days"}[relative.group(2)]
        return now + timedelta(**{unit: int(relative.group(1))})
    moment = datetime.fromisoformat(text)
    return to_utc(moment if moment.tzinfo else local_time(moment))


def local_time(moment: datetime) -> datetime:
    """The naive ``moment`` read in the machine's local zone, timezone-aware. Raises LocalTimeError when
    that zone skips it or repeats it (a daylight-saving change): the two readings of ``fold`` differ
    (PEP 495), and a skipped time does not come back from the round trip."""
    first, second = moment.replace(fold=0).astimezone(), moment.replace(fold=1).astimezone()
    if first.utcoffset() == second.utcoffset():
        return first
    if first.replace(tzinfo=None) != moment and second.replace(tzinfo=None) != moment:
        raise LocalTimeError(
            f"{moment:%Y-%m-%d %H:%M} does not exist in the local time zone (the clocks skip it): "
            f"give the offset, e.g. {moment:%Y-%m-%dT%H:%M}{_offset(first)}"
        )
    raise LocalTimeError(
        f"{moment:%Y-%m-%d %H:%M} happens twice in the local time zone (the clocks go back): "
        f"give the offset, {moment:%Y-%m-%dT%H:%M}{_offset(first)} or {moment:%Y-%m-%dT%H:%M}{_offset(second)}"
    )


def _offset(moment: datetime) -> str:
    """``+03:00``: the UTC offset of an aware ``moment``, as ISO 8601 writes it."""
    return moment.isoformat()[-6:]
