"""The teacher's pages over HTTP (TestClient, no browser): who gets in (teachers and admins; a teacher
judges only its own contests), CSRF on every form, bad input answered on the page (a bad time, a
malformed CSV), user text escaped, and the rules shared with the API (accounts, rejudging, freeze)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import select

from judge.auth import authenticate, create_user
from judge.clock import utcnow
from judge.contests import ContestSpec, ProblemEntry, create_contest, edit_contest
from judge.models import Contest, Submission, User
from judge.package_store import load_problem
from judge.vocabulary import Status
from judge.web.session import CSRF_COOKIE

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "pw-" + "t" * 8
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')
EVIL = "<script>alert('x')</script>"


@pytest.fixture
def app(api_app):
    """The app with ``lee`` and ``queens``, the teachers ``tess`` and ``tom``, the admin ``ada`` and
    the students ``ana`` (a display name carrying a script) and ``bob``."""
    with api_app.state.sessions() as session:
        for problem in ("lee", "queens"):
            load_problem(session, REPO / "problems" / problem)
        for name, role, display in (
            ("tess", "teacher", None),
            ("tom", "teacher", None),
            ("ada", "admin", None),
            ("ana", "student", EVIL + "Ana"),
            ("bob", "student", None),
        ):
            create_user(session, name, role, display, password=PASSWORD)
        session.commit()
    return api_app


HTMX = {"HX-Request": "true"}  # what htmx sends when it fetches the live part of a page


def signed_in(app, name: str) -> TestClient:
    """A client signed in through the form as ``name`` (``client.csrf`` holds its form token)."""
    client = TestClient(app)
    found = CSRF_INPUT.search(client.get("/login").text)
    assert found
    answer = client.post(
        "/login", data={"username": name, "password": PASSWORD, "csrf_token": found.group(1)}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    client.csrf = client.cookies[CSRF_COOKIE]
    return client


def contest_of(app, owner: str, minutes_from_start: int = 10, freeze: bool = False) -> int:
    """A running contest with lee (A) and queens (B) owned by ``owner``; its id."""
    now = utcnow()
    with app.state.sessions() as session:
        teacher = session.scalar(select(User).where(User.name == owner))
        spec = ContestSpec(
            name=f"Lab of {owner} {EVIL}",
            start_at=now - timedelta(minutes=minutes_from_start),
            end_at=now + timedelta(hours=2),
            freeze_at=now - timedelta(minutes=1) if freeze else None,
            problems=[ProblemEntry("A", "lee"), ProblemEntry("B", "queens")],
        )
        return create_contest(session, spec, owner=teacher).id


def judged(app, user: str, contest_id: int | None, verdict: str, problem: str = "lee") -> int:
    """A done submission of ``user`` with ``verdict``; its id."""
    with app.state.sessions() as session:
        author = session.scalar(select(User).where(User.name == user))
        from judge.models import Problem

        row = Submission(
            problem_id=problem,
            package_sha256=session.get(Problem, problem).package_sha256,
            language="cpp",
            source="int main(){}",
            user_id=author.id,
            contest_id=contest_id,
            status=Status.DONE,
            verdict=verdict,
        )
        session.add(row)
        session.commit()
        return row.id


def contest_form(client: TestClient, **fields) -> dict:
    """A complete contest form: lee as A and queens as B, two hours from a minute ago (UTC)."""
    start = utcnow() - timedelta(minutes=1)
    data = {
        "csrf_token": client.csrf,
        "tz": "UTC",
        "name": "Lab 5",
        "start_at": f"{start:%Y-%m-%dT%H:%M}",
        "end_at": f"{start + timedelta(hours=2):%Y-%m-%dT%H:%M}",
        "freeze_at": "",
        "scoring": "icpc",
        "scoreboard_visibility": "participants",
        "penalty_minutes": "20",
        "participants": "",
        "letter": ["", "", ""],
        "problem": ["lee", "queens", ""],
        "points": ["", "", ""],
    }
    return data | fields


PAGES = [
    "/teacher",
    "/teacher/contests",
    "/teacher/contests/new",
    "/teacher/submissions",
    "/teacher/classes",
    "/teacher/users",
    "/teacher/workers",
]


@pytest.mark.parametrize("path", PAGES)
def test_a_student_is_refused_and_a_guest_asked_to_sign_in(app, path):
    student = signed_in(app, "ana")
    refused = student.get(path)
    assert refused.status_code == 403 and "only a teacher or an admin" in refused.text
    assert 'href="/teacher/' not in student.get("/").text  # no teacher's links in a student's navigation
    guest = TestClient(app).get(path)
    assert guest.status_code == 401 and 'action="/login"' in guest.text


@pytest.mark.parametrize("path", PAGES)
def test_a_teacher_and_an_admin_see_every_page(app, path):
    for name in ("tess", "ada"):
        answer = signed_in(app, name).get(path)
        assert answer.status_code == 200, (name, answer.text)
        assert 'href="/teacher/contests"' in answer.text  # the navigation shows the teacher's pages


def test_the_teacher_start_leads_to_the_contests_list(app):
    answer = signed_in(app, "tess").get("/teacher", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/teacher/contests"


def test_every_teacher_form_refuses_a_post_without_its_csrf_token(app):
    contest_id = contest_of(app, "tess")
    submission = judged(app, "ana", contest_id, "WA")
    client = signed_in(app, "tess")
    posts = [
        ("/teacher/contests", contest_form(client)),
        (f"/teacher/contests/{contest_id}/edit", contest_form(client)),
        (f"/teacher/contests/{contest_id}/unfreeze", {}),
        (f"/teacher/contests/{contest_id}/rejudge", {"letter": "A"}),
        (f"/teacher/submissions/{submission}/rejudge", {}),
        ("/teacher/users", {"name": "zed"}),
        ("/teacher/users/bob/password", {}),
    ]
    for path, data in posts:
        for token in (None, "forged"):
            sent = {k: v for k, v in data.items() if k != "csrf_token"}
            if token:
                sent["csrf_token"] = token
            answer = client.post(path, data=sent)
            assert answer.status_code == 403 and "did not come from this site" in answer.text, path
    refused = client.post("/teacher/users/import", files={"file": ("c.csv", b"zed\n")}, data={})
    assert refused.status_code == 403
    with app.state.sessions() as session:  # nothing happened
        assert session.scalar(select(User).where(User.name == "zed")) is None
        assert session.get(Submission, submission).status == Status.DONE
        assert session.scalar(select(Contest).where(Contest.name == "Lab 5")) is None
        assert authenticate(session, "bob", PASSWORD) is not None


def test_a_teacher_creates_a_contest_through_the_form(app):
    client = signed_in(app, "tess")
    form = contest_form(client, participants="ana\nbob", letter=["", "Q", ""], points=["", "", ""])
    answer = client.post("/teacher/contests", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = client.get(answer.headers["location"])
    assert page.status_code == 200 and "Lab 5" in page.text and "Jury scoreboard" in page.text
    with app.state.sessions() as session:
        contest = session.scalar(select(Contest).where(Contest.name == "Lab 5"))
        tess = session.scalar(select(User).where(User.name == "tess"))
        assert contest.owner_id == tess.id and not contest.all_students
        assert [(p.letter, p.problem_id) for p in contest.problems] == [("A", "lee"), ("Q", "queens")]


def test_times_are_read_in_the_viewers_time_zone(app):
    client = signed_in(app, "tess")
    form = contest_form(
        client, tz="Europe/Bucharest", name="Zoned", start_at="2030-06-01T09:00", end_at="2030-06-01T11:00"
    )
    assert client.post("/teacher/contests", data=form, follow_redirects=False).status_code == 303
    with app.state.sessions() as session:
        contest = session.scalar(select(Contest).where(Contest.name == "Zoned"))
        assert f"{contest.start_at:%H:%M}" == "06:00"  # EEST is UTC+3 in June


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"start_at": "tomorrow"}, "start: 'tomorrow' is not a date and time"),
        ({"end_at": ""}, "end: please give a date and time"),
        ({"end_at": "2000-01-01T10:00"}, "the contest must end after it starts"),
        ({"freeze_at": "2999-01-01T10:00"}, "the freeze time must lie between start and end"),
        ({"start_at": "0001-01-01T00:00", "tz": "Asia/Tokyo"}, "out of range"),
        ({"tz": "Mars/Olympus"}, "unknown time zone"),
        ({"tz": "../../etc/passwd"}, "unknown time zone"),
        ({"tz": "x" * 5000}, "unknown time zone"),
        ({"problem": ["", "", ""]}, "choose at least one problem"),
        ({"letter": ["A", "A", ""]}, "each letter and each problem may appear once"),
        ({"letter": ["a-1", "", ""]}, "letter"),
        ({"points": ["ten", "", ""]}, "points of lee: a whole number"),
        ({"participants": "ana\nnobody"}, "no user 'nobody'"),
        ({"scoring": "golf"}, "scoring"),
        ({"penalty_minutes": "-5"}, "penalty: a whole number"),
        ({"name": ""}, "name"),
        ({"name": "a\x00b"}, "name"),
    ],
)
def test_bad_contest_input_is_answered_on_the_form(app, fields, reason):
    client = signed_in(app, "tess")
    answer = client.post("/teacher/contests", data=contest_form(client, **fields))
    assert answer.status_code in (404, 422), answer.text
    assert 'role="alert"' in answer.text and escape(reason) in answer.text
    assert 'name="problem"' in answer.text  # the form again, as typed
    with app.state.sessions() as session:
        assert session.scalar(select(Contest.id)) is None


def test_a_teacher_judges_only_its_own_contests(app):
    mine, theirs = contest_of(app, "tess"), contest_of(app, "tom")
    client = signed_in(app, "tess")
    listed = client.get("/teacher/contests").text
    assert f"/teacher/contests/{mine}" in listed and f"/teacher/contests/{theirs}" not in listed
    for path in ("", "/edit", "/grades.csv"):
        assert client.get(f"/teacher/contests/{theirs}{path}").status_code in (403, 404)
    for path, data in (("/edit", contest_form(client)), ("/unfreeze", {}), ("/rejudge", {"letter": "A"})):
        answer = client.post(f"/teacher/contests/{theirs}{path}", data=data | {"csrf_token": client.csrf})
        assert answer.status_code in (403, 404), path
    admin = signed_in(app, "ada")
    assert admin.get(f"/teacher/contests/{theirs}").status_code == 200


def test_editing_a_contest_keeps_what_was_not_changed_and_refuses_a_bad_time(app):
    contest_id = contest_of(app, "tess")
    client = signed_in(app, "tess")
    form_page = client.get(f"/teacher/contests/{contest_id}/edit").text
    assert "data-utc" in form_page and "&lt;script&gt;" in form_page and EVIL not in form_page
    bad = client.post(f"/teacher/contests/{contest_id}/edit", data=contest_form(client, end_at="yesterday"))
    assert bad.status_code == 422 and "end: &#39;yesterday&#39; is not a date and time" in bad.text
    good = client.post(
        f"/teacher/contests/{contest_id}/edit",
        data=contest_form(client, name="Renamed", letter=["", "", "C"], problem=["lee", "", "queens"]),
        follow_redirects=False,
    )
    assert good.status_code == 303
    with app.state.sessions() as session:
        contest = session.get(Contest, contest_id)
        assert contest.name == "Renamed"
        assert [(p.letter, p.problem_id) for p in contest.problems] == [("A", "lee"), ("C", "queens")]


def end_contest(app, contest_id: int) -> None:
    """End the contest now, through the contest rule for edits, its freeze kept where it is."""
    with app.state.sessions() as session:
        contest = session.get(Contest, contest_id)
        edit_contest(session, contest, {"end_at": utcnow(), "freeze_at": contest.freeze_at}, utcnow())


def test_the_jury_page_shows_the_live_board_under_the_freeze_and_unfreezes_once_over(app):
    contest_id = contest_of(app, "tess", freeze=True)
    judged(app, "ana", contest_id, "AC")
    client = signed_in(app, "tess")
    jury = client.get(f"/teacher/contests/{contest_id}").text
    assert "public scoreboard frozen" in jury and 'class="cell solved' in jury  # the AC made after the freeze
    assert EVIL not in jury and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;Ana" in jury
    # while it runs: no button, a note saying when, and a POST all the same is the rule's 409, changing nothing
    assert "Unfreeze the scoreboard" not in jury and 'id="unfreeze-note"' in jury
    refused = client.post(f"/teacher/contests/{contest_id}/unfreeze", data={"csrf_token": client.csrf})
    assert refused.status_code == 409 and "Not possible now" in refused.text
    assert f"contest {contest_id} is not over" in refused.text
    came_from = {"referer": f"http://testserver/teacher/contests/{contest_id}?tab=1"}
    refused = client.post(
        f"/teacher/contests/{contest_id}/unfreeze", data={"csrf_token": client.csrf}, headers=came_from
    )
    assert f'<a href="/teacher/contests/{contest_id}?tab=1">Back to the page you came from</a>' in refused.text
    for elsewhere in ("https://evil.example/teacher", "http://testserver:8080/x", "javascript:alert(1)//testserver/"):
        refused = client.post(
            f"/teacher/contests/{contest_id}/unfreeze", data={"csrf_token": client.csrf}, headers={"referer": elsewhere}
        )
        assert refused.status_code == 409 and "the page you came from" not in refused.text, elsewhere
    student_board = signed_in(app, "bob").get(f"/contests/{contest_id}/scoreboard").text
    assert 'class="cell solved' not in student_board

    end_contest(app, contest_id)
    jury = client.get(f"/teacher/contests/{contest_id}").text
    assert "Unfreeze the scoreboard" in jury and 'id="unfreeze-note"' not in jury
    answer = client.post(f"/teacher/contests/{contest_id}/unfreeze", data={"csrf_token": client.csrf})
    assert answer.status_code == 200 and "Unfreeze the scoreboard" not in answer.text
    assert 'class="cell solved' in signed_in(app, "bob").get(f"/contests/{contest_id}/scoreboard").text


def test_the_problem_set_is_offered_in_the_languages_of_the_contests_statements(app):
    """The contest page's problem-set button offers the statement languages of the contest's
    problems (lee: en, ro; queens: en, sk), English first, as a choice rather than a box to type in."""
    contest_id = contest_of(app, "tess")
    page = signed_in(app, "tess").get(f"/teacher/contests/{contest_id}").text
    offered = re.search(r'<select name="language"[^>]*>(.*?)</select>', page)
    assert offered is not None, page
    assert re.findall(r"<option>([a-z]+)</option>", offered.group(1)) == ["en", "ro", "sk"]


def test_the_projector_and_the_students_board_show_the_jury_the_public_board(app):
    """Opened by the teacher, the projector and the students' scoreboard hide a post-freeze AC and say
    the board is frozen; the live board is the jury's, behind an explicit ``view=jury``."""
    contest_id = contest_of(app, "tess", freeze=True)
    judged(app, "ana", contest_id, "AC")
    teacher = signed_in(app, "tess")
    for path in (f"/contests/{contest_id}/scoreboard/projector", f"/contests/{contest_id}/scoreboard"):
        board = teacher.get(path)
        assert board.status_code == 200, path
        assert 'class="cell solved' not in board.text and "Frozen: results after the freeze" in board.text, path
        assert 'data-view="public"' in board.text and "view=jury" not in board.text, path
    students_board = teacher.get(f"/contests/{contest_id}/scoreboard").text
    assert f'href="/teacher/contests/{contest_id}#jury-board"' in students_board  # the way to the live board
    assert 'class="cell solved' not in teacher.get(f"/contests/{contest_id}/scoreboard/table", headers=HTMX).text
    live = teacher.get(f"/contests/{contest_id}/scoreboard/table?view=jury", headers=HTMX).text
    assert 'class="cell solved' in live and 'data-view="jury"' in live and "Frozen" not in live
    jury_page = teacher.get(f"/teacher/contests/{contest_id}").text
    assert 'class="cell solved' in jury_page and f"/contests/{contest_id}/scoreboard/table?view=jury" in jury_page
    student = signed_in(app, "bob")
    assert student.get(f"/contests/{contest_id}/scoreboard/table?view=jury", headers=HTMX).status_code == 403
    assert student.get(f"/contests/{contest_id}/scoreboard/table?view=jury").status_code == 403  # visited, too
    visit = teacher.get(f"/contests/{contest_id}/scoreboard/table?view=jury", follow_redirects=False)
    assert (visit.status_code, visit.headers["location"]) == (303, f"/teacher/contests/{contest_id}#jury-board")
    visit = student.get(f"/contests/{contest_id}/scoreboard/table", follow_redirects=False)
    assert (visit.status_code, visit.headers["location"]) == (303, f"/contests/{contest_id}/scoreboard")
    assert student.get(f"/contests/{contest_id}/events?view=jury").status_code == 403
    assert "jury-board" not in student.get(f"/contests/{contest_id}/scoreboard").text


