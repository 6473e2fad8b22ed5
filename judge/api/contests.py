"""``/api/v1/contests``: list, create, read, change, archive and delete contests, lift the freeze,
list a contest's submissions and rejudge them. The rules themselves are ``judge.contests``' (the CLI applies the
same ones); scoreboards and live events are in ``judge.api.scoreboards`` and ``judge.api.events``."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, HTTPException, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.api.errors import answers
from judge.api.lookups import jury_contest, visible_contest
from judge.api.submissions import RejudgeOut, SubmissionSummary, summaries
from judge.auth import current_user, db_session, jury_user
from judge.clock import utcnow
from judge.contests import ProblemEntry
from judge.models import Contest, Problem, Submission, User
from judge.schemas import (
    MAX_CONTEST_PROBLEMS,
    MAX_PARTICIPANTS,
    MAX_PENALTY_MINUTES,
    MAX_POINTS,
    PathId,
    RequestBody,
    Text,
    UtcStamp,
    UtcTime,
)

router = APIRouter(prefix="/api/v1", tags=["contests"])


class ContestProblemIn(RequestBody):
    """A contest problem: the problem id, its letter (default: by position, A, B, …), IOI points (100)."""

    problem: Text = Field(min_length=1, max_length=64)
    letter: Text | None = Field(default=None, max_length=8)
    points: int | None = Field(default=None, gt=0, le=MAX_POINTS)


class ContestPatch(RequestBody):
    """Changes to a contest; fields left out stay, an unknown field is refused (422), and null only
    means something for ``participants`` (every student takes part) and ``freeze_at`` (no freeze).
    Times are ISO 8601 (without a zone: UTC); penalty in minutes. Moving ``end_at`` moves the freeze
    with it (the last N minutes stay frozen) unless ``freeze_at`` is sent too. ``unfrozen`` true lifts
    the freeze once the contest is over, false puts it back; ``archived`` true hides the contest from
    everyone but its jury and closes it to submissions."""

    name: Text | None = Field(default=None, min_length=1, max_length=200)
    start_at: UtcTime | None = None
    end_at: UtcTime | None = None
    freeze_at: UtcTime | None = None
    scoring: Literal["icpc", "ioi"] | None = None
    problems: list[ContestProblemIn] | None = Field(default=None, min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    participants: list[Text] | None = Field(default=None, max_length=MAX_PARTICIPANTS)
    scoreboard_visibility: Literal["public", "participants", "jury"] | None = None
    show_test_details: bool | None = None
    penalty_minutes: int | None = Field(default=None, ge=0, le=MAX_PENALTY_MINUTES)
    unfrozen: bool | None = None
    archived: bool | None = None


class ContestIn(ContestPatch):
    """A new contest: name, window, problems (required), the rest as in ``ContestPatch``."""

    name: Text = Field(min_length=1, max_length=200)
    start_at: UtcTime
    end_at: UtcTime
    problems: list[ContestProblemIn] = Field(min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    scoring: Literal["icpc", "ioi"] = "icpc"  # Literal types: the values of Scoring and Visibility
    scoreboard_visibility: Literal["public", "participants", "jury"] = "participants"
    show_test_details: bool = False
    penalty_minutes: int = Field(default=20, ge=0, le=MAX_PENALTY_MINUTES)
    unfrozen: None = Field(default=None, description="not for a new contest")
    archived: None = Field(default=None, description="not for a new contest")


class ContestProblemOut(BaseModel):
    """A contest problem: letter, problem id (for ``GET /api/v1/problems/{id}``), name, IOI points."""

    letter: str
    problem: str
    name: str
    points: int


class ContestOut(BaseModel):
    """A contest. ``phase``: before / running / over; ``frozen``: the public board hides verdicts now.
    Students see the problems only once the contest has started (``judge.contests.problems_shown``);
    ``participants`` is for the jury (null: every student); ``archived``: seen by its jury only."""

    id: int
    name: str
    scoring: str
    start_at: UtcStamp
    end_at: UtcStamp
    freeze_at: UtcStamp | None
    unfrozen: bool
    phase: str
    frozen: bool
    scoreboard_visibility: str
    show_test_details: bool
    penalty_minutes: int
    owner: str | None
    problems: list[ContestProblemOut]
    participants: list[str] | None
    archived: bool


class RejudgeIn(RequestBody):
    """What to rejudge in a contest: one problem (letter) or all, optionally only non-AC submissions."""

    problem: Text | None = None
    only_non_ac: bool = False


def contest_out(session: Session, contest: Contest, viewer: User | None) -> ContestOut:
    """The API view of ``contest`` for ``viewer`` (problems hidden from non-jury before the start)."""
    now = utcnow()
    jury = rules.is_contest_jury(viewer, contest)
    names = dict(session.execute(select(Problem.id, Problem.name)).all())
    shown = contest.problems if rules.problems_shown(contest, jury, now) else []
    problems = [  # a contest problem's row exists: the foreign key
        ContestProblemOut(
            letter=p.letter, problem=p.problem_id, name=names[p.problem_id], points=rules.problem_points(p)
        )
        for p in shown
    ]
    listed = None
    if jury and not contest.all_students:
        listed = sorted(u.name for u in rules.participants(session, contest))
    phase = "before" if now < contest.start_at else "running" if now < contest.end_at else "over"
    frozen = contest.freeze_at is not None and not contest.unfrozen and now >= contest.freeze_at
    owner = session.get(User, contest.owner_id) if contest.owner_id else None
    return ContestOut(
        id=contest.id,
        name=contest.name,
        scoring=contest.scoring,
        start_at=contest.start_at,
        end_at=contest.end_at,
        freeze_at=contest.freeze_at,
        unfrozen=contest.unfrozen,
        phase=phase,
        frozen=frozen,
        scoreboard_visibility=contest.scoreboard_visibility,
        show_test_details=contest.show_test_details,
        penalty_minutes=contest.penalty_minutes,
        owner=owner.name if owner else None,
        problems=problems,
        participants=listed,
        archived=contest.archived,
    )


def _entries(problems: list[ContestProblemIn]) -> list[ProblemEntry]:
    auto = rules.letters_for([p.problem for p in problems])
    return [ProblemEntry(p.letter or a.letter, p.problem, p.points) for p, a in zip(problems, auto)]


def contest_spec(body: ContestIn) -> rules.ContestSpec:
    """The ``judge.contests.ContestSpec`` of a validated new contest (letters A, B, … where none is given)."""
    return rules.ContestSpec(
        name=body.name,
        start_at=body.start_at,
        end_at=body.end_at,
        freeze_at=body.freeze_at,
        problems=_entries(body.problems),
        scoring=body.scoring,
        participants=body.participants,
        scoreboard_visibility=body.scoreboard_visibility,
        show_test_details=body.show_test_details,
        penalty_minutes=body.penalty_minutes,
    )


def apply_changes(session: Session, contest: Contest, body: ContestPatch) -> None:
    """Change ``contest`` by the fields sent in ``body`` through ``judge.contests.edit_contest``, the
    one rule for edits (committed; ContestRuleError 404/409/422 with nothing changed)."""
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    if changes.get("problems") is not None:
        changes["problems"] = _entries(body.problems or [])
    rules.edit_contest(session, contest, changes, utcnow())


@router.get("/contests", response_model=list[ContestOut])
def list_contests(user: User = Depends(current_user), session: Session = Depends(db_session)):
    """The contests the caller takes part in or judges."""
    return [contest_out(session, c, user) for c in rules.contests_for(session, user)]


@router.post("/contests", status_code=201, response_model=ContestOut, responses=answers(404))
def add_contest(body: ContestIn, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Create a contest owned by the caller (404 unknown problem or participant, 422 bad times)."""
    return contest_out(session, rules.create_contest(session, contest_spec(body), owner=user), user)


