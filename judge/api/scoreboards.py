"""``/api/v1/contests/{id}/scoreboard`` (JSON, CSV) and the teacher's ``grades.csv``. No token needed
for a contest whose scoreboard is public; the jury sees the live board, everyone else the frozen one
after the freeze time."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from judge.api.errors import answers
from judge.api.lookups import board_view, jury_contest
from judge.auth import current_user, db_session, optional_user
from judge.exports import grades_csv, scoreboard_csv
from judge.models import Contest, User
from judge.schemas import PathId, UtcStamp
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import ScoreboardView

router = APIRouter(prefix="/api/v1/contests/{contest_id}", tags=["scoreboards"])


class CellOut(BaseModel):
    """One contestant on one problem (``judge.scoreboard.Cell``): ICPC attempts, solving minute and
    penalty (minutes), IOI score (points), attempts pending, first solve of the problem."""

    letter: str
    attempts: int
    pending: int
    solved: bool
    minute: int | None
    penalty: int
    score: float
    first_solve: bool


class RowOut(BaseModel):
    """A contestant's row: rank (shared on ties), ICPC solved and penalty (minutes), IOI total (points)."""

    rank: int
    user: str
    display_name: str
    solved: int
    penalty: int
    total: float
    cells: list[CellOut]


class BoardProblemOut(BaseModel):
    """A problem heading the board: letter, name, IOI points."""

    letter: str
    name: str
    points: int


class ScoreboardOut(BaseModel):
    """A scoreboard (``judge.scoreboard.Scoreboard.to_dict``): ``view`` jury or public, ``frozen``
    when verdicts after the freeze are hidden, ``computed_at`` (UTC); no problems before the start
    but for the jury."""

    contest: int
    name: str
    scoring: str
    view: str
    frozen: bool
    computed_at: UtcStamp
    problems: list[BoardProblemOut]
    rows: list[RowOut]


@router.get("/scoreboard", response_model=ScoreboardOut)
def scoreboard(contest_id: PathId, user: User | None = Depends(optional_user), session: Session = Depends(db_session)):
    """The scoreboard as JSON: live for the jury, frozen for everyone else after the freeze time.
    No token needed when the contest's scoreboard is public."""
    contest, view = board_view(session, user, contest_id)
    # the board's dict is made once per board version (``Scoreboard.to_dict``): sent as it is, not
    # validated again field by field against ScoreboardOut (which documents it)
    return JSONResponse(compute_scoreboard(session, contest, view).to_dict())


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
    return grades_download(session, jury_contest(session, user, contest_id))


def grades_download(session: Session, contest: Contest) -> PlainTextResponse:
    """``contest-<id>-grades.csv`` as a download: ``judge.scoreboard.grades_csv`` of the jury's board."""
    return PlainTextResponse(
        grades_csv(compute_scoreboard(session, contest, ScoreboardView.JURY)),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="contest-{contest.id}-grades.csv"'},
    )
