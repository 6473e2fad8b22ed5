"""The pages in a real browser (Debian Chromium through Playwright) against a real server and worker:
what a student and a teacher do, seen as they see it. Each test saves a screenshot (path printed)."""

from __future__ import annotations

import importlib.util
import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import REPO, screenshot, sign_in

pytestmark = pytest.mark.slow
BFS = REPO / "problems" / "lee" / "submissions" / "accepted" / "bfs.cpp"
# prints a shortest path's length with a path that walks through the wall on row 2 (sample 01)
WRONG_PATH_PY = "print(8)\n" + "".join(f"print({r}, 1)\n" for r in range(1, 6)) + "\n"
SOLVED, PENDING = re.compile(r"\bsolved\b"), re.compile(r"\bpending\b")
CE_SCRIPT = "#error \"<script>document.title='owned'</script>\"\nint main() {}\n"


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def test_student_reads_lee_uploads_cpp_and_watches_the_verdict_arrive(live_judge, new_page):
    live_judge.add_user("ana", display_name="Ana Popescu")
    page = new_page()
    page.goto("/")  # the start page: the sign-in form, no alarm
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    screenshot(page, "sign-in-start")
    page.goto("/submissions")
    expect(page.get_by_role("heading", name="Please sign in")).to_be_visible()  # 401: the form, right there
    screenshot(page, "sign-in-needed")
    sign_in(page, "ana")
    page.goto("/")
    expect(page.get_by_role("heading", name="Hello, Ana Popescu")).to_be_visible()
    screenshot(page, "student-home")
    page.get_by_role("link", name="The mouse and the cheese").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The mouse and the cheese")
    expect(page.locator("article.statement")).to_contain_text("cheese")
    expect(page.locator("article.statement button.copy").first).to_be_visible()  # on the examples
    page.get_by_text("Sample tests as the judge runs them").click()
    expect(page.locator(".sample pre").first).to_be_visible()
    screenshot(page, "student-lee-statement")
    live_judge.gate.clear()  # the worker waits: the page must show the submission before its verdict
    page.locator("#file").set_input_files(str(BFS))
    expect(page.locator("#language")).to_have_value("cpp")  # chosen from the .cpp extension
    page.get_by_role("button", name="Submit").click()
    page.wait_for_url("**/submissions/*")
    expect(page.locator("#results .big .verdict")).to_contain_text("queued")
    page.evaluate("window.stillTheSamePage = true")
    live_judge.gate.set()
    expect(page.locator("#results .big .verdict")).to_have_text("AC", timeout=120_000)
    expect(page.locator("#results")).to_contain_text("tests passed")
    assert page.evaluate("window.stillTheSamePage === true"), "the verdict came by reloading the page"
    rows = page.locator("table.tests tbody tr[id^=test-]")
    assert rows.count() >= 3
    expect(rows.first).to_contain_text("ms")
    screenshot(page, "student-lee-accepted-live")


def _student_page(live_judge, new_page, name: str, display_name: str | None = None):
    """A browser page signed in as a new student ``name``; its dialogs are dismissed and kept in
    ``page.dialogs``."""
    live_judge.add_user(name, display_name=display_name)
    page = new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    sign_in(page, name)
    return page


def _fill_submission(page, problem: str, language: str, source: str) -> None:
    """Open ``problem`` and type a submission into its form (not sent yet)."""
    page.goto(f"/problems/{problem}")
    page.locator("#language").select_option(language)
    page.locator("#source").fill(source)


def test_a_wrong_path_on_a_sample_shows_its_picture(live_judge, new_page):
    page = _student_page(live_judge, new_page, "bob")
    _fill_submission(page, "lee", "python3", WRONG_PATH_PY)
    page.get_by_role("button", name="Submit").click()
    page.wait_for_url("**/submissions/*")
    expect(page.locator("#results .big .verdict")).to_have_text("WA", timeout=120_000)
    sample = page.locator("tr#test-1")
    expect(sample).to_contain_text("WA")
    diff = page.locator("table.diff").first  # expected beside received, the differing lines marked
    expect(diff.locator("tr.differs").first).to_be_visible()
    expect(diff).to_contain_text("2 1")  # received: the walk down column 1
    expect(diff).to_contain_text("1 2")  # expected: the reference path along row 1
    screenshot(page, "student-lee-wrong-path")
    if importlib.util.find_spec("judge.pictures") is None:
        pytest.skip("judge.pictures (render_picture, TestResult.feedback) is not on this branch yet")
    expect(page.locator(".picture svg").first).to_be_visible()


def _contest(live_judge, teacher: dict, name: str, freeze_minutes_ago: int | None = None) -> int:
    now = datetime.now(UTC)
    body = {
        "name": name,
        "start_at": _iso(now - timedelta(minutes=10)),
        "end_at": _iso(now + timedelta(hours=2)),
        "problems": [{"problem": "lee"}, {"problem": "snakes"}],
        "scoreboard_visibility": "participants",
    }
    if freeze_minutes_ago is not None:
        body["freeze_at"] = _iso(now - timedelta(minutes=freeze_minutes_ago))
    answer = httpx.post(f"{live_judge.url}/api/v1/contests", json=body, headers=teacher)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def _submit(live_judge, headers: dict, contest_id: int) -> int:
    body = {"contest": contest_id, "problem": "A", "language": "cpp", "source": BFS.read_text()}
    answer = httpx.post(f"{live_judge.url}/api/v1/submissions", json=body, headers=headers)
    assert answer.status_code == 202, answer.text
    return answer.json()["id"]