def test_grades_download_is_the_jury_boards_csv(app):
    contest_id = contest_of(app, "tess", freeze=True)
    judged(app, "bob", contest_id, "AC")
    answer = signed_in(app, "tess").get(f"/teacher/contests/{contest_id}/grades.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    bob = next(line for line in answer.text.splitlines() if line.startswith("bob,"))
    assert bob.split(",")[2] == "1"  # lee solved, although after the freeze


def test_the_submission_table_filters_and_hides_other_teachers_contests(app):
    mine, theirs = contest_of(app, "tess"), contest_of(app, "tom")
    wa, ac = judged(app, "ana", mine, "WA"), judged(app, "bob", mine, "AC")
    hidden = judged(app, "bob", theirs, "AC")
    practice = judged(app, "bob", None, "TLE", problem="queens")
    client = signed_in(app, "tess")

    def ids(**query) -> set[int]:
        answer = client.get("/teacher/submissions", params=query)
        assert answer.status_code == 200
        return {int(i) for i in re.findall(r'<td><a href="/submissions/(\d+)">', answer.text)}

    assert ids() == {wa, ac, practice}  # tom's contest is not tess's to judge
    assert ids(student="bob") == {ac, practice}
    assert ids(verdict="WA") == {wa}
    assert ids(problem="queens") == {practice}
    assert ids(contest=str(mine)) == {wa, ac}
    assert ids(contest=str(theirs)) == set()
    assert signed_in(app, "ada").get("/teacher/submissions").text.count(f'href="/submissions/{hidden}"') == 1
    for bad in ({"verdict": "XX"}, {"contest": "abc"}, {"student": "a\x00"}):
        answer = client.get("/teacher/submissions", params=bad)
        assert answer.status_code == 200 and 'role="alert"' in answer.text
    escaped = client.get("/teacher/submissions", params={"student": EVIL}).text
    assert EVIL not in escaped


def test_rejudging_a_problem_reports_the_old_verdicts(app):
    contest_id = contest_of(app, "tess")
    wa, ac = judged(app, "ana", contest_id, "WA"), judged(app, "bob", contest_id, "AC")
    other = judged(app, "bob", contest_id, "WA", problem="queens")
    client = signed_in(app, "tess")
    answer = client.post(
        f"/teacher/contests/{contest_id}/rejudge",
        data={"letter": "A", "csrf_token": client.csrf},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    report_url = answer.headers["location"]
    assert f"s={wa}%3AWA" in report_url and f"s={ac}%3AAC" in report_url and f"s={other}%3A" not in report_url
    report = client.get(report_url).text
    assert "2 of 2 waiting" in report and 'hx-trigger="every 1s"' in report
    with app.state.sessions() as session:  # a worker judges them again: the WA becomes AC
        for submission_id in (wa, ac):
            row = session.get(Submission, submission_id)
            row.status, row.verdict = Status.DONE, "AC"
        session.commit()
    done = client.get(report_url.replace("/teacher/rejudged?", "/teacher/rejudged/table?")).text
    assert "1 verdict changed" in done and "every 1s" not in done
    changed = re.findall(r'<tr class="changed">\s*<td><a href="/submissions/(\d+)"', done)
    assert changed == [str(wa)]
    # the report shows only what the viewer may see, whatever the address says
    foreign = signed_in(app, "tom").get(report_url).text
    assert f'href="/submissions/{wa}"' not in foreign and "Nothing was rejudged" in foreign


def test_rejudging_one_submission_follows_the_api_rule(app):
    mine, theirs = contest_of(app, "tess"), contest_of(app, "tom")
    own, foreign = judged(app, "ana", mine, "WA"), judged(app, "ana", theirs, "WA")
    client = signed_in(app, "tess")
    answer = client.post(f"/teacher/submissions/{own}/rejudge", data={"csrf_token": client.csrf})
    assert answer.status_code == 200 and "1 of 1 waiting" in answer.text
    refused = client.post(f"/teacher/submissions/{foreign}/rejudge", data={"csrf_token": client.csrf})
    assert refused.status_code == 404
    with app.state.sessions() as session:
        assert session.get(Submission, own).status == Status.QUEUED
        assert session.get(Submission, foreign).status == Status.DONE


def test_a_class_csv_becomes_accounts_and_printable_slips(app):
    client = signed_in(app, "tess")
    csv = b"name,display name,password\ncarla,Carla <b>C</b>\ndan,Dan D\r\n\nemil,,given-pw-1\n"
    answer = client.post(
        "/teacher/users/import", files={"file": ("class.csv", csv, "text/csv")}, data={"csrf_token": client.csrf}
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    slips = re.findall(
        r'class="slip-login">([^<]+)</code>.*?class="slip-password">([^<]+)</code>', answer.text, flags=re.S
    )
    assert [name for name, _ in slips] == ["carla", "dan", "emil"]
    assert "Carla &lt;b&gt;C&lt;/b&gt;" in answer.text and "@media print" not in answer.text
    with app.state.sessions() as session:
        for name, password in slips[:2]:  # the generated passwords sign them in
            assert authenticate(session, name, password) is not None
        assert authenticate(session, "emil", "given-pw-1") is not None


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"carla,Carla\nbob,Bob again\n", "line 2: user bob already exists"),
        (b"carla\n,no name\n", "line 2: the first column (the user name) is empty"),
        (b"name,display name\n\ncarla\nbad name!,X\n", "line 4: user name"),
        (b"carla\xff\xfe\n", "not UTF-8 text"),
        (b"carla,C\x00\n", "NUL"),
        (b"", "choose a CSV file"),
        (b"name\n", "the file names no student"),
        (b"carla,C\nzed," + b"A" * 140_000 + b"\n", "line 2: not CSV"),  # past the csv module's field limit
    ],
)
def test_a_malformed_csv_is_answered_on_the_page_and_imports_nobody(app, content, reason):
    client = signed_in(app, "tess")
    answer = client.post(
        "/teacher/users/import", files={"file": ("class.csv", content, "text/csv")}, data={"csrf_token": client.csrf}
    )
    assert answer.status_code == 422 and 'role="alert"' in answer.text and escape(reason) in answer.text
    with app.state.sessions() as session:
        assert session.scalar(select(User).where(User.name == "carla")) is None


