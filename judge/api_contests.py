"""HTTP API of class contests (issue #5): log in, accounts, contests, scoreboards, live events, rejudge.

``include_contest_routes(app)`` mounts the router on the app of ``judge.api`` and maps the contest
rules' refusals (``judge.contests.ContestRuleError``) to their HTTP status, with ``Retry-After`` on a
429. Every endpoint needs a bearer token except the scoreboard of a contest whose scoreboard is
public; the rules themselves live in ``judge.contests`` so the CLI applies the same ones.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.auth import (
    ADMIN,
    STUDENT,
    USER_NAME,
    AccountError,
    authenticate,
    create_user,
    current_user,
    db_session,
    issue_token,
    jury_user,
    optional_user,
    revoke_token,
)
from judge.contests import ContestRuleError, ProblemEntry, RateLimited
from judge.events import ContestFeed, SubmissionFeed, stream
from judge.exports import grades_csv, scoreboard_csv
from judge.models import Contest, Problem, Submission, User, utcnow
from judge.schemas import (
    MAX_CONTEST_PROBLEMS,
    MAX_IMPORTED_USERS,
    MAX_PARTICIPANTS,
    MAX_PENALTY_MINUTES,
    MAX_POINTS,
    PathId,
    RowId,
    SubmissionIn,
    SubmissionOut,
    TestResultOut,
    Text,
    UtcTime,
    storable,
)
from judge.scoreboard import JURY, compute_scoreboard

DEFAULT_SUBMIT_INTERVAL_S = 10.0
router = APIRouter(prefix="/api/v1")


# -- bodies ---------------------------------------------------------------------------------------
class ContestSubmissionIn(SubmissionIn):
    """POST /api/v1/submissions: ``problem`` is a problem id, or a letter when ``contest`` is given."""

    contest: RowId | None = None


class TestResultView(TestResultOut):
    """A test result as the viewer may see it: for a student's secret test only the verdict (the
    name becomes ``secret/<ordinal>``, times and memory null) unless the contest shows details."""

    time_ms: int | None = None
    wall_ms: int | None = None
    memory_kib: int | None = None


class SubmissionView(SubmissionOut):
    """A submission as the viewer may see it: author, contest and letter, jury flag, judging attempt."""

    user: str | None = None
    contest: int | None = None
    letter: str | None = None
    is_jury: bool = False
    attempt: int = 0
    results: list[TestResultView]


class UserIn(BaseModel):
    """A new account; without ``password`` one is generated and returned once."""

    name: Text = Field(min_length=1, max_length=64)
    display_name: Text | None = Field(default=None, max_length=200)
    role: Literal["admin", "teacher", "student"] = STUDENT
    password: Text | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("name")
    @classmethod
    def _whole_name(cls, name: str) -> str:
        # USER_NAME ends in "$", which re.match lets pass before a final newline: "ana\n" is no name
        if USER_NAME.fullmatch(name) is None:
            raise ValueError("use 1-64 letters, digits, '_', '.', '-', starting with a letter or digit")
        return name


class UserOut(BaseModel):
    """An account as the API shows it (never its password hash)."""

    id: int
    name: str
    display_name: str
    role: str


class UserCreated(BaseModel):
    """A created account and its generated password (null when one was given): shown this once."""

    user: UserOut
    password: str | None


class TokenOut(BaseModel):
    """A bearer token (OAuth2 ``token_type`` bearer), its expiry (UTC) and whose it is."""

    access_token: str
    token_type: str = "bearer"
    expires_at: datetime
    user: UserOut


class ContestProblemIn(BaseModel):
    """A contest problem: the problem id, its letter (default: by position, A, B, …), IOI points (100)."""

    problem: Text = Field(min_length=1, max_length=64)
    letter: Text | None = Field(default=None, max_length=8)
    points: int | None = Field(default=None, gt=0, le=MAX_POINTS)


class ContestPatch(BaseModel):
    """Changes to a contest; fields left out stay. ``participants`` null: every student takes part;
    ``freeze_at`` null: no freeze. Times are ISO 8601 (without a zone: UTC)."""

    name: Text | None = Field(default=None, min_length=1, max_length=200)
    start_at: UtcTime | None = None
    end_at: UtcTime | None = None
    freeze_at: UtcTime | None = None
    scoring: Literal["icpc", "ioi"] | None = None
    problems: list[ContestProblemIn] | None = Field(default=None, min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    participants: list[Text] | None = Field(default=None, max_length=MAX_PARTICIPANTS)
    scoreboard_visibility: Literal["public", "participants", "jury"] | None = None
    show_test_details: bool | None = None
    penalty_minutes: int | None = Field(default=None, ge=0, le=MAX_PENALTY_MINUTES)


class ContestIn(ContestPatch):
    """A new contest: name, window, problems (required), the rest as in ``ContestPatch``."""

    name: Text = Field(min_length=1, max_length=200)
    start_at: UtcTime
    end_at: UtcTime
    problems: list[ContestProblemIn] = Field(min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    scoring: Literal["icpc", "ioi"] = "icpc"
    scoreboard_visibility: Literal["public", "participants", "jury"] = "participants"
    show_test_details: bool = False
    penalty_minutes: int = Field(default=20, ge=0, le=MAX_PENALTY_MINUTES)


class ContestProblemOut(BaseModel):
    """A contest problem: letter, problem id (for ``GET /api/v1/problems/{id}``), name, IOI points."""

    letter: str
    problem: str
    name: str
    points: int


class ContestOut(BaseModel):
    """A contest. ``phase``: before / running / over; ``frozen``: the public board hides verdicts now.
    Students see the problems only once the contest has started; ``participants`` is for the jury
    (null: every student)."""

    id: int
    name: str
    scoring: str
    start_at: datetime
    end_at: datetime
    freeze_at: datetime | None
    unfrozen: bool
    phase: str
    frozen: bool
    scoreboard_visibility: str
    show_test_details: bool
    penalty_minutes: int
    owner: str | None
    problems: list[ContestProblemOut]
    participants: list[str] | None


class SubmissionSummary(BaseModel):
    """A line of a submission list (no source, no test results)."""

    id: int
    user: str | None
    problem: str
    letter: str | None
    language: str
    status: str
    verdict: str | None
    is_jury: bool
    created_at: datetime


class SourceOut(BaseModel):
    """A submission's source text (its author and the jury only)."""

    id: int
    language: str
    source: str


