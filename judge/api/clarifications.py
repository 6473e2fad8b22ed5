"""``/api/v1/contests/{id}/clarifications`` and ``/api/v1/clarifications/{id}``: a participant asks
about a problem or the contest, the jury answers privately or to everyone and posts announcements;
everyone reads what ``judge.clarifications`` lets them see. New and changed ones also arrive as
``clarification`` events on ``/api/v1/contests/{id}/events`` (``judge.api.events``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from judge import clarifications as clar
from judge.api.errors import answers
from judge.api.lookups import visible_contest
from judge.auth import current_user, db_session
from judge.clock import utcnow
from judge.models import Clarification, Contest, User
from judge.schemas import PathId, RequestBody, Text, UtcStamp

router = APIRouter(prefix="/api/v1", tags=["clarifications"])
TEXT_FIELD = Field(min_length=1, max_length=clar.MAX_TEXT_CHARS)
LETTER_FIELD = Field(None, max_length=64, description="the problem's letter (or id); none: the contest in general")


class QuestionIn(RequestBody):
    """A participant's question: about the problem with this letter, or (none) the contest in general."""

    problem: Text | None = LETTER_FIELD
    text: Text = TEXT_FIELD


class AnswerIn(RequestBody):
    """The jury's answer: to the asker alone, or to everyone in the contest when ``public``."""

    text: Text = TEXT_FIELD
    public: bool = False


class AnnouncementIn(RequestBody):
    """The jury's announcement to everyone in the contest, about one problem or (none) in general."""

    problem: Text | None = LETTER_FIELD
    text: Text = TEXT_FIELD


class ClarificationOut(BaseModel):
    """A clarification as the caller sees it. ``kind``: ``question`` (a participant asked; ``answer``
    null while it waits) or ``announcement`` (the jury's, in ``answer``); ``problem``: the letter,
    null for the contest in general; ``public``: the answer is for everyone; ``mine``: the caller
    asked it; ``asker``: who asked, for the jury only."""

    id: int
    contest: int
    kind: str
    problem: str | None
    question: str | None
    answer: str | None
    public: bool
    mine: bool
    asker: str | None
    asked_at: UtcStamp
    answered_at: UtcStamp | None


def clarification_out(session: Session, row: Clarification, contest: Contest, user: User | None) -> ClarificationOut:
    """The API view of ``row`` for ``user`` (``judge.clarifications.shown``)."""
    return ClarificationOut.model_validate(clar.shown(session, row, contest, user))


def viewable_clarification(session: Session, user: User, clarification_id: int) -> tuple[Clarification, Contest]:
    """The clarification and its contest if ``user`` sees it (``judge.clarifications.can_see``); 404
    otherwise: another student's private question does not exist as far as a student can tell."""
    row = session.get(Clarification, clarification_id)
    if row is None or not clar.can_see(session, user, row):
        raise HTTPException(404, f"no clarification {clarification_id}")
    contest = session.get(Contest, row.contest_id)
    assert contest is not None  # can_see found it
    return row, contest


@router.get("/contests/{contest_id}/clarifications", response_model=list[ClarificationOut])
def list_clarifications(
    contest_id: PathId,
    waiting: bool = Query(False, description="only questions without an answer yet"),
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """The contest's clarifications the caller sees, newest first: every one for the jury; for
    anyone else their own questions, the public answers and the announcements."""
    contest = visible_contest(session, user, contest_id)
    rows = clar.visible_clarifications(session, contest, user)
    if waiting:
        rows = [r for r in rows if r.question is not None and r.answer is None]
    return [clarification_out(session, r, contest, user) for r in rows]


@router.post(
    "/contests/{contest_id}/clarifications",
    status_code=201,
    response_model=ClarificationOut,
    responses=answers(403, 429),
)
def ask(
    request: Request,
    contest_id: PathId,
    body: QuestionIn,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """Ask the jury (a participant, while the contest runs): 403 for the jury, a non-participant or
    outside the window, 404 for an unknown letter, 429 with ``Retry-After`` sooner than
    ``JUDGE_QUESTION_INTERVAL_S`` after the caller's last question."""
    contest = visible_contest(session, user, contest_id)
    interval_s = request.app.state.settings.question_interval_s
    row = clar.ask(session, user, contest, body.text, body.problem, interval_s, utcnow())
    return clarification_out(session, row, contest, user)


@router.post(
    "/contests/{contest_id}/announcements",
    status_code=201,
    response_model=ClarificationOut,
    responses=answers(403),
)
def announce(
    contest_id: PathId, body: AnnouncementIn, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Announce to everyone in the contest (its jury): 403 for anyone else, 404 for an unknown
    letter, 422 for a problem named before the start."""
    contest = visible_contest(session, user, contest_id)
    row = clar.announce(session, user, contest, body.text, body.problem, utcnow())
    return clarification_out(session, row, contest, user)


@router.get("/clarifications/{clarification_id}", response_model=ClarificationOut)
def get_clarification(
    clarification_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """One clarification the caller sees (404 for any other)."""
    row, contest = viewable_clarification(session, user, clarification_id)
    return clarification_out(session, row, contest, user)


@router.post(
    "/clarifications/{clarification_id}/answer",
    response_model=ClarificationOut,
    responses=answers(403, 409),
)
def answer(
    clarification_id: PathId,
    body: AnswerIn,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """Answer a question (the contest's jury), to the asker alone or to everyone (``public``);
    answering again replaces the answer. 403 for anyone else who sees it, 409 for an announcement."""
    row, contest = viewable_clarification(session, user, clarification_id)
    clar.answer(session, user, row, body.text, body.public, utcnow())
    return clarification_out(session, row, contest, user)
