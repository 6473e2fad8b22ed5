"""The teacher's pages in a real browser (Debian Chromium through Playwright) against a real server
and worker: a teacher runs a class contest from the browser alone. Each test saves screenshots (paths
printed) under the artifacts folder of ``tests/web/conftest.py``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from judge.clock import utcnow
from judge.contests import edit_contest
from judge.models import Contest, Submission
from judge.vocabulary import Verdict
from tests.web.conftest import REPO, screenshot, sign_in

pytestmark = pytest.mark.slow
BFS = REPO / "problems" / "lee" / "submissions" / "accepted" / "bfs.cpp"
NO_DIAGONALS = REPO / "problems" / "queens" / "submissions" / "wrong_answer" / "no_diagonals.py"
ZONE = "Europe/Bucharest"  # the teacher's browser: not the server's UTC, so the form must convert
SOLVED = re.compile(r"\bsolved\b")
FAILED = re.compile(r"\bfailed\b")


def _local(moment: datetime) -> str:
    """``moment`` as a ``datetime-local`` value in the teacher's zone."""
    return f"{moment.astimezone(ZoneInfo(ZONE)):%Y-%m-%dT%H:%M}"


@pytest.fixture
def contests_end(live_judge):
    """Ends every contest when the test does (their problems take practice submissions again)."""
    yield
    with live_judge.app.state.sessions() as session:
        soon = utcnow() + timedelta(seconds=1)
        for contest in session.scalars(select(Contest)):
            contest.end_at, contest.freeze_at = max(contest.start_at + timedelta(seconds=1), soon), None
        session.commit()