@pytest.fixture
def teacher(live_judge):
    """A teacher's bearer headers; the contests it made end when the test does (their problems
    take practice submissions again)."""
    live_judge.add_user("teach", "teacher")
    headers = live_judge.api_token("teach")
    yield headers
    soon = _iso(datetime.now(UTC) + timedelta(seconds=1))
    for contest in httpx.get(f"{live_judge.url}/api/v1/contests", headers=headers).json():
        body = {"end_at": soon, "freeze_at": None}
        httpx.patch(f"{live_judge.url}/api/v1/contests/{contest['id']}", json=body, headers=headers)


def test_a_contest_scoreboard_changes_live_and_the_freeze_hides_until_unfrozen(live_judge, teacher, new_page):
    live_judge.add_user("cora", display_name="Cora")
    live_judge.add_user("dan", display_name="Dan")
    live_id = _contest(live_judge, teacher, "Lab 3")
    page = new_page()
    sign_in(page, "cora")
    page.goto(f"/contests/{live_id}")
    expect(page.get_by_role("link", name="A", exact=True)).to_be_visible()
    page.goto(f"/contests/{live_id}/scoreboard")
    dan = page.locator("table.board tr", has_text="Dan")
    expect(dan.locator("td.cell").first).not_to_have_class(SOLVED)
    page.evaluate("window.stillTheSamePage = true")
    _submit(live_judge, live_judge.api_token("dan"), live_id)
    expect(dan.locator("td.cell").first).to_have_class(SOLVED, timeout=120_000)
    expect(dan.locator("td").nth(2)).to_have_text("1")
    assert page.evaluate("window.stillTheSamePage === true")
    screenshot(page, "scoreboard-live")

    frozen_id = _contest(live_judge, teacher, "Lab 4 (frozen)", freeze_minutes_ago=5)
    page.goto(f"/contests/{frozen_id}/scoreboard")
    expect(page.get_by_role("status")).to_contain_text("Frozen")
    dan = page.locator("table.board tr", has_text="Dan")
    _submit(live_judge, live_judge.api_token("dan"), frozen_id)
    expect(dan.locator("td.cell").first).to_have_class(PENDING, timeout=120_000)
    expect(dan.locator("td").nth(2)).to_have_text("0")  # solved count: the frozen AC does not show
    screenshot(page, "scoreboard-frozen")
    jury = new_page()
    sign_in(jury, "teach")
    jury.goto(f"/contests/{frozen_id}/scoreboard")  # the students' board shows the jury the public board
    expect(jury.locator("table.board tr", has_text="Dan").locator("td.cell").first).to_have_class(PENDING)
    screenshot(jury, "scoreboard-jury-sees-public")
    jury.goto(f"/contests/{frozen_id}/scoreboard/projector")  # what the class sees, whoever projects it
    expect(jury.get_by_role("status")).to_contain_text("Frozen")
    expect(jury.locator("table.board tr", has_text="Dan").locator("td.cell").first).to_have_class(PENDING)
    screenshot(jury, "projector-by-jury-frozen", full_page=False)
    jury.go_back()
    jury.locator("#public-board-note").get_by_role("link", name="jury scoreboard").click()
    expect(jury.locator("table.board tr", has_text="Dan").locator("td.cell").first).to_have_class(SOLVED)
    unfreeze = f"{live_judge.url}/api/v1/contests/{frozen_id}/unfreeze"
    assert httpx.post(unfreeze, headers=teacher).status_code == 409  # not while the contest runs
    expect(dan.locator("td.cell").first).to_have_class(PENDING)
    contest = httpx.get(f"{live_judge.url}/api/v1/contests/{frozen_id}", headers=teacher).json()
    ended = {"end_at": _iso(datetime.now(UTC)), "freeze_at": contest["freeze_at"]}  # the freeze stays where it is
    answer = httpx.patch(f"{live_judge.url}/api/v1/contests/{frozen_id}", json=ended, headers=teacher)
    assert answer.status_code == 200 and answer.json()["phase"] == "over", answer.text
    answer = httpx.post(unfreeze, headers=teacher)
    assert answer.status_code == 200, answer.text
    expect(dan.locator("td.cell").first).to_have_class(SOLVED, timeout=30_000)
    expect(dan.locator("td").nth(2)).to_have_text("1")
    screenshot(page, "scoreboard-unfrozen")
    page.goto(f"/contests/{frozen_id}/scoreboard/projector")
    expect(page.locator("table.board")).to_be_visible()
    screenshot(page, "scoreboard-projector")