@router.get("/contests/{contest_id}", response_model=ContestOut)
def get_contest(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """A contest: window, freeze, scoring, and its problems once it has started."""
    return contest_out(session, visible_contest(session, user, contest_id), user)


@router.patch("/contests/{contest_id}", response_model=ContestOut, responses=answers(403))
def change_contest(
    contest_id: PathId, body: ContestPatch, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Change a contest (its jury): only the fields sent change, by the rules of
    ``judge.contests.edit_contest`` (422 invalid result, 409 unfreezing a contest that is not over)."""
    contest = jury_contest(session, user, contest_id)
    apply_changes(session, contest, body)
    return contest_out(session, contest, user)


@router.delete("/contests/{contest_id}", status_code=204, responses=answers(403, 404, 409))
def delete_contest(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Delete a contest without submissions (its jury); 409 when it has some: archive it instead."""
    rules.delete_contest(session, jury_contest(session, user, contest_id))
    return Response(status_code=204)


@router.post("/contests/{contest_id}/unfreeze", response_model=ContestOut, responses=answers(403, 409))
def unfreeze(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Reveal the frozen verdicts on the public scoreboard (the contest's jury), once the contest is
    over (409 before; ``PATCH`` with ``unfrozen`` false freezes it again)."""
    contest = jury_contest(session, user, contest_id)
    rules.edit_contest(session, contest, {"unfrozen": True}, utcnow())
    return contest_out(session, contest, user)


@router.get("/contests/{contest_id}/submissions", response_model=list[SubmissionSummary])
def contest_submissions(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """The contest's submissions: all of them for the jury, the caller's own for anyone else."""
    contest = visible_contest(session, user, contest_id)
    query = select(Submission).where(Submission.contest_id == contest.id).order_by(Submission.id)
    if not rules.is_contest_jury(user, contest):
        query = query.where(Submission.user_id == user.id)
    return summaries(session, list(session.scalars(query)))


@router.post("/contests/{contest_id}/rejudge", response_model=RejudgeOut, responses=answers(403))
def rejudge_contest(
    contest_id: PathId, body: RejudgeIn, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Rejudge a contest's submissions, or one problem's (letter), optionally only those not AC."""
    contest = jury_contest(session, user, contest_id)
    problem_id = None
    if body.problem is not None:
        entry = rules.contest_problem(contest, body.problem)
        if entry is None:
            raise HTTPException(404, f"contest {contest_id} has no problem {body.problem!r}")
        problem_id = entry.problem_id
    return RejudgeOut(
        rejudged=lifecycle.rejudge(session, contest_id=contest.id, problem_id=problem_id, only_non_ac=body.only_non_ac)
    )
