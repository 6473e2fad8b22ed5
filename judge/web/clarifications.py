"""Clarifications in the browser: on a contest's page a participant asks about a problem or the
contest and reads their own questions, the public answers and the announcements; on the teacher's
contest page the jury reads the questions (waiting ones first), answers each privately or to
everyone, and announces. New ones arrive live: the contest's event stream (``judge.events``) sends
``clarification`` and the list is fetched again.

The rules are ``judge.clarifications``' (the API's): the same ask, answer, announce and the same
``seen_by``; a refusal is the refusal page with the rule's status and reason (``judge.web.routing``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from judge import clarifications as clar
from judge import contests as rules
from judge.api.clarifications import viewable_clarification
from judge.api.lookups import jury_contest, visible_contest
from judge.auth import db_session
from judge.clock import utcnow
from judge.contests import ContestRuleError
from judge.models import Clarification, Contest, User
from judge.schemas import PathId, storable
from judge.web.render import page
from judge.web.routing import PageRoute, from_htmx, status_and_reason
from judge.web.session import check_csrf, signed_in

router = APIRouter(route_class=PageRoute, include_in_schema=False)
csrf = [Depends(check_csrf)]


def clarification_context(session: Session, contest: Contest, user: User) -> dict[str, Any]:
    """What ``_clarifications.html`` and the contest pages' clarification sections need:
    ``clarifications``, the contest's clarifications ``user`` sees as ``judge.clarifications.shown``
    gives them (newest first, the questions waiting for an answer before all others); ``jury``,
    whether ``user`` is the contest's jury; ``max_text_chars``, the longest text."""
    rows = clar.visible_clarifications(session, contest, user)
    items = [clar.shown(session, row, contest, user) for row in rows]
    items.sort(key=lambda c: c["kind"] != "question" or c["answer"] is not None)
    jury = rules.is_contest_jury(user, contest)
    return {"clarifications": items, "jury": jury, "max_text_chars": clar.MAX_TEXT_CHARS}


def _redirect(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


@router.get("/contests/{contest_id}/clarifications")
def clarification_list(
    request: Request, contest_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """The list alone (``_clarifications.html``), as htmx fetches it again on each ``clarification``
    event; a visit of the address itself goes to the clarifications of the contest's page (the
    jury's page for its jury)."""
    contest = visible_contest(session, user, contest_id)
    if not from_htmx(request):
        jury = rules.is_contest_jury(user, contest)
        return _redirect(f"{'/teacher' if jury else ''}/contests/{contest.id}#clarifications")
    context = clarification_context(session, contest, user)
    return page(request, "_clarifications.html", headers={"Vary": "HX-Request"}, contest=contest, **context)


@router.post("/contests/{contest_id}/clarifications", dependencies=csrf)
def ask(
    request: Request,
    contest_id: PathId,
    text: str = Form(""),
    problem: str = Form(""),
    user: User = Depends(signed_in),
    session: Session = Depends(db_session),
):
    """Ask the jury (``judge.clarifications.ask``, as ``POST /api/v1/contests/{id}/clarifications``)
    and come back to the contest's page."""
    contest = visible_contest(session, user, contest_id)
    interval_s = request.app.state.settings.question_interval_s
    clar.ask(session, user, contest, _form_text(text), problem or None, interval_s, utcnow())
    return _redirect(f"/contests/{contest.id}#clarifications")


def _form_text(text: str) -> str:
    """A text field as the rules may store it (``judge.schemas.storable``), else 422."""
    if not storable(text):
        raise HTTPException(422, "the text holds characters that cannot be stored (NUL)")
    return text


@router.get("/teacher/clarifications/{clarification_id}")
def answer_form(
    request: Request, clarification_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """One question for the contest's jury: who asked, about what, when, and the answer form."""
    row, contest = viewable_clarification(session, user, clarification_id)
    jury_contest(session, user, contest.id)
    return _answer_page(request, session, user, row, contest)


@dataclass
class AnswerForm:
    """What the answer form shows again after a refusal: the typed text, the tick, the reason."""

    text: str
    public: bool
    error: str


def _answer_page(
    request: Request,
    session: Session,
    user: User,
    row: Clarification,
    contest: Contest,
    form: AnswerForm | None = None,
    status: int = 200,
) -> Response:
    """The answer page of question ``row``: its stored answer in the form, or ``form`` as refused."""
    item = clar.shown(session, row, contest, user)
    return page(
        request,
        "teacher/clarification.html",
        status=status,
        user=user,
        contest=contest,
        c=item,
        form=form,
        max_text_chars=clar.MAX_TEXT_CHARS,
    )


@router.post("/teacher/clarifications/{clarification_id}", dependencies=csrf)
def answer(
    request: Request,
    clarification_id: PathId,
    text: str = Form(""),
    public: str = Form(""),
    user: User = Depends(signed_in),
    session: Session = Depends(db_session),
):
    """Answer (``judge.clarifications.answer``, as ``POST /api/v1/clarifications/{id}/answer``):
    to everyone when the box is ticked, else to the asker; back to the teacher's contest page. An
    answer refused for its text (422: empty, too long, a NUL) shows the form again with the text as
    typed and the reason."""
    row, contest = viewable_clarification(session, user, clarification_id)
    jury_contest(session, user, contest.id)
    try:
        clar.answer(session, user, row, _form_text(text), public == "on", utcnow())
    except (HTTPException, ContestRuleError) as exc:
        status, reason = status_and_reason(exc)
        if status != 422:
            raise
        session.rollback()
        return _answer_page(request, session, user, row, contest, AnswerForm(text, public == "on", reason), status)
    return _redirect(f"/teacher/contests/{contest.id}#clarifications")


@router.post("/teacher/contests/{contest_id}/announcements", dependencies=csrf)
def announce(
    contest_id: PathId,
    text: str = Form(""),
    problem: str = Form(""),
    user: User = Depends(signed_in),
    session: Session = Depends(db_session),
):
    """Announce to everyone in the contest (``judge.clarifications.announce``); back to its page."""
    contest = jury_contest(session, user, contest_id)
    clar.announce(session, user, contest, _form_text(text), problem or None, utcnow())
    return _redirect(f"/teacher/contests/{contest.id}#clarifications")