def test_a_form_without_its_csrf_token_is_refused(live_judge, new_page):
    page = _student_page(live_judge, new_page, "eve")
    _fill_submission(page, "basic", "python3", "print(1)\n")
    page.evaluate("document.querySelector('.submit-form input[name=csrf_token]').remove()")
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.locator("main")).to_contain_text("did not come from this site")
    screenshot(page, "csrf-refused")
    page.goto("/submissions")
    expect(page.locator("main")).to_contain_text("Nothing submitted yet")  # nothing was queued


def test_a_display_name_and_a_compile_error_with_script_show_as_text(live_judge, new_page):
    page = _student_page(live_judge, new_page, "mallory", "<script>document.title='owned'</script>Mal")
    expect(page.locator(".who")).to_contain_text("<script>document.title='owned'</script>Mal")
    _fill_submission(page, "basic", "cpp", CE_SCRIPT)
    page.get_by_role("button", name="Submit").click()
    page.wait_for_url("**/submissions/*")
    expect(page.locator("#results .big .verdict")).to_have_text("CE", timeout=120_000)
    expect(page.locator("pre.compile")).to_contain_text("<script>document.title='owned'</script>")
    assert page.title() != "owned" and not page.dialogs
    assert page.locator("main script").count() == 0
    screenshot(page, "escaped-script")


def test_the_problem_page_on_a_phone(live_judge, new_page):
    live_judge.add_user("fay")
    page = new_page(390, 844)
    sign_in(page, "fay")
    page.goto("/problems/lines?lang=ru")
    expect(page.locator("article.statement")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("note")).to_contain_text("input.txt")
    page.goto("/problems/lines")  # the language is remembered
    expect(page.locator("article.statement")).to_have_attribute("lang", "ru")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    screenshot(page, "phone-lines-ru", full_page=False)


def test_submitting_too_soon_shows_a_countdown_and_keeps_the_source(live_judge, new_page):
    page = _student_page(live_judge, new_page, "gus")
    settings = live_judge.app.state.settings
    live_judge.app.state.settings = settings.model_copy(update={"submit_interval_s": 30})
    try:
        for _ in range(2):
            _fill_submission(page, "basic", "python3", "print('second try')\n")
            page.get_by_role("button", name="Submit").click()
            page.wait_for_load_state()
        wait = page.locator(".wait-box .wait")
        expect(wait).to_have_text(re.compile(r"^\d+ s$"))
        expect(wait).to_be_in_viewport()  # the page scrolls to the reason
        first = int(wait.inner_text().split()[0])
        expect(page.locator("#submit-button")).to_be_disabled()
        expect(page.locator("#source")).to_have_value("print('second try')\n")
        page.wait_for_timeout(2200)
        assert int(wait.inner_text().split()[0]) < first, "the wait does not count down"
        screenshot(page, "rate-limit-countdown", full_page=False)
    finally:
        live_judge.app.state.settings = settings


def test_the_submit_button_comes_back_when_the_wait_is_over(live_judge, new_page):
    page = _student_page(live_judge, new_page, "hal")
    settings = live_judge.app.state.settings
    live_judge.app.state.settings = settings.model_copy(update={"submit_interval_s": 5})
    try:
        for _ in range(2):
            _fill_submission(page, "basic", "python3", "print('again')\n")
            page.get_by_role("button", name="Submit").click()
            page.wait_for_load_state()
        expect(page.locator("#submit-button")).to_be_disabled()
        box = page.locator(".wait-box")
        expect(box).to_have_text("You can submit now. Your source is kept below.", timeout=15_000)
        expect(page.locator("#submit-button")).to_be_enabled()
        screenshot(page, "rate-limit-over", full_page=False)
    finally:
        live_judge.app.state.settings = settings


def _judged_rows(live_judge, name: str, count: int) -> None:
    """``count`` judged practice submissions of ``name`` (WA, 3 of 10 tests), stored directly."""
    from sqlalchemy import select

    from judge.models import Problem, Submission, User, utcnow

    with live_judge.app.state.sessions() as session:
        user = session.scalar(select(User).where(User.name == name))
        lee = session.get(Problem, "lee")
        assert user is not None and lee is not None
        for _ in range(count):
            session.add(
                Submission(
                    problem_id="lee",
                    package_sha256=lee.package_sha256,
                    language="python3",
                    source="print(-1)\n",
                    user_id=user.id,
                    status="done",
                    verdict="WA",
                    tests_passed=3,
                    tests_total=10,
                    finished_at=utcnow(),
                )
            )
        session.commit()


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_the_submission_tables_fit_the_window(live_judge, new_page, width, height):
    name = f"tab{width}"
    live_judge.add_user(name, display_name="Tabitha")
    _judged_rows(live_judge, name, 10)
    page = new_page(width, height)
    sign_in(page, name)
    for path, shot in (("/", "home"), ("/submissions", "submissions")):
        page.goto(path)
        expect(page.locator("table tbody tr").first).to_be_visible()
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"{path} is {scroll_width} px wide in a {width} px window"
        when = page.locator("table tbody tr").first.locator("td").last
        assert when.bounding_box()["height"] < 60, f"{path}: the When column wraps"
        screenshot(page, f"tables-{width}-{shot}")