def test_a_teacher_creates_students_only_and_resets_students_passwords_only(app):
    client = signed_in(app, "tess")
    refused = client.post("/teacher/users", data={"name": "boss", "role": "admin", "csrf_token": client.csrf})
    assert refused.status_code == 403 and "may not create admin accounts" in refused.text
    taken = client.post("/teacher/users", data={"name": "bob", "csrf_token": client.csrf})
    assert taken.status_code == 409 and "already exists" in taken.text
    bad = client.post("/teacher/users", data={"name": "bad name", "csrf_token": client.csrf})
    assert bad.status_code == 422 and 'role="alert"' in bad.text
    made = client.post("/teacher/users", data={"name": "fay", "display_name": EVIL, "csrf_token": client.csrf})
    assert made.status_code == 200 and EVIL not in made.text
    assert client.post("/teacher/users/tess/password", data={"csrf_token": client.csrf}).status_code == 403
    assert client.post("/teacher/users/tom/password", data={"csrf_token": client.csrf}).status_code == 404  # unseen
    assert client.post("/teacher/users/nobody/password", data={"csrf_token": client.csrf}).status_code == 404
    bob = signed_in(app, "bob")
    reset = client.post("/teacher/users/bob/password", data={"csrf_token": client.csrf})
    password = re.search(r'class="slip-password">([^<]+)<', reset.text).group(1)
    with app.state.sessions() as session:
        assert authenticate(session, "bob", PASSWORD) is None and authenticate(session, "bob", password) is not None
    assert bob.get("/submissions").status_code == 401  # the reset ended bob's session
    users_page = client.get("/teacher/users").text
    assert "Reset the password of bob" in users_page and "Reset the password of tom" not in users_page


