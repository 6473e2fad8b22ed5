"""``/api/v1/contests``: list, create, read, change, archive and delete contests, lift the freeze,
list a contest's submissions and rejudge them. The rules themselves are ``judge.contests``' (the CLI applies the
same ones), the request bodies ``judge.contest_bodies``' (the teacher's contest form reads the same ones);
scoreboards and live events are in ``judge.api.scoreboards`` and ``judge.api.events``."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Response
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.api.errors import answers
from judge.api.lookups import jury_contest, visible_contest
from judge.api.submissions import RejudgeOut, SubmissionSummary, summaries
from judge.auth import current_user, db_session, jury_user
from judge.clock import utcnow
from judge.contest_bodies import ContestIn, ContestPatch, apply_changes, contest_spec
from judge.models import Contest, Problem, SchoolClass, Submission, User
from judge.schemas import PathId, RequestBody, Text, UtcStamp
from judge.scoring import problem_points

router = APIRouter(prefix="/api/v1", tags=["contests"])


class ContestProblemOut(BaseModel):
    """A contest problem: letter, problem id (for ``GET /api/v1/problems/{id}``), name, IOI points."""

    letter: str
    problem: str
    name: str
    points: int


class ContestOut(BaseModel):
    """A contest. ``phase``: before / running / over; ``frozen``: the public board hides verdicts now.
    Students see the problems only once the contest has started (``judge.contests.problems_shown``);
    For the jury: ``participants``, the students named one by one, and ``classes``, the classes taking
    part (both null: every student takes part); ``archived``: seen by its jury only."""

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
    classes: list[ClassRef] | None
    archived: bool


class ClassRef(BaseModel):
    """A class taking part in a contest: its id and name."""

    id: int
    name: str


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
        ContestProblemOut(letter=p.letter, problem=p.problem_id, name=names[p.problem_id], points=problem_points(p))
        for p in shown
    ]
    listed, classes = None, None
    if jury and not contest.all_students:
        listed = rules.named_participants(session, contest)
        ids = rules.contest_class_ids(session, contest)
        rows = session.scalars(select(SchoolClass).where(SchoolClass.id.in_(ids)).order_by(SchoolClass.name))
        classes = [ClassRef(id=c.id, name=c.name) for c in rows]
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
        classes=classes,
        archived=contest.archived,
    )


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
    apply_changes(session, contest, body, user)
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
    rules.edit_contest(session, contest, {"unfrozen": True}, utcnow(), user)
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
