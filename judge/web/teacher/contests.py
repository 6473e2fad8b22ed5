"""The teacher's contests: the list, a form to create or edit one (problems and letters, window,
freeze, scoring, participants: classes and named students), the contest's jury page (live jury
scoreboard, unfreeze, grades, rejudge a problem, archive and restore, the clarifications: ``judge.web.clarifications``).

The form becomes the API's own bodies (``judge.contest_bodies``' ``ContestIn``, ``ContestPatch``: the
same bounds) and goes through the API's own functions (``contest_spec`` + ``judge.contests.create_contest``,
``apply_changes``), so a page and ``POST``/``PATCH /api/v1/contests`` refuse the same things.
"""

from __future__ import annotations

import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.contests import contest_out
from judge.api.lookups import jury_contest
from judge.api.scoreboards import grades_download
from judge.auth import db_session
from judge.classes import classes_for
from judge.clock import utcnow
from judge.contest_bodies import ContestIn, ContestPatch, apply_changes, contest_spec
from judge.contests import ContestRuleError
from judge.models import Contest, Problem, User
from judge.package_store import cached_package
from judge.packages import PackageError
from judge.schemas import MAX_PENALTY_MINUTES, MAX_POINTS, PathId, whole_number
from judge.vocabulary import ScoreboardView, Scoring, Visibility
from judge.web.clarifications import clarification_context
from judge.web.pages import board_tables
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import FormError, csrf, jury_viewer, local_time, redirect, validation_message, zone
from judge.web.teacher.rejudging import rejudge_and_report

router = APIRouter(route_class=PageRoute, include_in_schema=False)
EMPTY_PROBLEM_ROWS = 3  # blank rows the form offers beyond the contest's problems


@dataclass
class ContestForm:
    """The contest form as typed: text fields, times as ``datetime-local`` values in the time zone
    ``tz``, one (letter, problem id, points) row per problem, the participants' names one per line
    and the ids of the classes taking part (neither: every student), and the reason of a refusal."""

    name: str = ""
    start_at: str = ""
    end_at: str = ""
    freeze_at: str = ""
    tz: str = "UTC"
    scoring: str = Scoring.ICPC
    scoreboard_visibility: str = Visibility.PARTICIPANTS
    show_test_details: bool = False
    penalty_minutes: str = "20"
    participants: str = ""
    classes: list[str] = field(default_factory=list)
    rows: list[tuple[str, str, str]] = field(default_factory=list)
    error: str | None = None
    stored_utc: bool = False  # the times are the stored UTC ones (teacher.js shows them in local time)

    @classmethod
    def of(cls, session: Session, contest: Contest) -> ContestForm:
        """The form showing ``contest`` (times in UTC; ``teacher.js`` shows them in local time)."""
        listed = "\n".join(rules.named_participants(session, contest) or [])
        return cls(
            name=contest.name,
            start_at=f"{contest.start_at:%Y-%m-%dT%H:%M}",
            end_at=f"{contest.end_at:%Y-%m-%dT%H:%M}",
            freeze_at=f"{contest.freeze_at:%Y-%m-%dT%H:%M}" if contest.freeze_at else "",
            scoring=contest.scoring,
            scoreboard_visibility=contest.scoreboard_visibility,
            show_test_details=contest.show_test_details,
            penalty_minutes=str(contest.penalty_minutes),
            participants=listed,
            classes=[str(c) for c in rules.contest_class_ids(session, contest)],
            rows=[(p.letter, p.problem_id, str(p.points) if p.points is not None else "") for p in contest.problems],
            stored_utc=True,
        )

    @classmethod
    async def read(cls, request: Request) -> ContestForm:
        """The form as the browser sent it."""
        data = await request.form()

        def text(name: str) -> str:
            value = data.get(name)
            return value if isinstance(value, str) else ""

        columns = [[v if isinstance(v, str) else "" for v in data.getlist(n)] for n in ("letter", "problem", "points")]
        rows = [(l.strip(), p.strip(), s.strip()) for l, p, s in zip(*columns) if l.strip() or p.strip() or s.strip()]
        return cls(
            name=text("name").strip(),
            start_at=text("start_at"),
            end_at=text("end_at"),
            freeze_at=text("freeze_at"),
            tz=text("tz") or "UTC",
            scoring=text("scoring"),
            scoreboard_visibility=text("scoreboard_visibility"),
            show_test_details=text("show_test_details") == "on",
            penalty_minutes=text("penalty_minutes").strip(),
            participants=text("participants"),
            classes=[v for v in data.getlist("classes") if isinstance(v, str)],
            rows=rows,
        )

    def body(self) -> dict[str, object]:
        """The API body these fields spell (``ContestIn``/``ContestPatch`` validate it).

        Raises FormError for a time that is no time, a problem row without a problem, points or
        penalty that are not whole numbers."""
        tz = zone(self.tz)
        problems: list[dict[str, object]] = []
        for letter, problem, points in self.rows:
            if not problem:
                raise FormError(f"problem row {letter or len(problems) + 1}: choose a problem")
            number = whole_number(points, MAX_POINTS)
            if points and number is None:
                raise FormError(f"points of {problem}: a whole number up to {MAX_POINTS}, not {points[:20]!r}")
            problems.append({"problem": problem, "letter": letter or None, "points": number})
        if not problems:
            raise FormError("choose at least one problem")
        penalty = whole_number(self.penalty_minutes, MAX_PENALTY_MINUTES)
        if penalty is None:
            raise FormError(
                f"penalty: a whole number of minutes up to {MAX_PENALTY_MINUTES}, not {self.penalty_minutes[:20]!r}"
            )
        names = [n for n in self.participants.replace(",", " ").split() if n]
        class_ids = [whole_number(c) for c in self.classes]
        if any(c is None for c in class_ids):
            raise FormError("classes: choose them from the list")
        return {
            "name": self.name,
            "start_at": local_time("start", self.start_at, tz),
            "end_at": local_time("end", self.end_at, tz),
            "freeze_at": local_time("freeze", self.freeze_at, tz, required=False),
            "scoring": self.scoring,
            "scoreboard_visibility": self.scoreboard_visibility,
            "show_test_details": self.show_test_details,
            "penalty_minutes": penalty,
            "problems": problems,
            "participants": names or None,
            "classes": class_ids or None,
        }


