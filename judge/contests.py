"""Contest rules: creating and changing contests, who takes part, who may submit when, what each
user may see of a submission or a problem, the per-user rate limit, and rejudging.

Every rule reads the database only, so any number of API hosts apply the same rules. Times are UTC
without tzinfo, like every time in ``judge.models``.

Roles (``judge.auth``): a contest's jury is every admin and the teacher who owns it. Students take
part when the contest is open to all students or lists them as participants.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import ColumnElement, CursorResult, delete, or_, select, update
from sqlalchemy.orm import Session

from judge.auth import ADMIN, STUDENT, is_jury
from judge.models import Contest, ContestParticipant, ContestProblem, Problem, Submission, TestResult, User
from judge.queue import REJUDGE
from judge.scoring import DEFAULT_POINTS, SCORING_MODES
from judge.verdicts import AC, MLE, OLE, RTE, TLE

LETTER = re.compile(r"^[A-Z][A-Z0-9]{0,7}$")
VISIBILITIES = ("public", "participants", "jury")
# what a viewer sees of a submission's tests: everything, secret-test details, or secret verdicts only
JURY_VIEW, DETAILS_VIEW, VERDICTS_VIEW = "jury", "details", "verdicts"
RESOURCE_VERDICTS = (TLE, MLE, OLE, RTE)  # their reasons quote counters, never test data


class ContestRuleError(Exception):
    """A request a contest rule refuses: the HTTP ``status`` and a one-line reason."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class RateLimited(ContestRuleError):
    """A submission sooner than the rate limit allows; ``retry_after_s`` whole seconds to wait."""

    def __init__(self, retry_after_s: int):
        super().__init__(429, f"one submission every so often: try again in {retry_after_s} s")
        self.retry_after_s = retry_after_s


def to_utc(moment: datetime) -> datetime:
    """``moment`` as naive UTC (an aware time is converted; a naive one is taken as UTC already)."""
    if moment.tzinfo is not None:
        return moment.astimezone(UTC).replace(tzinfo=None)
    return moment


# -- creating and changing contests ----------------------------------------------------------------
@dataclass
class ProblemEntry:
    """A problem of a contest: its ``letter``, the problem id, and its IOI ``points`` (None: 100)."""

    letter: str
    problem_id: str
    points: int | None = None


@dataclass
class ContestSpec:
    """Everything that defines a contest; ``participants`` None means every student takes part."""

    name: str
    start_at: datetime
    end_at: datetime
    problems: list[ProblemEntry]
    freeze_at: datetime | None = None
    scoring: str = "icpc"
    participants: list[str] | None = None
    scoreboard_visibility: str = "participants"
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
        if points and not (points.isdigit() and int(points) > 0):
            raise ContestRuleError(422, f"points of {problem_id}: a positive integer, not {points!r}")
        letter = chr(ord("A") + i) if i < 26 else f"Z{i - 25}"
        entries.append(ProblemEntry(letter, problem_id, int(points) if points else None))
    return entries


def check_contest(contest: Contest) -> None:
    """Raise ContestRuleError (422) unless start < end, the freeze lies in the window, and the
    scoring mode, visibility and penalty are known values."""
    if contest.start_at >= contest.end_at:
        raise ContestRuleError(422, "the contest must end after it starts")
    if contest.freeze_at is not None and not contest.start_at <= contest.freeze_at <= contest.end_at:
        raise ContestRuleError(422, "the freeze time must lie between start and end")
    if contest.scoring not in SCORING_MODES:
        raise ContestRuleError(422, f"scoring {contest.scoring!r}: one of {', '.join(SCORING_MODES)}")
    if contest.scoreboard_visibility not in VISIBILITIES:
        raise ContestRuleError(
            422, f"scoreboard visibility {contest.scoreboard_visibility!r}: one of {', '.join(VISIBILITIES)}"
        )
    if contest.penalty_minutes < 0:
        raise ContestRuleError(422, "the penalty cannot be negative")


