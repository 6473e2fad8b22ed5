"""``/api/v1/contests/{id}/scoreboard`` (JSON, CSV) and the teacher's ``grades.csv``. No token needed
for a contest whose scoreboard is public; the jury sees the live board, everyone else the frozen one
after the freeze time."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse
from sqlalchemy.orm import Session

from judge.api.errors import answers
from judge.api.lookups import board_view, jury_contest
from judge.auth import current_user, db_session, optional_user
from judge.exports import grades_csv, scoreboard_csv
from judge.models import User
from judge.schemas import PathId
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import ScoreboardView

router = APIRouter(prefix="/api/v1/contests/{contest_id}", tags=["scoreboards"])


@router.get("/scoreboard")
def scoreboard(contest_id: PathId, user: User | None = Depends(optional_user), session: Session = Depends(db_session)):
    """The scoreboard as JSON: live for the jury, frozen for everyone else after the freeze time.
    No token needed when the contest's scoreboard is public."""
    contest, view = board_view(session, user, contest_id)
    return compute_scoreboard(session, contest, view).to_dict()


class CsvResponse(PlainTextResponse):
    """A CSV text (``text/csv``, UTF-8)."""

    media_type = "text/csv"


@router.get("/scoreboard.csv", response_class=CsvResponse)
def scoreboard_as_csv(
    contest_id: PathId, user: User | None = Depends(optional_user), session: Session = Depends(db_session)
):
    """The scoreboard as CSV (same view rules as the JSON one)."""
    contest, view = board_view(session, user, contest_id)
    return PlainTextResponse(scoreboard_csv(compute_scoreboard(session, contest, view)), media_type="text/csv")


@router.get("/grades.csv", response_class=CsvResponse, responses=answers(403))
def grades(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Grades for the teacher: one row per contestant, per-problem result and total (live results)."""
    contest = jury_contest(session, user, contest_id)
    return PlainTextResponse(
        grades_csv(compute_scoreboard(session, contest, ScoreboardView.JURY)),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="contest-{contest.id}-grades.csv"'},
    )
