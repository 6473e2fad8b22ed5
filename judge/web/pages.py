"""The student-facing pages: sign in and out, home, problems, submitting, submissions, contests and
scoreboards, with live updates over the same server-sent events as the API.

Every page asks the same rules the API asks (``judge.contests``, ``judge.auth``, ``judge.scoreboard``,
``judge.api.lookups``) and submits through the API's own rules (``judge.accept``, with the API's
request body ``SubmissionIn``). The event streams here are the API's feeds (``judge.events``) authorised
by the session cookie instead of a bearer header, since a browser's ``EventSource`` cannot send one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, Form, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.accept import accept_submission
from judge.api.body_limit import mebibytes
from judge.api.contests import contest_out
from judge.api.lookups import board_view, events_view, viewable_submission, visible_contest
from judge.api.submission_view import submission_out
from judge.api.submissions import SubmissionIn
from judge.auth import check_login, db_session, issue_token, revoke_token
from judge.contests import ContestRuleError, RateLimited
from judge.events import ContestFeed, SubmissionFeed, event_response
from judge.languages import LANGUAGES, NoLanguage, Python2Program, accepted_extensions, detect_program
from judge.models import Contest, ContestProblem, Problem, Submission, TestResult, User, utcnow
from judge.package.statements import statement_file
from judge.package.testdata import is_sample_group
from judge.package_store import cached_package
from judge.packages import PackageError, ProblemPackage
from judge.pictures import render_picture
from judge.schemas import PathId, storable, whole_number
from judge.scoreboard import board_key, compute_scoreboard
from judge.throttle import client_address
from judge.vocabulary import DetailLevel, ScoreboardView
from judge.web.clarifications import clarification_context
from judge.web.render import page, statement_html, templates
from judge.web.routing import PageRoute, error_page, from_htmx, local_path, referring_page, status_and_reason
from judge.web.session import check_csrf, end_session, session_token, set_cookies, signed_in, viewer

router = APIRouter(route_class=PageRoute, include_in_schema=False)
LANGUAGE_COOKIE = "statement_lang"
LATEST_VERDICTS = 10
MY_SUBMISSIONS = 200
SSE_POLL_S, SSE_MAX_S = 0.5, 600.0
csrf = [Depends(check_csrf)]


def _redirect(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


# -- signing in ------------------------------------------------------------------------------------
@router.get("/login")
def login_form(request: Request, next: str = "/", user: User | None = Depends(viewer)):
    """The sign-in form (a signed-in user goes on to ``next``)."""
    if user is not None:
        return _redirect(local_path(next))
    return page(request, "login.html", user=None, next_path=local_path(next))


@router.post("/login", dependencies=csrf)
def login(
    request: Request,
    username: str = Form(""),
    password: str = Form(""),
    next: str = Form("/"),
    session: Session = Depends(db_session),
):
    """Check the name and password (``judge.auth.check_login``, throttled as the API's login: 429 page);
    on success the session cookie carries a fresh API token."""
    user = check_login(session, request.app.state.logins, username, password, client_address(request))
    if user is None:
        return page(
            request, "login.html", status=401, user=None, next_path=local_path(next), name=username, failed=True
        )
    token, _ = issue_token(session, user)
    response = _redirect(local_path(next))
    set_cookies(request, response, token)
    return response


@router.post("/logout", dependencies=csrf)
def logout(request: Request, session: Session = Depends(db_session)):
    """End the session's token (the API forgets it too) and drop the cookies."""
    token = session_token(request)
    if token:
        revoke_token(session, token)
    response = _redirect("/login")
    end_session(response)
    return response


@dataclass(frozen=True)
class PracticeLock:
    """A problem a running contest holds (no practice submissions until it ends, as ``POST
    /api/v1/submissions`` refuses them): that contest's id when the viewer may know it exists
    (``judge.contests.contest_visible``), else None and the page names no contest."""

    contest_id: int | None


def practice_lock(session: Session, user: User | None, problem_id: str, now: datetime) -> PracticeLock | None:
    """The lock on practising ``problem_id`` at ``now`` (UTC) for ``user``, or None when no running
    contest it takes part in has it (a visitor: any running contest)."""
    running = rules.running_contest_of(session, problem_id, now, user)
    contest = session.get(Contest, running) if running is not None else None
    if contest is None:
        return None
    return PracticeLock(contest.id if rules.contest_visible(session, user, contest) else None)


# -- home -----------------------------------------------------------------------------------------
@router.get("/")
def home(request: Request, user: User | None = Depends(viewer), session: Session = Depends(db_session)):
    """Running and upcoming contests, practice problems, the latest verdicts; for a visitor not signed
    in, the sign-in form (the start page, not a refusal: no 401)."""
    if user is None:
        return page(request, "login.html", user=None, next_path="/")
    now = utcnow()
    contests = [c for c in rules.contests_for(session, user) if c.end_at > now]
    problems = [(p, practice_lock(session, user, p.id, now)) for p in rules.listed_problems(session, user, now)]
    latest = session.scalars(
        select(Submission).where(Submission.user_id == user.id).order_by(Submission.id.desc()).limit(LATEST_VERDICTS)
    ).all()
    return page(
        request,
        "home.html",
        user=user,
        now=now,
        contests=contests,
        problems=problems,
        latest=latest,
        contest_names=contest_names(session, latest),
        labels=problem_labels(session, latest),
    )


def contest_names(session: Session, submissions: Sequence[Submission]) -> dict[int, str]:
    """The name of each contest ``submissions`` were made in, by contest id (the submission tables show it)."""
    ids = {s.contest_id for s in submissions if s.contest_id is not None}
    if not ids:
        return {}
    return {i: name for i, name in session.execute(select(Contest.id, Contest.name).where(Contest.id.in_(ids)))}


@dataclass(frozen=True)
class ProblemLabel:
    """How a submission's problem is named where the submission is listed or shown: a contest's letter
    for it (None in practice, or when the contest no longer has it) with the problem's name, as
    contest judges name problems, and the problem's page for its contest (or for practice)."""

    letter: str | None
    name: str
    href: str


def problem_labels(session: Session, submissions: Sequence[Submission]) -> dict[int, ProblemLabel]:
    """The ``ProblemLabel`` of each of ``submissions``, by submission id. Two queries at most."""
    contest_ids = {s.contest_id for s in submissions if s.contest_id is not None}
    letters: dict[tuple[int, str], str] = {}
    if contest_ids:
        entries = select(ContestProblem).where(ContestProblem.contest_id.in_(contest_ids))
        letters = {(e.contest_id, e.problem_id): e.letter for e in session.scalars(entries)}
    names: dict[str, str] = {}
    if submissions:
        problems = select(Problem).where(Problem.id.in_({s.problem_id for s in submissions}))
        names = {p.id: p.name for p in session.scalars(problems)}
    labels = {}
    for s in submissions:
        letter = letters.get((s.contest_id, s.problem_id)) if s.contest_id is not None else None
        href = f"/contests/{s.contest_id}/problems/{letter}" if letter else f"/problems/{s.problem_id}"
        labels[s.id] = ProblemLabel(letter, names.get(s.problem_id, s.problem_id), href)
    return labels


# -- problems and submitting ------------------------------------------------------------------------
@dataclass
class SubmitForm:
    """What the submit form shows again after a refusal: the text, the language, the reason, the wait."""

    source: str = ""
    language: str = ""
    error: str | None = None
    wait_s: int | None = None


def _package(request: Request, session: Session, row: Problem) -> ProblemPackage:
    try:
        return cached_package(session, row.package_sha256, row.id, request.app.state.settings.work_dir / "packages")
    except PackageError as exc:
        raise HTTPException(500, f"the package of {row.id} cannot be read: {exc}") from exc


def _problem_page(
    request: Request,
    session: Session,
    user: User | None,
    row: Problem,
    contest: Contest | None = None,
    letter: str | None = None,
    form: SubmitForm | None = None,
    status: int = 200,
    lang: str | None = None,
) -> Response:
    package = _package(request, session, row)
    remembered = request.cookies.get(LANGUAGE_COOKIE)
    shown = next((l for l in (lang, remembered) if l in package.statements), "en")
    samples = [
        (
            t.name,
            t.input_path.read_text(errors="replace"),
            t.answer_path.read_text(errors="replace"),
            package.interaction(t),
        )
        for t in package.tests
        if t.sample
    ]
    path = package.statement_path(shown)
    try:
        title, statement = statement_html(row.package_sha256, shown, row.id, path) if path else (None, Markup(""))
    except PackageError as exc:
        raise HTTPException(500, f"the statement of {row.id} cannot be shown: {exc}") from exc
    now = utcnow()
    lock = None if contest or rules.is_jury(user) else practice_lock(session, user, row.id, now)
    response = page(
        request,
        "problem.html",
        status=status,
        headers={"Retry-After": str(form.wait_s)} if form and form.wait_s else None,
        user=user,
        problem=row,
        package=package,
        title=title or package.title(shown),
        statement=statement,
        statement_language=shown,
        statement_languages=sorted(package.statements),
        samples=samples,
        contest=contest,
        letter=letter,
        practice_lock=lock,
        languages=list(LANGUAGES.values()),
        accepted=ACCEPTED,
        form=form or SubmitForm(),
    )
    if lang and lang in package.statements:  # the switch is remembered for every problem
        response.set_cookie(LANGUAGE_COOKIE, lang, max_age=365 * 86400, samesite="lax", httponly=True)
    return response


def _visible_problem(session: Session, user: User | None, problem_id: str) -> Problem:
    row = session.get(Problem, problem_id) if storable(problem_id) else None
    if row is None or not rules.problem_visible(session, user, problem_id, utcnow()):
        raise HTTPException(404, f"there is no problem {problem_id!r}")
    return row


@router.get("/problems/{problem_id}")
def problem_page(
    request: Request,
    problem_id: str,
    lang: str | None = None,
    user: User | None = Depends(viewer),
    session: Session = Depends(db_session),
):
    """A problem for practice: statement (``?lang=ro`` switches and remembers), limits, samples, submit."""
    return _problem_page(request, session, user, _visible_problem(session, user, problem_id), lang=lang)


def _contest_entry(session: Session, user: User, contest_id: int, letter: str):
    contest = visible_contest(session, user, contest_id)
    shown = rules.problems_shown(contest, rules.is_contest_jury(user, contest), utcnow())
    entry = rules.contest_problem(contest, letter) if shown and storable(letter) else None
    row = session.get(Problem, entry.problem_id) if entry is not None else None
    if entry is None or row is None:
        raise HTTPException(404, f"contest {contest_id} has no problem {letter!r}")
    return contest, entry, row


# A package's SVG picture is the package author's markup: opened as a page of its own, it may load
# nothing, run no script and is put in a unique origin (CSP ``sandbox``), so it reaches no cookie or page.
PICTURE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"


@router.get("/problems/{problem_id}/statement/{name}")
def statement_picture(
    request: Request,
    problem_id: str,
    name: str,
    user: User | None = Depends(viewer),
    session: Session = Depends(db_session),
):
    """A picture of a problem's statement: only a file of the statement's own folder, to whoever may
    see the problem (404 for anything else). Served under ``PICTURE_POLICY``: an SVG opened on its
    own runs none of its scripts in this site's origin."""
    package = _package(request, session, _visible_problem(session, user, problem_id))
    picture = next((f for s in package.statements.values() if (f := statement_file(s, name)) is not None), None)
    if picture is None:
        raise HTTPException(404, f"the statement of {problem_id} has no picture {name!r}")
    headers = {
        "Cache-Control": "private, max-age=3600",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": PICTURE_POLICY,
    }
    return FileResponse(picture, headers=headers)


@router.get("/contests/{contest_id}/problems/{letter}")
def contest_problem_page(
    request: Request,
    contest_id: PathId,
    letter: str,
    lang: str | None = None,
    user: User = Depends(signed_in),
    session: Session = Depends(db_session),
):
    """A contest's problem by letter; the submit form sends to the contest."""
    contest, entry, row = _contest_entry(session, user, contest_id, letter)
    return _problem_page(request, session, user, row, contest, entry.letter, lang=lang)


def _guessed_language(file_name: str, source: str) -> str:
    """The language id of an uploaded file as the format's language list tells it (by extension;
    a ``python2`` shebang is Python 2), or '' when none fits. Raises HTTPException (422) for a
    Python 2 file: this judge has no Python 2 and does not run it as Python 3."""
    try:
        return detect_program({file_name: source}).language.id
    except Python2Program as exc:
        raise HTTPException(422, str(exc)) from None
    except NoLanguage:
        return ""


def unguessed_language(file_name: str) -> str:
    """Why a file sent with no language chosen is refused when its extension names none (app.js says
    the same in the page as soon as the file is chosen), with the languages this judge accepts."""
    extension = PurePosixPath(file_name).suffix
    ending = f"its extension {extension}" if extension else "its name, which has no extension"
    return f"the language of {file_name} cannot be guessed from {ending}: choose it in the list. {ACCEPTED}"


ACCEPTED = f"Accepted: {accepted_extensions()}."


async def _source_text(upload: UploadFile | None, pasted: str, limit: int) -> tuple[str, str | None]:
    """The submitted text (a chosen file wins over pasted text) and the file's name, if any.

    Raises HTTPException 413 past ``limit`` bytes, 422 for a file that is not UTF-8 text."""
    if upload is None or not upload.filename:
        return pasted.replace("\r\n", "\n"), None
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise HTTPException(413, f"the file is over {limit} bytes")
    try:
        return data.decode("utf-8"), upload.filename
    except UnicodeDecodeError as exc:
        raise HTTPException(422, f"{upload.filename} is not UTF-8 text") from exc


# the problem pages a submission is sent from (``referring_page``'s path)
PRACTICE_PAGE = re.compile(r"/problems/(?P<problem>[^/]+)")
CONTEST_PAGE = re.compile(r"/contests/(?P<contest>[0-9]{1,9})/problems/(?P<letter>[^/]+)")


def too_large_page(request: Request, limit_bytes: int) -> Response:
    """The answer (413) to a form whose body is over ``limit_bytes``, unread (``judge.api.body_limit``):
    for a submission sent from a problem page (its ``Referer``), that page again with the reason, as
    ``submit`` tells a file over the source limit; for any other form, or a problem the viewer may
    not see, the refusal page."""
    size = mebibytes(limit_bytes)
    if request.url.path != "/submit":
        return error_page(request, 413, f"the form sent is over {size} ({limit_bytes} bytes), the most a page takes")
    max_source = request.app.state.settings.max_source_bytes
    message = f"the submission is over {size}: a source may be at most {max_source} bytes"
    path = unquote((referring_page(request) or "").split("?", 1)[0])
    practice, in_contest = PRACTICE_PAGE.fullmatch(path), CONTEST_PAGE.fullmatch(path)
    if practice or in_contest:
        form = SubmitForm(error=message)
        with request.app.state.sessions() as session:
            user = viewer(request, session)
            try:
                if in_contest and user is not None:
                    target, entry, row = _contest_entry(session, user, int(in_contest["contest"]), in_contest["letter"])
                    return _problem_page(request, session, user, row, target, entry.letter, form, 413)
                if practice:
                    row = _visible_problem(session, user, practice["problem"])
                    return _problem_page(request, session, user, row, form=form, status=413)
            except (HTTPException, ContestRuleError):
                pass  # no such page for this viewer: the refusal page alone
    return error_page(request, 413, message)


@router.post("/submit", dependencies=csrf)
async def submit(
    request: Request,
    problem: str = Form(...),
    contest: str = Form(""),
    language: str = Form(""),
    source: str = Form(""),
    file: UploadFile | None = None,
    user: User = Depends(signed_in),
    session: Session = Depends(db_session),
):
    """Queue a submission and go to its page; a refusal shows the problem again with the reason
    (the rate limit as a countdown) and the source kept, or, for a contest problem the viewer may
    not see (``judge.contests.problems_shown``), the refusal page with the rule's own status and reason."""
    contest_id = whole_number(contest)
    if contest and contest_id is None:  # the page's hidden field, changed: not a practice submission
        raise HTTPException(422, f"contest must be a contest id, not {contest[:40]!r}")
    form = SubmitForm(language=language)
    try:
        form.source, file_name = await _source_text(file, source, request.app.state.settings.max_source_bytes)
        if not language and file_name:
            form.language = _guessed_language(file_name, form.source)
            if not form.language:
                raise HTTPException(422, unguessed_language(file_name))
        body = SubmissionIn(problem=problem, contest=contest_id, language=form.language, source=form.source)
        created = accept_submission(session, request.app.state.settings, user, **body.rule_arguments())
        return _redirect(f"/submissions/{created.id}")
    except RateLimited as exc:
        session.rollback()
        form.wait_s, status, limited = exc.retry_after_s, 429, exc
    except (HTTPException, ContestRuleError) as exc:
        session.rollback()
        status, form.error = status_and_reason(exc)
    except ValidationError as exc:
        status, form.error = 422, "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    if contest_id is not None:
        try:
            target, entry, row = _contest_entry(session, user, contest_id, problem)
        except HTTPException:  # no problem page to show it on (hidden or unknown): the rule's refusal alone
            if form.wait_s:
                raise limited from None
            raise ContestRuleError(status, form.error or "") from None
        return _problem_page(request, session, user, row, target, entry.letter, form, status)
    return _problem_page(request, session, user, _visible_problem(session, user, problem), form=form, status=status)


# -- submissions ------------------------------------------------------------------------------------
@router.get("/submissions")
def my_submissions(request: Request, user: User = Depends(signed_in), session: Session = Depends(db_session)):
    """The viewer's own submissions, newest first."""
    rows = session.scalars(
        select(Submission).where(Submission.user_id == user.id).order_by(Submission.id.desc()).limit(MY_SUBMISSIONS)
    ).all()
    return page(
        request,
        "submissions.html",
        user=user,
        submissions=rows,
        contest_names=contest_names(session, rows),
        labels=problem_labels(session, rows),
    )


@dataclass
class TestLine:
    """One test as the page shows it: the API's view of it; whether its CPU time and memory are
    hidden from the viewer (a secret test below the jury's detail level: ``judge.contests.shown_test``);
    for a test shown whole the checker's feedback picture and, for a sample, the expected and received
    output side by side."""

    view: object
    hidden: bool = False
    picture: object = None
    diff: list[tuple[str, str, bool]] | None = None

    @property
    def differs(self) -> bool:
        """Whether the output shown beside the judge answer differs from it on some line."""
        return any(differs for _, _, differs in self.diff or ())


def side_by_side(expected: str, received: str) -> list[tuple[str, str, bool]]:
    """Lines of ``expected`` and ``received`` paired as difflib aligns them, with whether they differ
    (surrounding blanks ignored)."""
    a, b = expected.splitlines(), received.splitlines()
    lines = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            x = left[k] if k < len(left) else ""
            y = right[k] if k < len(right) else ""
            lines.append((x, y, tag != "equal" and x.split() != y.split()))
    return lines


def _test_lines(request: Request, session: Session, user: User, row: Submission):
    view = submission_out(session, row, user)
    level = rules.detail_level(session, user, row)
    stored = {
        r.ordinal: r
        for r in session.scalars(
            select(TestResult).where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
        )
    }
    answers: dict[str, str] = {}
    lines = []
    for result in view.results:
        stored_result = stored.get(result.ordinal)
        line = TestLine(result, hidden=level == DetailLevel.VERDICTS and not is_sample_group(result.group))
        if stored_result is not None and rules.shown_whole(stored_result, level):
            line.picture = render_picture(stored_result.feedback)  # None for no or malformed feedback
            received = stored_result.output
            if is_sample_group(stored_result.test_group) and received is not None:
                if not answers:
                    problem = session.get(Problem, row.problem_id)
                    assert problem is not None  # a submission's problem is a foreign key
                    package = _package(request, session, problem)
                    answers = {t.name: t.answer_path.read_text(errors="replace") for t in package.tests}
                line.diff = side_by_side(answers.get(stored_result.test_name, ""), received)
        lines.append(line)
    return view, lines


def _submission_context(request: Request, session: Session, user: User, submission_id: int) -> dict:
    row = viewable_submission(session, user, submission_id)
    view, lines = _test_lines(request, session, user, row)
    contest = session.get(Contest, row.contest_id) if row.contest_id else None
    label = problem_labels(session, [row])[row.id]
    return dict(user=user, submission=view, row=row, tests=lines, contest=contest, label=label)


@router.get("/submissions/{submission_id}")
def submission_page(
    request: Request, submission_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """One submission: verdict, compile output, each test (live while judging), the source."""
    return page(request, "submission.html", **_submission_context(request, session, user, submission_id))


@router.get("/submissions/{submission_id}/results")
def submission_results(
    request: Request, submission_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """The live part of the submission page, as htmx fetches it again on each event; a visit of the
    address itself goes to the submission's page."""
    context = _submission_context(request, session, user, submission_id)
    if not from_htmx(request):
        return _redirect(f"/submissions/{submission_id}")
    return page(request, "submission_results.html", headers={"Vary": "HX-Request"}, **context)


@router.get("/submissions/{submission_id}/events")
def submission_events(
    request: Request, submission_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """The API's submission event stream (``judge.events.SubmissionFeed``) for the signed-in viewer."""
    row = viewable_submission(session, user, submission_id)
    feed = SubmissionFeed(row.id, rules.detail_level(session, user, row))
    return event_response(request, session, user, feed, SSE_POLL_S, SSE_MAX_S)


# -- contests and scoreboards -----------------------------------------------------------------------
@router.get("/contests")
def my_contests(request: Request, user: User = Depends(signed_in), session: Session = Depends(db_session)):
    """The contests the viewer may see (``judge.contests.contests_for``): running, upcoming (soonest
    first) and over (latest first), each linked to its page."""
    now = utcnow()
    rows = rules.contests_for(session, user)
    return page(
        request,
        "contests.html",
        user=user,
        now=now,
        running=[c for c in rows if c.start_at <= now < c.end_at],
        upcoming=[c for c in rows if now < c.start_at],
        over=sorted((c for c in rows if c.end_at <= now), key=lambda c: c.end_at, reverse=True),
    )


@router.get("/contests/{contest_id}")
def contest_page(
    request: Request, contest_id: PathId, user: User = Depends(signed_in), session: Session = Depends(db_session)
):
    """A contest: its problems by letter with the viewer's state on each, and the time left."""
    contest = visible_contest(session, user, contest_id)
    mine = session.scalars(
        select(Submission)
        .where(Submission.contest_id == contest.id, Submission.user_id == user.id)
        .order_by(Submission.id)
    ).all()
    state: dict[str, list[Submission]] = {}
    for s in mine:
        state.setdefault(s.problem_id, []).append(s)
    return page(
        request,
        "contest.html",
        user=user,
        contest=contest,
        info=contest_out(session, contest, user),
        mine=state,
        board=rules.scoreboard_access(session, user, contest) is not None,
        now=utcnow(),
        **clarification_context(session, contest, user),
    )


class BoardTables:
    """Rendered scoreboard tables by (database, contest id, view), reused while the board's key
    (``judge.scoreboard.board_key``: the contest's board version and what the clock decides) stays
    the same. At most ``size`` tables, oldest dropped."""

    def __init__(self, size: int = 32):
        self.size = size
        self.tables: dict[tuple[str, int, str], tuple[tuple, Markup]] = {}

    def table(self, session: Session, contest: Contest, view: ScoreboardView) -> Markup:
        """The ``scoreboard_table.html`` of the contest in ``view``, from the cache when unchanged."""
        now = utcnow()
        fingerprint = board_key(session, contest, view, now)
        key = (repr(session.get_bind()), contest.id, view)  # one process may serve two databases (tests)
        cached = self.tables.get(key)
        if cached is not None and cached[0] == fingerprint:
            return cached[1]
        board = compute_scoreboard(session, contest, view, now)
        table = Markup(templates.get_template("scoreboard_table.html").render(board=board))
        self.tables.pop(key, None)
        self.tables[key] = (fingerprint, table)
        while len(self.tables) > self.size:
            self.tables.pop(next(iter(self.tables)))
        return table


board_tables = BoardTables()


def _board(
    session: Session, user: User | None, contest_id: int, view: ScoreboardView
) -> tuple[Contest, ScoreboardView]:
    """The contest and ``view`` of its scoreboard when ``user`` may see it (``board_view``'s refusals
    otherwise); the jury's live view only for the contest's jury (403 for anyone else)."""
    contest, allowed = board_view(session, user, contest_id)
    if view == ScoreboardView.JURY and allowed != ScoreboardView.JURY:
        raise HTTPException(403, "only the contest's jury sees the live scoreboard")
    return contest, view


def _board_context(session: Session, user: User | None, contest_id: int, view: ScoreboardView) -> dict:
    contest, view = _board(session, user, contest_id, view)
    jury = rules.is_contest_jury(user, contest)
    return dict(user=user, contest=contest, jury=jury, table=board_tables.table(session, contest, view))


@router.get("/contests/{contest_id}/scoreboard")
def scoreboard_page(
    request: Request,
    contest_id: PathId,
    user: User | None = Depends(viewer),
    session: Session = Depends(db_session),
):
    """The public scoreboard (frozen after the freeze), updated live; whoever opens it, the jury
    included, sees what the students see (the jury's live board is on the teacher's contest page)."""
    return page(request, "scoreboard.html", **_board_context(session, user, contest_id, ScoreboardView.PUBLIC))


@router.get("/contests/{contest_id}/scoreboard/projector")
def projector_page(
    request: Request, contest_id: PathId, user: User | None = Depends(viewer), session: Session = Depends(db_session)
):
    """The public scoreboard for a projector (what the class sees, whoever opens it): large, full
    screen, scrolling on its own."""
    return page(request, "projector.html", **_board_context(session, user, contest_id, ScoreboardView.PUBLIC))


@router.get("/contests/{contest_id}/scoreboard/table")
def scoreboard_table(
    request: Request,
    contest_id: PathId,
    view: ScoreboardView = ScoreboardView.PUBLIC,
    user: User | None = Depends(viewer),
    session: Session = Depends(db_session),
):
    """The scoreboard's table alone in ``view`` (``jury``: the contest's jury only), as htmx fetches it
    again on each ``scoreboard`` event; a visit of the address itself goes to the page that shows
    it (the jury's contest page for ``jury``)."""
    table = _board_context(session, user, contest_id, view)["table"]
    if not from_htmx(request):
        jury = view == ScoreboardView.JURY
        return _redirect(f"/teacher/contests/{contest_id}#jury-board" if jury else f"/contests/{contest_id}/scoreboard")
    return HTMLResponse(table, headers={"Vary": "HX-Request"})


@router.get("/contests/{contest_id}/events")
def contest_events(
    request: Request,
    contest_id: PathId,
    view: ScoreboardView = ScoreboardView.PUBLIC,
    user: User | None = Depends(viewer),
    session: Session = Depends(db_session),
):
    """The API's contest event stream (``judge.events.ContestFeed``) of the board in ``view``
    (``jury``: the contest's jury only) for the signed-in viewer; without the board for a viewer
    who sees the contest but not its scoreboard (its clarifications, ``judge.api.lookups.events_view``)."""
    contest, allowed = events_view(session, user, contest_id)
    if view == ScoreboardView.JURY and allowed != ScoreboardView.JURY:
        raise HTTPException(403, "only the contest's jury sees the live scoreboard")
    feed = ContestFeed(contest.id, user, view if allowed is not None else None)
    return event_response(request, session, user, feed, SSE_POLL_S * 2, SSE_MAX_S)


def login_redirect(path: str) -> str:
    """The sign-in page's address that comes back to ``path``."""
    return "/login?next=" + quote(local_path(path), safe="/")
