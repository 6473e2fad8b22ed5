"""Rejudging from the pages, and the report of which verdicts changed.

The verdict a submission had is gone once it is queued again (``judge.lifecycle.rejudge`` clears
it), so the page reads the verdicts of the submissions about to be rejudged first and carries them
to the report in its address (``?s=<id>:<verdict>``, ``none`` for a judging that had none yet): the
report shows each one beside the verdict the new judging gives, live, and marks those that differ.
The address only ever shows old verdicts; who may see which submission is checked again on every
request (``judge.contests.viewable_submissions``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge import lifecycle
from judge.api.submissions import summaries
from judge.auth import db_session
from judge.models import Submission, User
from judge.schemas import whole_number
from judge.vocabulary import Status, Verdict
from judge.web.pages import problem_labels
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import jury_viewer, redirect

router = APIRouter(route_class=PageRoute, include_in_schema=False)
NO_VERDICT = "none"
MAX_REPORTED = 2000  # submissions one report lists


def rejudge_and_report(
    session: Session,
    *,
    submission_id: int | None = None,
    contest_id: int | None = None,
    problem_id: str | None = None,
    only_non_ac: bool = False,
) -> RedirectResponse:
    """``judge.lifecycle.rejudge`` with these criteria (the caller checked the viewer may), then
    see-other to the report of what it rejudged, carrying the verdicts they had."""
    matches = lifecycle.rejudge_matches(
        submission_id=submission_id, contest_id=contest_id, problem_id=problem_id, only_non_ac=only_non_ac
    )
    before = dict(session.execute(select(Submission.id, Submission.verdict).where(*matches)).all())
    ids = lifecycle.rejudge(
        session, submission_id=submission_id, contest_id=contest_id, problem_id=problem_id, only_non_ac=only_non_ac
    )
    was = [f"{i}:{before.get(i) or NO_VERDICT}" for i in ids[:MAX_REPORTED]]
    return redirect("/teacher/rejudged?" + urlencode({"s": was}, doseq=True))


def _old_verdicts(request: Request) -> dict[int, str | None]:
    """The ``s`` pairs of the address: id → old verdict; malformed pairs are left out."""
    old: dict[int, str | None] = {}
    for pair in request.query_params.getlist("s")[:MAX_REPORTED]:
        digits, _, verdict = pair.partition(":")
        number = whole_number(digits)
        if number and (verdict in tuple(Verdict) or verdict == NO_VERDICT):
            old[number] = None if verdict == NO_VERDICT else verdict
    return old


def _report(request: Request, session: Session, user: User) -> dict:
    old = _old_verdicts(request)
    rows = session.scalars(
        select(Submission).where(Submission.id.in_(old), rules.viewable_submissions(user)).order_by(Submission.id)
    ).all()
    lines = [
        (line, old[line.id], line.status == Status.DONE and line.verdict != old[line.id])
        for line in summaries(session, list(rows))
    ]
    waiting = sum(1 for line, _, _ in lines if line.status != Status.DONE)
    changed = sum(1 for _, _, differs in lines if differs)
    labels = problem_labels(session, list(rows))
    return dict(user=user, lines=lines, waiting=waiting, changed=changed, query=request.url.query, labels=labels)


@router.get("/teacher/rejudged")
def rejudge_report(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The rejudged submissions: old verdict, new verdict (live until all are judged), which changed."""
    return page(request, "teacher/rejudged.html", **_report(request, session, user))


@router.get("/teacher/rejudged/table")
def rejudge_report_table(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The report's table alone, fetched again every second while some are still waiting."""
    return page(request, "teacher/_rejudged_table.html", **_report(request, session, user))