class RejudgeIn(BaseModel):
    """What to rejudge in a contest: one problem (letter) or all, optionally only non-AC submissions."""

    problem: Text | None = None
    only_non_ac: bool = False


class RejudgeOut(BaseModel):
    """The submissions put back in the queue."""

    rejudged: list[int]


# -- helpers ----------------------------------------------------------------------------------------
def _utc(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment is not None else None


def user_out(user: User) -> UserOut:
    """The API view of an account."""
    return UserOut(id=user.id, name=user.name, display_name=user.display_name, role=user.role)


def contest_out(session: Session, contest: Contest, viewer: User | None) -> ContestOut:
    """The API view of ``contest`` for ``viewer`` (problems hidden from non-jury before the start)."""
    now = utcnow()
    jury = rules.is_contest_jury(viewer, contest)
    names = dict(session.execute(select(Problem.id, Problem.name)).all())
    problems = (
        [
            ContestProblemOut(
                letter=p.letter,
                problem=p.problem_id,
                name=names.get(p.problem_id, p.problem_id),
                points=rules.problem_points(p),
            )
            for p in contest.problems
        ]
        if jury or now >= contest.start_at
        else []
    )
    listed = None
    if jury and not contest.all_students:
        listed = sorted(u.name for u in rules.participants(session, contest))
    phase = "before" if now < contest.start_at else "running" if now < contest.end_at else "over"
    frozen = contest.freeze_at is not None and not contest.unfrozen and now >= contest.freeze_at
    owner = session.get(User, contest.owner_id) if contest.owner_id else None
    return ContestOut(
        id=contest.id,
        name=contest.name,
        scoring=contest.scoring,
        start_at=_utc(contest.start_at),
        end_at=_utc(contest.end_at),
        freeze_at=_utc(contest.freeze_at),
        unfrozen=contest.unfrozen,
        phase=phase,
        frozen=frozen,
        scoreboard_visibility=contest.scoreboard_visibility,
        show_test_details=contest.show_test_details,
        penalty_minutes=contest.penalty_minutes,
        owner=owner.name if owner else None,
        problems=problems,
        participants=listed,
    )


def _entries(problems: list[ContestProblemIn]) -> list[ProblemEntry]:
    auto = rules.letters_for([p.problem for p in problems])
    return [ProblemEntry(p.letter or a.letter, p.problem, p.points) for p, a in zip(problems, auto)]


def _visible_contest(session: Session, user: User | None, contest_id: int) -> Contest:
    """The contest if ``user`` may look at it (jury, participant, or a public scoreboard), else 404."""
    contest = session.get(Contest, contest_id)
    if contest is None or (
        rules.scoreboard_access(session, user, contest) is None and not rules.is_participant(session, contest, user)
    ):
        raise HTTPException(404, f"no contest {contest_id}")
    return contest


def _jury_contest(session: Session, user: User, contest_id: int) -> Contest:
    """The contest if ``user`` is its jury; 404 if invisible to the user, 403 if only visible."""
    contest = _visible_contest(session, user, contest_id)
    if not rules.is_contest_jury(user, contest):
        raise HTTPException(403, "only the contest's teacher or an admin may do this")
    return contest


def _viewable_submission(session: Session, user: User, submission_id: int) -> Submission:
    """The submission if ``user`` may see it; 404 otherwise (another student's submission does not
    exist as far as a student can tell)."""
    row = session.get(Submission, submission_id)
    if row is None or not rules.can_view_submission(session, user, row):
        raise HTTPException(404, f"no submission {submission_id}")
    return row


def _board_view(session: Session, user: User | None, contest_id: int) -> tuple[Contest, str]:
    contest = session.get(Contest, contest_id)
    view = rules.scoreboard_access(session, user, contest) if contest else None
    if view is None:
        if contest is not None and user is None:
            raise HTTPException(
                401, "this scoreboard is not public: log in first", headers={"WWW-Authenticate": "Bearer"}
            )
        raise HTTPException(404, f"no scoreboard for contest {contest_id}")
    return contest, view


def _letters(session: Session, rows: list[Submission]) -> dict[tuple[int, str], str]:
    contest_ids = {r.contest_id for r in rows if r.contest_id}
    letters = {}
    for contest_id in contest_ids:
        for p in session.get(Contest, contest_id).problems:
            letters[(contest_id, p.problem_id)] = p.letter
    return letters


def _summaries(session: Session, rows: list[Submission]) -> list[SubmissionSummary]:
    names = dict(session.execute(select(User.id, User.name).where(User.id.in_({r.user_id for r in rows}))).all())
    letters = _letters(session, rows)
    return [
        SubmissionSummary(
            id=r.id,
            user=names.get(r.user_id),
            problem=r.problem_id,
            letter=letters.get((r.contest_id, r.problem_id)),
            language=r.language,
            status=r.status,
            verdict=r.verdict,
            is_jury=r.is_jury,
            created_at=r.created_at,
        )
        for r in rows
    ]


def _event_stream(request: Request, session: Session, feed, poll: float, max_seconds: float) -> StreamingResponse:
    # the request's session would keep its pooled connection for the stream's whole life (its
    # dependency ends with the response): 15 open streams then starved every other request
    session.close()
    return StreamingResponse(
        stream(feed, request.app.state.sessions, poll, max_seconds, request.is_disconnected),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# -- log in, accounts ---------------------------------------------------------------------------------
@router.post("/auth/token", response_model=TokenOut, tags=["auth"])
def log_in(form: OAuth2PasswordRequestForm = Depends(), session: Session = Depends(db_session)):
    """Trade a user name and password (form fields ``username``, ``password``) for a bearer token."""
    user = authenticate(session, form.username, form.password) if storable(form.username) else None
    if user is None:  # a name with a NUL character is no name (PostgreSQL cannot even look it up)
        raise HTTPException(401, "wrong user name or password", headers={"WWW-Authenticate": "Bearer"})
    token, expires = issue_token(session, user)
    return TokenOut(access_token=token, expires_at=_utc(expires), user=user_out(user))


@router.post("/auth/logout", status_code=204, tags=["auth"])
def log_out(request: Request, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """End the token this request carries."""
    revoke_token(session, request.headers["authorization"].split(None, 1)[1])


@router.get("/auth/me", response_model=UserOut, tags=["auth"])
def me(user: User = Depends(current_user)):
    """The logged-in account."""
    return user_out(user)


@router.get("/users", response_model=list[UserOut], tags=["users"])
def list_users(user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Every account (teachers and admins)."""
    return [user_out(u) for u in session.scalars(select(User).order_by(User.role, User.name))]


def _create_accounts(session: Session, creator: User, accounts: list[UserIn]) -> list[UserCreated]:
    """Create all of ``accounts`` or none: 403 when a teacher creates anything but students, 409 for
    a taken name, 422 for a bad one."""
    if creator.role != ADMIN and any(a.role != STUDENT for a in accounts):
        raise HTTPException(403, "a teacher may create student accounts only")
    created = []
    try:
        for account in accounts:
            user, password = create_user(session, account.name, account.role, account.display_name, account.password)
            created.append(UserCreated(user=user_out(user), password=password))
    except AccountError as exc:
        session.rollback()
        raise HTTPException(409 if "exists" in str(exc) else 422, str(exc)) from exc
    session.commit()
    return created


@router.post("/users", status_code=201, response_model=UserCreated, tags=["users"])
def add_user(body: UserIn, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Create an account (teachers: students only); a generated password is returned once."""
    return _create_accounts(session, user, [body])[0]


@router.post("/users/import", status_code=201, response_model=list[UserCreated], tags=["users"])
def import_users(
    body: Annotated[list[UserIn], Body(max_length=MAX_IMPORTED_USERS)],
    user: User = Depends(jury_user),
    session: Session = Depends(db_session),
):
    """Create a whole class at once (all or none); generated passwords are returned once."""
    return _create_accounts(session, user, body)


# -- contests ---------------------------------------------------------------------------------------
@router.get("/contests", response_model=list[ContestOut], tags=["contests"])
def list_contests(user: User = Depends(current_user), session: Session = Depends(db_session)):
    """The contests the caller takes part in or judges."""
    return [contest_out(session, c, user) for c in rules.contests_for(session, user)]


@router.post("/contests", status_code=201, response_model=ContestOut, tags=["contests"])
def add_contest(body: ContestIn, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Create a contest owned by the caller (404 unknown problem or participant, 422 bad times)."""
    spec = rules.ContestSpec(
        name=body.name,
        start_at=body.start_at,
        end_at=body.end_at,
        freeze_at=body.freeze_at,
        problems=_entries(body.problems),
        scoring=body.scoring,
        participants=body.participants,
        scoreboard_visibility=body.scoreboard_visibility,
        show_test_details=body.show_test_details,
        penalty_minutes=body.penalty_minutes,
    )
    return contest_out(session, rules.create_contest(session, spec, owner=user), user)


@router.get("/contests/{contest_id}", response_model=ContestOut, tags=["contests"])
def get_contest(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """A contest: window, freeze, scoring, and its problems once it has started."""
    return contest_out(session, _visible_contest(session, user, contest_id), user)


@router.patch("/contests/{contest_id}", response_model=ContestOut, tags=["contests"])
def change_contest(
    contest_id: PathId, body: ContestPatch, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Change a contest (its jury): only the fields sent change."""
    contest = _jury_contest(session, user, contest_id)
    sent = body.model_fields_set
    for name in ("name", "scoring", "scoreboard_visibility", "show_test_details", "penalty_minutes"):
        if name in sent and getattr(body, name) is not None:
            setattr(contest, name, getattr(body, name))
    for name in ("start_at", "end_at", "freeze_at"):
        if name in sent and (getattr(body, name) is not None or name == "freeze_at"):
            value = getattr(body, name)
            setattr(contest, name, rules.to_utc(value) if value else None)
    rules.check_contest(contest)
    if "problems" in sent and body.problems:
        rules.set_problems(session, contest, _entries(body.problems))
    if "participants" in sent:
        rules.set_participants(session, contest, body.participants)
    session.commit()
    return contest_out(session, contest, user)


@router.post("/contests/{contest_id}/unfreeze", response_model=ContestOut, tags=["contests"])
def unfreeze(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Reveal the frozen verdicts on the public scoreboard (the contest's jury)."""
    contest = _jury_contest(session, user, contest_id)
    contest.unfrozen = True
    session.commit()
    return contest_out(session, contest, user)


@router.get("/contests/{contest_id}/scoreboard", tags=["scoreboards"])
def scoreboard(contest_id: PathId, user: User | None = Depends(optional_user), session: Session = Depends(db_session)):
    """The scoreboard as JSON: live for the jury, frozen for everyone else after the freeze time.
    No token needed when the contest's scoreboard is public."""
    contest, view = _board_view(session, user, contest_id)
    return compute_scoreboard(session, contest, view).to_dict()


@router.get("/contests/{contest_id}/scoreboard.csv", response_class=PlainTextResponse, tags=["scoreboards"])
def scoreboard_as_csv(
    contest_id: PathId, user: User | None = Depends(optional_user), session: Session = Depends(db_session)
):
    """The scoreboard as CSV (same view rules as the JSON one)."""
    contest, view = _board_view(session, user, contest_id)
    return PlainTextResponse(scoreboard_csv(compute_scoreboard(session, contest, view)), media_type="text/csv")


@router.get("/contests/{contest_id}/grades.csv", response_class=PlainTextResponse, tags=["scoreboards"])
def grades(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Grades for the teacher: one row per contestant, per-problem result and total (live results)."""
    contest = _jury_contest(session, user, contest_id)
    return PlainTextResponse(
        grades_csv(compute_scoreboard(session, contest, JURY)),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="contest-{contest.id}-grades.csv"'},
    )


@router.get("/contests/{contest_id}/events", tags=["events"])
def contest_events(
    request: Request,
    contest_id: PathId,
    user: User | None = Depends(optional_user),
    session: Session = Depends(db_session),
    poll: float = Query(1.0, ge=0.05, le=30),
    max_seconds: float = Query(600, gt=0, le=3600),
):
    """Server-sent events: ``scoreboard`` (the board, at once and on every change in the caller's
    view) and ``verdict`` (the jury: every submission; a student: their own)."""
    contest, view = _board_view(session, user, contest_id)
    return _event_stream(request, session, ContestFeed(contest.id, user, view), poll, max_seconds)


@router.get("/contests/{contest_id}/submissions", response_model=list[SubmissionSummary], tags=["contests"])
def contest_submissions(contest_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """The contest's submissions: all of them for the jury, the caller's own for anyone else."""
    contest = _visible_contest(session, user, contest_id)
    query = select(Submission).where(Submission.contest_id == contest.id).order_by(Submission.id)
    if not rules.is_contest_jury(user, contest):
        query = query.where(Submission.user_id == user.id)
    return _summaries(session, list(session.scalars(query)))


@router.post("/contests/{contest_id}/rejudge", response_model=RejudgeOut, tags=["contests"])
def rejudge_contest(
    contest_id: PathId, body: RejudgeIn, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Rejudge a contest's submissions, or one problem's (letter), optionally only those not AC."""
    contest = _jury_contest(session, user, contest_id)
    problem_id = None
    if body.problem is not None:
        entry = rules.contest_problem(contest, body.problem)
        if entry is None:
            raise HTTPException(404, f"contest {contest_id} has no problem {body.problem!r}")
        problem_id = entry.problem_id
    return RejudgeOut(
        rejudged=rules.rejudge(session, contest_id=contest.id, problem_id=problem_id, only_non_ac=body.only_non_ac)
    )


# -- submissions ------------------------------------------------------------------------------------
@router.get("/submissions", response_model=list[SubmissionSummary], tags=["submissions"])
def my_submissions(
    user: User = Depends(current_user), session: Session = Depends(db_session), limit: int = Query(100, ge=1, le=1000)
):
    """The caller's own submissions, newest first."""
    rows = session.scalars(
        select(Submission).where(Submission.user_id == user.id).order_by(Submission.id.desc()).limit(limit)
    )
    return _summaries(session, list(rows))


@router.get("/submissions/{submission_id}/source", response_model=SourceOut, tags=["submissions"])
def submission_source(
    submission_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """A submission's source: its author and the jury only."""
    row = _viewable_submission(session, user, submission_id)
    return SourceOut(id=row.id, language=row.language, source=row.source)


@router.get("/submissions/{submission_id}/events", tags=["events"])
def submission_events(
    request: Request,
    submission_id: PathId,
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
    poll: float = Query(0.5, ge=0.05, le=30),
    max_seconds: float = Query(600, gt=0, le=3600),
):
    """Server-sent events of one submission: ``status``, ``test`` per finished test case (as much as
    the caller may see), ``verdict``, then the stream ends."""
    row = _viewable_submission(session, user, submission_id)
    level = rules.detail_level(session, user, row)
    return _event_stream(request, session, SubmissionFeed(row.id, level), poll, max_seconds)


@router.post("/submissions/{submission_id}/rejudge", response_model=RejudgeOut, tags=["submissions"])
def rejudge_submission(
    submission_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Rejudge one submission (the jury of its contest; for practice submissions, any teacher)."""
    row = _viewable_submission(session, user, submission_id)
    if user.role == STUDENT:
        raise HTTPException(403, "only a teacher or an admin may rejudge")
    return RejudgeOut(rejudged=rules.rejudge(session, submission_id=row.id))


# -- mounting ---------------------------------------------------------------------------------------
def include_contest_routes(app: FastAPI) -> None:
    """Mount the router on ``app``; refusals of the contest rules become JSON errors with their
    status (429 with ``Retry-After``). The rate limit comes from ``JUDGE_SUBMIT_INTERVAL_S``
    (seconds between two submissions of a student; default 10, 0 turns it off)."""
    app.state.submit_interval_s = float(os.environ.get("JUDGE_SUBMIT_INTERVAL_S", DEFAULT_SUBMIT_INTERVAL_S))

    @app.exception_handler(ContestRuleError)
    async def refused(_request: Request, exc: ContestRuleError):
        headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, RateLimited) else None
        return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=headers)

    app.include_router(router)