def set_problems(session: Session, contest: Contest, entries: list[ProblemEntry]) -> None:
    """Replace the contest's problems (flushed). Raises ContestRuleError: 404 for an unknown problem,
    422 for a bad or repeated letter, a repeated problem, or points that are not positive."""
    letters = [e.letter.upper() for e in entries]
    if len(set(letters)) != len(letters) or len({e.problem_id for e in entries}) != len(entries):
        raise ContestRuleError(422, "each letter and each problem may appear once")
    for entry, letter in zip(entries, letters):
        if not LETTER.match(letter):
            raise ContestRuleError(422, f"letter {entry.letter!r}: A-Z, then up to 7 letters or digits")
        if session.get(Problem, entry.problem_id) is None:
            raise ContestRuleError(404, f"no problem {entry.problem_id!r}")
        if entry.points is not None and entry.points <= 0:
            raise ContestRuleError(422, f"points of {letter} must be positive")
    contest.problems.clear()
    session.flush()
    contest.problems.extend(
        ContestProblem(letter=letter, problem_id=e.problem_id, points=e.points) for e, letter in zip(entries, letters)
    )
    session.flush()


def set_participants(session: Session, contest: Contest, names: list[str] | None) -> None:
    """Open the contest to every student (``names`` None) or to exactly these users (flushed).

    Raises ContestRuleError (404) naming the first unknown user.
    """
    session.execute(delete(ContestParticipant).where(ContestParticipant.contest_id == contest.id))
    contest.all_students = names is None
    if names is not None:
        users = {u.name: u for u in session.scalars(select(User).where(User.name.in_(names)))}
        missing = [n for n in names if n not in users]
        if missing:
            raise ContestRuleError(404, f"no user {missing[0]!r}")
        session.add_all(ContestParticipant(contest_id=contest.id, user_id=users[n].id) for n in dict.fromkeys(names))
    session.flush()


def create_contest(session: Session, spec: ContestSpec, owner: User | None = None) -> Contest:
    """Create a contest from ``spec`` (committed); ``owner`` (else ``spec.owner`` by name) is its teacher.

    Raises ContestRuleError (404 unknown problem, user or owner; 422 invalid times or values).
    """
    if owner is None and spec.owner is not None:
        owner = session.scalar(select(User).where(User.name == spec.owner))
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
    set_participants(session, contest, spec.participants)
    session.commit()
    return contest


def contest_problem(contest: Contest, letter_or_id: str) -> ContestProblem | None:
    """The contest's problem with this letter (any case), or else with this problem id."""
    for entry in contest.problems:
        if entry.letter == letter_or_id.upper():
            return entry
    return next((e for e in contest.problems if e.problem_id == letter_or_id), None)


def problem_points(entry: ContestProblem) -> int:
    """The IOI maximum of a contest problem (100 unless set)."""
    return entry.points if entry.points is not None else DEFAULT_POINTS


# -- who is who ---------------------------------------------------------------------------------------
def is_contest_jury(user: User | None, contest: Contest) -> bool:
    """Admins, and the teacher who owns the contest."""
    return user is not None and (user.role == ADMIN or (is_jury(user) and user.id == contest.owner_id))


def is_participant(session: Session, contest: Contest, user: User | None) -> bool:
    """Whether ``user`` takes part (a student when the contest is open to all, else a listed user)."""
    if user is None:
        return False
    if contest.all_students and user.role == STUDENT:
        return True
    return session.get(ContestParticipant, (contest.id, user.id)) is not None


def on_scoreboard(contest: Contest):
    """SQL condition on ``User``: takes part in ``contest`` or has a non-jury submission to it (an
    EXISTS per user, answered from the submissions' scoreboard index)."""
    if contest.all_students:
        listed = User.role == STUDENT
    else:
        listed = User.id.in_(select(ContestParticipant.user_id).where(ContestParticipant.contest_id == contest.id))
    submitted = (
        select(Submission.id)
        .where(Submission.contest_id == contest.id, Submission.user_id == User.id, Submission.is_jury.is_(False))
        .exists()
    )
    return or_(listed, submitted)


def participants(session: Session, contest: Contest) -> list[User]:
    """The users on the scoreboard (``on_scoreboard``), sorted by display name then name."""
    return list(session.scalars(select(User).where(on_scoreboard(contest)).order_by(User.display_name, User.name)))


def contests_for(session: Session, user: User) -> list[Contest]:
    """The contests ``user`` may see: all for an admin; owned ones for a teacher, plus those it takes
    part in; for a student, those it takes part in."""
    rows = session.scalars(select(Contest).order_by(Contest.start_at, Contest.id)).all()
    return [c for c in rows if is_contest_jury(user, c) or is_participant(session, c, user)]


