"""The teacher's pages over submitted sources and printouts: a contest problem's (or any problem's)
most similar pairs of students' sources, two sources side by side with their shared regions marked,
the contest's sources as a zip, its problem set as a PDF, and password slips as a PDF. Each calls the
API's own function (``judge.api.similarity``, ``judge.api.downloads``), so the same access rules hold:
a student gets 403, a teacher sees only the contests it judges."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.downloads import LANGUAGE, pdf_response, problem_set, slips, sources_download
from judge.api.lookups import jury_contest
from judge.api.similarity import MAX_PAIRS, contest_similarity, pair_view, problem_similarity
from judge.auth import db_session
from judge.models import Problem, User
from judge.schemas import PathId
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import csrf, jury_viewer

router = APIRouter(route_class=PageRoute, include_in_schema=False)
SHOWN_PAIRS = 100


@router.get("/teacher/contests/{contest_id}/similarity")
def contest_pairs(
    request: Request,
    contest_id: PathId,
    problem: str = Query("", max_length=64),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """The contest's problems to choose from and, for the chosen one, its pairs most similar first."""
    contest = jury_contest(session, user, contest_id)
    letter = problem or (contest.problems[0].letter if contest.problems else "")
    work_dir = request.app.state.settings.work_dir
    report = contest_similarity(session, contest, letter, work_dir, SHOWN_PAIRS) if letter else None
    return page(
        request, "teacher/similarity.html", user=user, contest=contest, chosen=letter, report=report, users_text=""
    )


@router.get("/teacher/similarity")
def problem_pairs(
    request: Request,
    problem: str = Query("", max_length=64),
    users: str = Query("", max_length=10000),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Any problem's pairs among the named students' sources that the teacher may see."""
    report = None
    if problem:
        names = [n.strip() for n in users.split(",") if n.strip()]
        work_dir = request.app.state.settings.work_dir
        seen = rules.viewable_submissions(user)
        report = problem_similarity(session, problem, names, work_dir, min(SHOWN_PAIRS, MAX_PAIRS), seen)
    problems = [p.id for p in session.query(Problem).order_by(Problem.id)]
    return page(
        request,
        "teacher/similarity.html",
        user=user,
        contest=None,
        problems=problems,
        chosen=problem,
        report=report,
        users_text=users,
    )


@router.get("/teacher/similarity/{first_id}/{second_id}")
def side_by_side(
    request: Request,
    first_id: PathId,
    second_id: PathId,
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Two sources side by side, the regions they share marked (escaped text in our own template)."""
    match = pair_view(session, user, first_id, second_id, request.app.state.settings.work_dir)
    return page(request, "teacher/similarity_pair.html", user=user, match=match)


@router.get("/teacher/contests/{contest_id}/sources.zip")
def sources(contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The zip of ``GET /api/v1/contests/{id}/sources.zip``, as a download."""
    return sources_download(session, jury_contest(session, user, contest_id))


@router.get("/teacher/contests/{contest_id}/problemset.pdf")
def problem_set_pdf(
    request: Request,
    contest_id: PathId,
    language: str = LANGUAGE,
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """The PDF of ``GET /api/v1/contests/{id}/problemset.pdf``, as a download."""
    contest = jury_contest(session, user, contest_id)
    data = problem_set(session, contest, language, request.app.state.settings.work_dir)
    return pdf_response(data, f"contest-{contest.id}-problems-{language}.pdf")


@router.post("/teacher/users/slips.pdf", dependencies=csrf)
async def slips_pdf(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The slips just shown on the page, as a PDF: the form sends back each ``name`` and ``password``
    (``POST /api/v1/printouts/slips.pdf``'s rules: accounts the teacher may manage)."""
    form = await request.form()
    names, passwords = form.getlist("name"), form.getlist("password")
    accounts = [(str(n), str(p) or None) for n, p in zip(names, passwords)]
    sign_in_url = str(request.base_url).rstrip("/") + "/login"
    return pdf_response(slips(session, user, accounts, sign_in_url), "slips.pdf")