def _refusal(exc: FormError | ValidationError | ContestRuleError) -> tuple[str, int]:
    """The line shown above the form, and the page's status, for a refused contest form."""
    if isinstance(exc, ContestRuleError):
        return exc.message, exc.status
    return (validation_message(exc) if isinstance(exc, ValidationError) else str(exc)), 422


def _form_page(
    request: Request, session: Session, user: User, form: ContestForm, contest: Contest | None, status: int = 200
) -> Response:
    rows = form.rows + [("", "", "")] * EMPTY_PROBLEM_ROWS
    problems = session.execute(
        select(Problem.id, Problem.name).where(Problem.archived.is_(False)).order_by(Problem.id)
    ).all()
    return page(
        request,
        "teacher/contest_form.html",
        status=status,
        user=user,
        form=form,
        rows=rows,
        contest=contest,
        problems=problems,
        classes=classes_for(session, user),
        scorings=list(Scoring),
        visibilities=list(Visibility),
    )


@router.get("/teacher")
def teacher_start(user: User = Depends(jury_viewer)):
    """The teacher's pages start at the contests list (a student gets the teacher pages' 403)."""
    return redirect("/teacher/contests")


@router.get("/teacher/contests")
def contest_list(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The contests the viewer judges (a teacher's own; every one for an admin), newest first."""
    judged = [c for c in reversed(rules.contests_for(session, user)) if rules.is_contest_jury(user, c)]
    return page(
        request,
        "teacher/contests.html",
        user=user,
        contests=[contest_out(session, c, user) for c in judged],
        now=utcnow(),
    )


@router.get("/teacher/contests/new")
def new_contest(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """An empty contest form."""
    return _form_page(request, session, user, ContestForm(), None)


@router.post("/teacher/contests", dependencies=csrf)
async def create_contest(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """Create the contest of the form (owned by the viewer) and open its page; a refusal shows the
    form again with the reason and what was typed."""
    form = await ContestForm.read(request)
    try:
        body = ContestIn.model_validate(form.body())
        contest = rules.create_contest(session, contest_spec(body), owner=user)
        return redirect(f"/teacher/contests/{contest.id}")
    except (FormError, ValidationError, ContestRuleError) as exc:
        session.rollback()
        form.error, status = _refusal(exc)
    return _form_page(request, session, user, form, None, status)


@router.get("/teacher/contests/{contest_id}/edit")
def edit_contest(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """The form of a contest the viewer judges."""
    contest = jury_contest(session, user, contest_id)
    return _form_page(request, session, user, ContestForm.of(session, contest), contest)


@router.post("/teacher/contests/{contest_id}/edit", dependencies=csrf)
async def change_contest(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Apply the form to the contest (every field: the form shows them all) and go back to its page."""
    contest = jury_contest(session, user, contest_id)
    form = await ContestForm.read(request)
    try:
        apply_changes(session, contest, ContestPatch.model_validate(form.body()), user)
        return redirect(f"/teacher/contests/{contest.id}")
    except (FormError, ValidationError, ContestRuleError) as exc:
        session.rollback()
        form.error, status = _refusal(exc)
    return _form_page(request, session, user, form, jury_contest(session, user, contest_id), status)


@router.get("/teacher/contests/{contest_id}")
def contest_page(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """A contest for its jury: settings, problems, the live jury scoreboard, grades, rejudge, and the
    unfreeze once ``judge.contests.unfreeze_refusal`` allows it (a note says when before)."""
    contest = jury_contest(session, user, contest_id)
    return page(
        request,
        "teacher/contest.html",
        user=user,
        contest=contest,
        info=contest_out(session, contest, user),
        can_unfreeze=rules.unfreeze_refusal(contest, utcnow()) is None,
        table=board_tables.table(session, contest, ScoreboardView.JURY),
        statement_languages=statement_languages(session, contest, request.app.state.settings.work_dir),
        **clarification_context(session, contest, user),
    )


def statement_languages(session: Session, contest: Contest, work_dir: Path) -> list[str]:
    """The languages (ISO 639 codes, sorted; ``en`` first) in which some problem of ``contest`` has a
    statement, for the problem set's PDF; ``["en"]`` when none can be read (the PDF then says what
    is missing)."""
    found: set[str] = set()
    for entry in contest.problems:
        problem = session.get(Problem, entry.problem_id)
        if problem is None:
            continue
        try:
            package = cached_package(session, problem.package_sha256, problem.id, work_dir / "packages")
        except (PackageError, tarfile.TarError, OSError):  # shown as the PDF's own refusal, not here
            continue
        found.update(package.statements)
    return sorted(found or {"en"}, key=lambda code: (code != "en", code))


@router.post("/teacher/contests/{contest_id}/unfreeze", dependencies=csrf)
def unfreeze(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Reveal the frozen verdicts on the public scoreboard once the contest is over
    (``judge.contests.edit_contest``, as ``POST /api/v1/contests/{id}/unfreeze``); before, the 409
    refusal page says when it ends."""
    rules.edit_contest(session, jury_contest(session, user, contest_id), {"unfrozen": True}, utcnow())
    return redirect(f"/teacher/contests/{contest_id}")


@router.get("/teacher/contests/{contest_id}/grades.csv")
def grades(contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The grades CSV of ``GET /api/v1/contests/{id}/grades.csv``, as a download."""
    return grades_download(session, jury_contest(session, user, contest_id))


@router.post("/teacher/contests/{contest_id}/rejudge", dependencies=csrf)
async def rejudge_problem(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Rejudge one problem of the contest (by letter; optionally only the submissions not AC) and
    show which verdicts change."""
    contest = jury_contest(session, user, contest_id)
    data = await request.form()
    letter, only_non_ac = data.get("letter"), data.get("only_non_ac") == "on"
    entry = rules.contest_problem(contest, letter) if isinstance(letter, str) and letter else None
    if entry is None:
        raise ContestRuleError(404, f"contest {contest_id} has no problem {letter!r}")
    return rejudge_and_report(session, contest_id=contest.id, problem_id=entry.problem_id, only_non_ac=only_non_ac)


@router.post("/teacher/contests/{contest_id}/archive", dependencies=csrf)
async def archive(
    request: Request, contest_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Archive the contest (form field ``archived`` ``on``: hidden from everyone but its jury, closed to
    submissions, its results kept) or restore it (anything else), as ``PATCH /api/v1/contests/{id}``."""
    contest = jury_contest(session, user, contest_id)
    archived = (await request.form()).get("archived") == "on"
    rules.edit_contest(session, contest, {"archived": archived}, utcnow(), user)
    return redirect(f"/teacher/contests/{contest_id}")