def scoreboard_access(session: Session, user: User | None, contest: Contest) -> str | None:
    """How ``user`` may see the contest's scoreboard: ``jury`` (live), ``public`` (frozen view), or
    None (not at all) under the contest's ``scoreboard_visibility``."""
    if is_contest_jury(user, contest):
        return "jury"
    if contest.scoreboard_visibility == "public":
        return "public"
    if contest.scoreboard_visibility == "participants" and is_participant(session, contest, user):
        return "public"
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

    Raises ContestRuleError: 404 unknown contest or problem (or a problem hidden from the user);
    403 with the reason for a student who does not take part, or outside ``[start, end)``.
    Teachers and admins may always submit: their submissions are marked jury.
    """
    if contest_id is None:
        row = session.get(Problem, problem)
        if row is None or not problem_visible(session, user, problem, now):
            raise ContestRuleError(404, f"no problem {problem!r}")
        running = None if is_jury(user) else running_contest_of(session, problem, now)
        if running is not None:  # a practice verdict would carry no penalty, even under the freeze
            raise ContestRuleError(
                403,
                f"problem {problem!r} is in a running contest: submit it there, or as practice after the contest ends",
            )
        return SubmissionTarget(row, None, is_jury(user))
    contest = session.get(Contest, contest_id)
    if contest is None:
        raise ContestRuleError(404, f"no contest {contest_id}")
    entry = contest_problem(contest, problem)
    if entry is None:
        raise ContestRuleError(404, f"contest {contest_id} has no problem {problem!r}")
    row = session.get(Problem, entry.problem_id)
    assert row is not None  # a contest problem is a foreign key to problems
    if is_jury(user):
        return SubmissionTarget(row, contest, True)
    if not is_participant(session, contest, user):
        raise ContestRuleError(403, f"you do not take part in contest {contest.id} ({contest.name})")
    if now < contest.start_at:
        raise ContestRuleError(
            403, f"contest {contest.id} has not started: it starts at {contest.start_at:%Y-%m-%d %H:%M:%S} UTC"
        )
    if now >= contest.end_at:
        raise ContestRuleError(403, f"contest {contest.id} is over: it ended at {contest.end_at:%Y-%m-%d %H:%M:%S} UTC")
    return SubmissionTarget(row, contest, False)


def running_contest_of(session: Session, problem_id: str, now: datetime) -> int | None:
    """The id of a contest running at ``now`` (start <= now < end) that has ``problem_id``, or None."""
    return session.scalar(
        select(Contest.id)
        .join(ContestProblem, ContestProblem.contest_id == Contest.id)
        .where(ContestProblem.problem_id == problem_id, Contest.start_at <= now, Contest.end_at > now)
        .limit(1)
    )


def take_submission_slot(session: Session, user: User, interval_s: float, now: datetime) -> None:
    """Apply the per-user rate limit: a student may submit once every ``interval_s`` seconds.

    Atomic (a conditional UPDATE of the user's ``last_submission_at``, not committed: the caller
    commits it with the new submission, so a refused submission costs no slot). Teachers and admins
    are not limited. Raises RateLimited with the seconds to wait.
    """
    if interval_s <= 0 or is_jury(user):
        return
    threshold = now - timedelta(seconds=interval_s)
    updated = session.execute(
        update(User)
        .where(User.id == user.id, or_(User.last_submission_at.is_(None), User.last_submission_at <= threshold))
        .values(last_submission_at=now)
        .execution_options(synchronize_session=False)
    )
    taken = cast(CursorResult, updated).rowcount  # an UPDATE's result is a CursorResult
    if taken != 1:
        last = session.scalar(select(User.last_submission_at).where(User.id == user.id)) or now
        raise RateLimited(max(1, math.ceil(interval_s - (now - last).total_seconds())))


# -- what a user may see ------------------------------------------------------------------------------
def problem_visible(session: Session, user: User | None, problem_id: str, now: datetime) -> bool:
    """A problem statement is public unless it belongs only to contests that have not started yet;
    teachers and admins see every problem."""
    return is_jury(user) or problem_id not in hidden_problem_ids(session, now)


def hidden_problem_ids(session: Session, now: datetime) -> set[str]:
    """Ids of problems used by a contest that has not started and by no contest that has."""
    rows = session.execute(
        select(ContestProblem.problem_id, Contest.start_at).join(Contest, Contest.id == ContestProblem.contest_id)
    ).all()
    future = {p for p, start in rows if start > now}
    return future - {p for p, start in rows if start <= now}


def can_view_submission(session: Session, user: User, submission: Submission) -> bool:
    """Its author, an admin, the jury of its contest, and for practice submissions any teacher."""
    if submission.user_id == user.id or user.role == ADMIN:
        return True
    if submission.contest_id is None:
        return is_jury(user)
    contest = session.get(Contest, submission.contest_id)
    return contest is not None and is_contest_jury(user, contest)


def detail_level(session: Session, user: User, submission: Submission) -> str:
    """How much of the tests ``user`` (who may view ``submission``) sees: ``jury`` everything;
    ``details`` secret tests' names, times and resource reasons (the contest allows it);
    ``verdicts`` only the verdict of each secret test."""
    if is_jury(user):
        return JURY_VIEW
    contest = session.get(Contest, submission.contest_id) if submission.contest_id else None
    return DETAILS_VIEW if contest is not None and contest.show_test_details else VERDICTS_VIEW


def shown_whole(result: TestResult, level: str) -> bool:
    """Whether a viewer at ``level`` sees all of a test result (its name, times, checker message and
    feedback): samples for everyone (their data is in the statement), every test for the jury."""
    return result.test_group == "sample" or level == JURY_VIEW


def shown_test(result: TestResult, level: str) -> dict:
    """The fields of one test result a viewer at ``level`` may see, as a dict (hidden ones None).

    Samples are shown whole (their data is in the statement). A secret test's checker message is
    for the jury only: it may quote the judge answer or the input.
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
    }
    if shown_whole(result, level):
        return shown
    if level == DETAILS_VIEW:
        return shown | {"message": result.message if result.verdict in RESOURCE_VERDICTS else None}
    return shown | {
        "test": f"{result.test_group}/{result.ordinal}",
        "time_ms": None,
        "wall_ms": None,
        "memory_kib": None,
        "message": None,
    }