def test_the_api_resets_a_password_by_the_same_rule(app):
    client = TestClient(app)
    token = client.post("/api/v1/auth/token", data={"username": "tess", "password": PASSWORD}).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    answer = client.post("/api/v1/users/bob/password", headers=headers)
    assert answer.status_code == 200 and answer.json()["user"]["name"] == "bob"
    with app.state.sessions() as session:
        assert authenticate(session, "bob", answer.json()["password"]) is not None
    assert client.post("/api/v1/users/tess/password", headers=headers).status_code == 403  # a teacher's
    assert client.post("/api/v1/users/ada/password", headers=headers).status_code == 404  # an admin: not seen
    assert client.post("/api/v1/users/nobody/password", headers=headers).status_code == 404


def test_the_workers_page_shows_what_the_api_knows(app):
    from judge.models import Worker

    with app.state.sessions() as session:
        now = utcnow()
        session.add(Worker(id="w-1", host=EVIL, slots=2, languages=["cpp"], started_at=now, last_heartbeat=now))
        session.add(
            Worker(
                id="w-old", host="lab-2", slots=1, languages=[], started_at=now, last_heartbeat=now - timedelta(hours=1)
            )
        )
        session.commit()
    judged(app, "ana", None, "AC")
    page = signed_in(app, "tess").get("/teacher/workers").text
    assert "w-1" in page and "w-old" in page and EVIL not in page and "&lt;script&gt;" in page
    assert page.count("alive</span>") == 1 and "down</span>" in page
    assert '<strong id="queued">0</strong>' in page


