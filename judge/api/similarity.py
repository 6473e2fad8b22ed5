"""Similarity of submitted sources for the jury: who handed in the same program. Only a contest's jury
(its teacher, an admin) compares a contest's; any teacher compares the submissions it may see of
the students it names; a student gets 403 (404 for a contest it cannot see). The comparison is
``judge.similarity``'s (copydetect); the teacher's pages and the CLI call the same functions."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel
from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import similarity
from judge.api.errors import answers
from judge.api.lookups import jury_contest, viewable_submission
from judge.auth import current_user, db_session, jury_user, named_any
from judge.models import Contest, Problem, Submission, User
from judge.schemas import PathId, UtcStamp, storable

router = APIRouter(prefix="/api/v1", tags=["similarity"])
MAX_PAIRS = 1000


class SourceOut(BaseModel):
    """One compared submission: its id, author, language, verdict (null while judging), time, contest."""

    submission: int
    user: str
    display_name: str
    language: str
    verdict: str | None
    created_at: UtcStamp
    contest: int | None


class PairOut(BaseModel):
    """Two sources of one language family: ``score`` = the larger of ``similarity_first`` (the
    fraction of the first's fingerprinted code found in the second, 0..1) and ``similarity_second``."""

    score: float
    family: str
    similarity_first: float
    similarity_second: float
    first: SourceOut
    second: SourceOut


class SimilarityOut(BaseModel):
    """A problem's ranked pairs, highest score first; ``sources``: how many were compared (each
    student's latest AC submission, else their latest: ``judge.similarity``)."""

    problem: str
    letter: str | None
    sources: int
    pairs: list[PairOut]


class SegmentOut(BaseModel):
    """A stretch of a source's text; ``matched``: it lies in a region the other source shares."""

    text: str
    matched: bool


class SideOut(BaseModel):
    """One side of the side-by-side view: the submission and its text cut into stretches."""

    source: SourceOut
    segments: list[SegmentOut]


class MatchOut(BaseModel):
    """Two submissions side by side with their shared regions marked."""

    score: float
    family: str
    similarity_first: float
    similarity_second: float
    first: SideOut
    second: SideOut


def _source(session: Session, row: Submission) -> SourceOut:
    author = session.get(User, row.user_id) if row.user_id else None
    return SourceOut(
        submission=row.id,
        user=author.name if author else "",
        display_name=author.display_name if author else "",
        language=row.language,
        verdict=row.verdict,
        created_at=row.created_at,
        contest=row.contest_id,
    )


def _ranked(session: Session, problem: Problem, rows: list[Submission], work_dir: Path, limit: int) -> list[PairOut]:
    documents = [similarity.Document(r.id, r.language, r.source) for r in rows]
    try:
        pairs = similarity.rank_pairs(documents, similarity.problem_template(session, problem, work_dir / "packages"))
    except similarity.TooManySources as exc:
        raise HTTPException(422, str(exc)) from exc
    shown = {r.id: _source(session, r) for r in rows}
    return [
        PairOut(
            score=p.score,
            family=p.family,
            similarity_first=p.similarity_first,
            similarity_second=p.similarity_second,
            first=shown[p.first],
            second=shown[p.second],
        )
        for p in pairs[:limit]
    ]


def contest_similarity(session: Session, contest: Contest, letter: str, work_dir: Path, limit: int) -> SimilarityOut:
    """The ranked pairs of one contest problem (by letter or id) among the contest's submissions; 404
    for a problem the contest does not have."""
    entry = rules.contest_problem(contest, letter)
    if entry is None:
        raise HTTPException(404, f"contest {contest.id} has no problem {letter[:64]!r}")
    problem = session.get(Problem, entry.problem_id)
    assert problem is not None  # a contest problem's row exists: the foreign key
    rows = similarity.latest_sources(session, problem.id, Submission.contest_id == contest.id)
    return SimilarityOut(
        problem=problem.id,
        letter=entry.letter,
        sources=len(rows),
        pairs=_ranked(session, problem, rows, work_dir, limit),
    )


def problem_similarity(
    session: Session, problem_id: str, names: list[str], work_dir: Path, limit: int, *seen: ColumnElement[bool]
) -> SimilarityOut:
    """The ranked pairs of ``problem_id`` among the submissions matching ``seen`` (the API: those the
    caller may see, ``judge.contests.viewable_submissions``) of the students named (every student
    when none are); 404 for an unknown problem or user."""
    problem = session.get(Problem, problem_id) if storable(problem_id) else None
    if problem is None:
        raise HTTPException(404, f"no problem {problem_id[:64]!r}")
    conditions = list(seen)
    if names:
        selected = select(User.name, User.id).where(named_any(filter(storable, names)))
        found = {name.lower(): user_id for name, user_id in session.execute(selected).all()}
        missing = [n for n in names if n.lower() not in found]
        if missing:
            raise HTTPException(404, f"no user {missing[0][:64]!r}")
        conditions.append(Submission.user_id.in_(list(found.values())))
    rows = similarity.latest_sources(session, problem.id, *conditions)
    return SimilarityOut(
        problem=problem.id, letter=None, sources=len(rows), pairs=_ranked(session, problem, rows, work_dir, limit)
    )


def pair_view(session: Session, user: User, first_id: int, second_id: int, work_dir: Path) -> MatchOut:
    """Two submissions ``user`` may see side by side (404 for one it may not see; 422 for two
    problems or two language families)."""
    a, b = viewable_submission(session, user, first_id), viewable_submission(session, user, second_id)
    if a.problem_id != b.problem_id:
        raise HTTPException(422, f"submissions {a.id} and {b.id} are to different problems")
    problem = session.get(Problem, a.problem_id)
    assert problem is not None  # the foreign key
    try:
        pair, left, right = similarity.matching_regions(
            similarity.Document(a.id, a.language, a.source),
            similarity.Document(b.id, b.language, b.source),
            similarity.problem_template(session, problem, work_dir / "packages"),
        )
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc

    def side(row: Submission, segments: list[similarity.Segment]) -> SideOut:
        return SideOut(
            source=_source(session, row), segments=[SegmentOut(text=s.text, matched=s.matched) for s in segments]
        )

    return MatchOut(
        score=pair.score,
        family=pair.family,
        similarity_first=pair.similarity_first,
        similarity_second=pair.similarity_second,
        first=side(a, left),
        second=side(b, right),
    )


Limit = Query(100, ge=1, le=MAX_PAIRS, description="pairs returned, highest score first")


@router.get("/contests/{contest_id}/similarity", response_model=SimilarityOut, responses=answers(403, 404, 422))
def get_contest_similarity(
    request: Request,
    contest_id: PathId,
    problem: str = Query(..., max_length=64, description="the problem's letter (or id) in the contest"),
    limit: int = Limit,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """The contest problem's pairs of students' sources, most similar first (the contest's jury)."""
    contest = jury_contest(session, user, contest_id)
    return contest_similarity(session, contest, problem, request.app.state.settings.work_dir, limit)


@router.get("/problems/{problem_id}/similarity", response_model=SimilarityOut, responses=answers(403, 404, 422))
def get_problem_similarity(
    request: Request,
    problem_id: str,
    users: str = Query("", max_length=10000, description="comma-separated user names (empty: every student)"),
    limit: int = Limit,
    user: User = Depends(jury_user),
    session: Session = Depends(db_session),
):
    """Any problem's pairs among the named students' sources that the caller may see (teachers)."""
    names = [n.strip() for n in users.split(",") if n.strip()]
    work_dir = request.app.state.settings.work_dir
    return problem_similarity(session, problem_id, names, work_dir, limit, rules.viewable_submissions(user))


@router.get("/similarity/{first_id}/{second_id}", response_model=MatchOut, responses=answers(403, 404, 422))
def get_pair(
    request: Request,
    first_id: PathId,
    second_id: PathId,
    user: User = Depends(jury_user),
    session: Session = Depends(db_session),
):
    """Two submissions side by side, the regions they share marked (teachers; each one visible to them)."""
    return pair_view(session, user, first_id, second_id, request.app.state.settings.work_dir)
