"""The teacher's submissions: a table filtered by student, problem, verdict and contest, of the
submissions the viewer may see (``judge.contests.viewable_submissions``: an admin all, a teacher
practice ones and those of its contests), and rejudging one of them. Source and per-test results are
the submission's own page (``/submissions/{id}``), which shows the jury everything."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.lookups import viewable_submission
from judge.api.submissions import summaries
from judge.auth import db_session, same_name
from judge.models import Contest, Problem, Submission, User
from judge.schemas import PathId, storable, whole_number
from judge.vocabulary import Verdict
from judge.web.pages import problem_labels
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import csrf, jury_viewer
from judge.web.teacher.rejudging import rejudge_and_report

router = APIRouter(route_class=PageRoute, include_in_schema=False)
SHOWN = 300  # rows of the table, newest first


@router.get("/teacher/submissions")
def submission_table(
    request: Request,
    student: str = "",
    problem: str = "",
    verdict: str = "",
    contest: str = "",
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Submissions newest first, filtered by the student's user name, the problem id, the verdict
    and the contest id (each optional; an unusable filter says so above the table)."""
    query = select(Submission).where(rules.viewable_submissions(user)).order_by(Submission.id.desc()).limit(SHOWN)
    notes = []
    if student.strip():
        query = query.join(User, User.id == Submission.user_id).where(same_name(student.strip()))
    if problem:
        query = query.where(Submission.problem_id == problem)
    if verdict:
        if verdict not in tuple(Verdict):
            notes.append(f"verdict {verdict!r}: one of {', '.join(Verdict)}")
        query = query.where(Submission.verdict == verdict)
    if contest:
        number = whole_number(contest)
        if not number:
            notes.append(f"contest {contest[:20]!r}: a contest number")
            contest = ""
        else:
            query = query.where(Submission.contest_id == number)
    filters = dict(student=student, problem=problem, verdict=verdict, contest=contest)
    if not all(storable(v) for v in filters.values()):
        notes.append("a filter holds a character no name has")
    rows = [] if notes else list(session.scalars(query))
    judged = [c for c in reversed(rules.contests_for(session, user)) if rules.is_contest_jury(user, c)]
    return page(
        request,
        "teacher/submissions.html",
        user=user,
        lines=list(zip(summaries(session, rows), [r.contest_id for r in rows])),
        filters=filters,
        notes=notes,
        shown=SHOWN,
        verdicts=list(Verdict),
        problems=session.scalars(select(Problem.id).order_by(Problem.id)).all(),
        contests=judged,
        contest_names={c.id: c.name for c in session.scalars(select(Contest))},
        labels=problem_labels(session, list(rows)),
    )


@router.post("/teacher/submissions/{submission_id}/rejudge", dependencies=csrf)
def rejudge_submission(
    submission_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Rejudge one submission the viewer may see (the API's rule) and show whether its verdict changes."""
    row = viewable_submission(session, user, submission_id)
    return rejudge_and_report(session, submission_id=row.id)