def test_the_jury_reads_any_source_and_every_test_of_its_contests(app):
    contest_id = contest_of(app, "tess")
    submission = judged(app, "ana", contest_id, "WA")
    with app.state.sessions() as session:
        from judge.models import TestResult

        row = session.get(Submission, submission)
        row.source = "int main() { /* " + EVIL + " */ }"
        session.add(
            TestResult(
                submission_id=submission,
                attempt=0,
                ordinal=1,
                test_name="secret/07-maze",
                test_group="secret",
                verdict="WA",
                message="expected 12, got 13",
            )
        )
        session.commit()
    jury = signed_in(app, "tess").get(f"/submissions/{submission}").text
    assert "secret/07-maze" in jury and "expected 12, got 13" in jury
    assert "/* &lt;script&gt;" in jury and EVIL not in jury
    assert signed_in(app, "tom").get(f"/submissions/{submission}").status_code == 404
    own = signed_in(app, "ana").get(f"/submissions/{submission}").text
    assert "secret/07-maze" not in own and "expected 12, got 13" not in own


def test_the_submission_tables_condition_is_the_viewing_rule(app):
    from judge.contests import can_view_submission, viewable_submissions

    mine, theirs = contest_of(app, "tess"), contest_of(app, "tom")
    for author, contest_id in (("ana", mine), ("bob", theirs), ("bob", None), ("tess", theirs), ("tom", mine)):
        judged(app, author, contest_id, "WA")
    with app.state.sessions() as session:
        everyone = session.scalars(select(User)).all()
        rows = session.scalars(select(Submission)).all()
        for viewer in everyone:
            shown = set(session.scalars(select(Submission.id).where(viewable_submissions(viewer))))
            assert shown == {r.id for r in rows if can_view_submission(session, viewer, r)}, viewer.name
        assert (
            len({frozenset(session.scalars(select(Submission.id).where(viewable_submissions(u)))) for u in everyone})
            > 3
        )