def test_a_teacher_runs_a_class_contest_in_the_browser(live_judge, browser, new_page, tmp_path, contests_end):
    live_judge.add_user("tina", "teacher", "Tina Teacher")
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=live_judge.url, timezone_id=ZONE)
    context.set_default_timeout(20_000)
    try:
        teacher = context.new_page()
        sign_in(teacher, "tina")

        # a contest with lee (A) and queens (B), typed in the teacher's own time zone
        teacher.get_by_role("link", name="Contests", exact=True).click()
        teacher.get_by_role("link", name="New contest").click()
        expect(teacher.locator("[data-zone-name]")).to_have_text(ZONE)
        now = datetime.now().astimezone()
        teacher.get_by_label("Name", exact=True).fill("Lab 7: <grids>")
        start = _local(now - timedelta(minutes=3))
        teacher.get_by_label("Start").fill(start)
        teacher.get_by_label("End").fill(_local(now - timedelta(hours=1)))  # a slip of the hand: before the start
        teacher.get_by_label("Problem 1", exact=True).select_option("lee")
        teacher.get_by_label("Problem 2", exact=True).select_option("queens")
        teacher.get_by_role("button", name="Create contest").click()
        expect(teacher.get_by_role("alert")).to_have_text("the contest must end after it starts")
        expect(teacher.get_by_label("Start")).to_have_value(start)  # kept as typed, in the same zone
        expect(teacher.get_by_label("Problem 2", exact=True)).to_have_value("queens")
        screenshot(teacher, "teacher-contest-refused-time")
        teacher.get_by_label("End").fill(_local(now + timedelta(hours=2)))
        teacher.get_by_role("button", name="Create contest").click()
        teacher.wait_for_url(re.compile(r"/teacher/contests/\d+$"))
        contest_id = int(teacher.url.rsplit("/", 1)[1])
        expect(teacher.get_by_role("heading", name="Lab 7: <grids>")).to_be_visible()
        expect(teacher.locator(".tag.live")).to_have_text("running")  # the zone was converted right
        screenshot(teacher, "teacher-contest-created")

        # a class from a CSV, and its password slips
        roster = tmp_path / "class-9b.csv"
        roster.write_text("name,display name\nira,Ira Ionescu\njon,Jon <b>Jonas</b>\n", encoding="utf-8")
        teacher.get_by_role("link", name="Users").click()
        teacher.get_by_label("CSV file").set_input_files(str(roster))
        teacher.get_by_role("button", name="Import and show the passwords").click()
        slips = teacher.locator(".slip")
        expect(slips).to_have_count(2)
        expect(slips.nth(1)).to_contain_text("Jon <b>Jonas</b>")  # shown as text
        password = slips.nth(0).locator(".slip-password").inner_text()
        assert re.fullmatch(r"[A-Za-z0-9_-]{12}", password)
        screenshot(teacher, "teacher-password-slips")
        teacher.emulate_media(media="print")
        expect(teacher.locator("header.top")).to_be_hidden()  # the printout is the slips alone
        expect(teacher.get_by_role("button", name="Print the slips")).to_be_hidden()
        screenshot(teacher, "teacher-password-slips-print")
        teacher.emulate_media(media="screen")

        # the jury page, open while a student of that class submits in the contest
        teacher.goto(f"/teacher/contests/{contest_id}")
        ira_row = teacher.locator("#board table.board tr", has_text="Ira Ionescu")
        expect(ira_row.locator("td.cell").first).not_to_have_class(SOLVED)
        teacher.evaluate("window.stillTheSamePage = true")
        student = new_page()
        sign_in(student, "ira", password)
        student.goto(f"/contests/{contest_id}")
        student.get_by_role("link", name="A", exact=True).click()
        student.locator("#file").set_input_files(str(BFS))
        student.get_by_role("button", name="Submit").click()
        student.wait_for_url("**/submissions/*")
        expect(student.locator("#results .big .verdict")).to_have_text("AC", timeout=120_000)
        expect(ira_row.locator("td.cell").first).to_have_class(SOLVED, timeout=30_000)
        assert teacher.evaluate("window.stillTheSamePage === true"), "the jury board changed by reloading"
        screenshot(teacher, "teacher-jury-board-live")

        # freeze from the edit form: the students' board hides what comes next, the jury's does not
        teacher.get_by_role("link", name="Edit").click()
        teacher.get_by_label("Freeze").fill(_local(datetime.now().astimezone()))
        screenshot(teacher, "teacher-contest-edit")
        teacher.get_by_role("button", name="Save").click()
        teacher.wait_for_url(re.compile(r"/teacher/contests/\d+$"))
        expect(teacher.locator(".tag.frozen")).to_contain_text("frozen")
        student.goto(f"/contests/{contest_id}/problems/B")
        student.locator("#language").select_option("python3")
        student.locator("#source").fill(NO_DIAGONALS.read_text())
        student.get_by_role("button", name="Submit").click()
        student.wait_for_url("**/submissions/*")
        expect(student.locator("#results .big .verdict")).to_have_text("WA", timeout=120_000)
        expect(ira_row.locator("td.cell").nth(1)).to_have_class(FAILED, timeout=30_000)  # the jury sees it
        student.goto(f"/contests/{contest_id}/scoreboard")
        expect(student.get_by_role("status")).to_contain_text("Frozen")
        student_cell = student.locator("table.board tr", has_text="Ira Ionescu").locator("td.cell").nth(1)
        expect(student_cell).not_to_have_class(FAILED)  # hidden: pending under the freeze
        # no unfreeze while the contest runs: the page says when instead
        expect(teacher.get_by_role("button", name="Unfreeze the scoreboard")).to_have_count(0)
        expect(teacher.locator("#unfreeze-note")).to_contain_text("once the contest is over")
        screenshot(teacher, "teacher-jury-board-frozen")
        with live_judge.app.state.sessions() as session:  # the contest's end comes: the window closes now
            contest = session.get(Contest, contest_id)
            assert contest is not None
            edit_contest(session, contest, {"end_at": utcnow(), "freeze_at": contest.freeze_at}, utcnow())
        teacher.reload()
        expect(teacher.locator("#unfreeze-note")).to_have_count(0)
        screenshot(teacher, "teacher-jury-board-over-frozen")
        teacher.get_by_role("button", name="Unfreeze the scoreboard").click()
        expect(teacher.get_by_role("button", name="Unfreeze the scoreboard")).to_have_count(0)
        expect(student_cell).to_have_class(FAILED, timeout=30_000)  # live on the student's open board
        expect(student.get_by_role("status")).to_have_count(0)

        # a judge error (as a broken worker leaves one) put right by rejudging problem A
        with live_judge.app.state.sessions() as session:
            ac = session.scalars(
                select(Submission).where(Submission.contest_id == contest_id).order_by(Submission.id)
            ).first()
            assert ac is not None and ac.verdict == Verdict.AC
            ac.verdict = Verdict.JE
            session.commit()
        teacher.reload()
        teacher.get_by_label("Problem to rejudge").select_option("A")
        teacher.get_by_role("button", name="Rejudge").click()
        teacher.wait_for_url("**/teacher/rejudged?*")
        report = teacher.locator("#rejudged")
        changed = report.locator("tr.changed")
        expect(changed).to_have_count(1, timeout=120_000)
        expect(changed).to_contain_text("JE")
        expect(changed.locator(".verdict.v-AC")).to_be_visible()
        expect(report).to_contain_text("1 verdict changed")
        expect(report).to_contain_text("all 1 judged again")
        screenshot(teacher, "teacher-rejudge-changed")

        teacher.goto(f"/teacher/submissions?contest={contest_id}")
        expect(teacher.locator("table.submissions tbody tr")).to_have_count(2)
        screenshot(teacher, "teacher-submissions")
        teacher.goto("/teacher/workers")
        expect(teacher.locator("table.workers")).to_contain_text("alive")
        screenshot(teacher, "teacher-workers")
    finally:
        context.close()


def test_the_teacher_pages_fit_a_phone(live_judge, new_page):
    live_judge.add_user("tpho", "teacher")
    page = new_page(390, 844)
    sign_in(page, "tpho")
    pages = ("/teacher/contests", "/teacher/contests/new", "/teacher/submissions", "/teacher/users")
    for path in (*pages, "/teacher/problems"):
        page.goto(path)
        expect(page.locator("main h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide on a 390 px phone"
        screenshot(page, "teacher-phone" + path.replace("/", "-"))