# -- rejudging ----------------------------------------------------------------------------------------
REJUDGE_RESET = dict(
    status="queued",
    verdict=None,
    compile_message=None,
    judge_message=None,
    time_ms=None,
    memory_kib=None,
    tests_passed=None,
    tests_total=None,
    worker_id=None,
    lease_expires_at=None,
    started_at=None,
    finished_at=None,
    priority=REJUDGE,
)  # rejudges wait behind live contest and practice submissions


def rejudge(
    session: Session,
    *,
    submission_id: int | None = None,
    contest_id: int | None = None,
    problem_id: str | None = None,
    only_non_ac: bool = False,
) -> list[int]:
    """Put the matching submissions back in the queue; returns their ids (committed).

    Only ``done`` and ``judging`` submissions move (queued ones are waiting already). ``attempt`` is
    kept: the next claim increments it, so the new judging's test results are kept apart from the old
    ones, and a worker still judging the old attempt is fenced off (``judge.queue.holds`` needs
    ``status = judging``): its late writes are discarded.
    """
    conditions: list[ColumnElement[bool]] = [Submission.status.in_(("done", "judging"))]
    if submission_id is not None:
        conditions.append(Submission.id == submission_id)
    if contest_id is not None:
        conditions.append(Submission.contest_id == contest_id)
    if problem_id is not None:
        conditions.append(Submission.problem_id == problem_id)
    if only_non_ac:
        conditions.append(or_(Submission.verdict.is_(None), Submission.verdict != AC))
    ids = [
        row[0]
        for row in session.execute(
            update(Submission)
            .where(*conditions)
            .values(**REJUDGE_RESET)
            .returning(Submission.id)
            .execution_options(synchronize_session=False)
        )
    ]
    session.commit()
    return sorted(ids)


def parse_when(text: str, now: datetime) -> datetime:
    """A time typed at the command line, as naive UTC: ``now``, ``+90m`` / ``+2h`` / ``+1d`` from
    ``now``, or ISO 8601 (``2026-12-01T09:00``; without a zone it is the machine's local time).

    Raises ValueError for anything else.
    """
    text = text.strip()
    if text == "now":
        return now
    relative = re.fullmatch(r"\+(\d+)([mhd])", text)
    if relative:
        unit = {"m": "minutes", "h": "hours", "d": "days"}[relative.group(2)]
        return now + timedelta(**{unit: int(relative.group(1))})
    moment = datetime.fromisoformat(text)
    return to_utc(moment if moment.tzinfo else moment.astimezone())
