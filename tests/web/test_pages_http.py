"""The pages over HTTP (TestClient, no browser): CSRF on every form, the session cookie, escaping of
user text, who may see what, the rate limit's countdown, and the statement sanitiser."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from judge.auth import create_user
from judge.contests import ContestSpec, ProblemEntry, create_contest
from judge.models import Submission, TestResult, utcnow
from judge.package_store import load_problem
from judge.pictures import render_picture
from judge.web.pages import side_by_side
from judge.web.render import statement_html
from judge.web.session import CSRF_COOKIE, SESSION_COOKIE
from tests.checker_runs import run, wrong
from tests.web.test_teacher_http import HTMX

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "pw-" + "y" * 8
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(api_app):
    """The app with ``lee`` and ``lines`` loaded and the students ``ana`` and ``bob``."""
    with api_app.state.sessions() as session:
        for problem in ("lee", "lines"):
            load_problem(session, REPO / "problems" / problem)
        create_user(session, "ana", "student", "<script>alert('ana')</script>Ana", password=PASSWORD)
        create_user(session, "bob", "student", password=PASSWORD)
        create_user(session, "tess", "teacher", password=PASSWORD)
        session.commit()
    return api_app


def csrf_of(client: TestClient) -> str:
    """The CSRF token of ``client``'s browser (a page sets it)."""
    found = CSRF_INPUT.search(client.get("/login").text)
    assert found, "the sign-in page has no CSRF field"
    return found.group(1)


def signed_in(app, name: str) -> TestClient:
    """A client signed in through the form as ``name``."""
    client = TestClient(app)
    answer = client.post(
        "/login",
        data={"username": name, "password": PASSWORD, "csrf_token": csrf_of(client)},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return client


def _submission(app, user: str, **fields) -> int:
    with app.state.sessions() as session:
        from sqlalchemy import select

        from judge.models import Problem, User

        owner = session.scalar(select(User).where(User.name == user))
        lee = session.get(Problem, "lee")
        row = Submission(
            problem_id="lee",
            package_sha256=lee.package_sha256,
            language="cpp",
            source="int main(){}",
            user_id=owner.id,
            **fields,
        )
        session.add(row)
        session.commit()
        return row.id


def test_every_form_refuses_a_post_without_its_csrf_token(app):
    client = signed_in(app, "ana")
    forms = {
        "/login": {"username": "ana", "password": PASSWORD},
        "/logout": {},
        "/submit": {"problem": "lee", "language": "python3", "source": "print(-1)\n"},
    }
    for path, data in forms.items():
        for token in (None, "forged-" + "x" * 30):
            sent = data | ({"csrf_token": token} if token else {})
            answer = client.post(path, data=sent, follow_redirects=False)
            assert answer.status_code == 403, (path, token)
            assert "did not come from this site" in answer.text and answer.headers["content-type"].startswith(
                "text/html"
            )
    assert client.get("/submissions").status_code == 200  # the refused log-out did not log out
    assert "Nothing submitted yet" in client.get("/submissions").text  # the refused submit queued nothing
    answer = client.post("/logout", data={"csrf_token": client.cookies[CSRF_COOKIE]}, follow_redirects=False)
    assert answer.status_code == 303


def test_the_session_cookie_is_httponly_lax_and_carries_an_api_token(app):
    client = TestClient(app)
    answer = client.post(
        "/login",
        data={"username": "bob", "password": PASSWORD, "csrf_token": csrf_of(client), "next": "//evil.example/x"},
        follow_redirects=False,
    )
    assert answer.headers["location"] == "/"  # only this site's paths
    cookie = next(c for c in answer.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE + "="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    token = client.cookies[SESSION_COOKIE]
    api = TestClient(app)
    assert api.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"}).json()["name"] == "bob"
    api.cookies.set(SESSION_COOKIE, token)
    assert api.get("/api/v1/auth/me").status_code == 401  # a cookie never authorises the API
    client.post("/logout", data={"csrf_token": client.cookies[CSRF_COOKIE]})
    assert TestClient(app).get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_a_wrong_password_is_a_401_page_that_keeps_the_name(app):
    client = TestClient(app)
    answer = client.post("/login", data={"username": "ana", "password": "nope", "csrf_token": csrf_of(client)})
    assert answer.status_code == 401
    assert "Wrong user name or password" in answer.text and 'value="ana"' in answer.text


def test_user_text_is_escaped_on_every_page(app):
    evil = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    sid = _submission(app, "ana", status="done", verdict="CE", compile_message=evil, created_at=utcnow())
    client = signed_in(app, "ana")
    for path in ("/", f"/submissions/{sid}", f"/submissions/{sid}/results"):
        text = client.get(path, headers=HTMX).text
        assert "<script>alert" not in text and "<img src=x" not in text, path
    page = client.get(f"/submissions/{sid}").text
    assert "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "&lt;script&gt;alert(&#39;ana&#39;)&lt;/script&gt;Ana" in client.get("/").text


def test_pages_show_only_what_the_rules_allow(app):
    sid = _submission(app, "ana", status="queued", created_at=utcnow())
    assert signed_in(app, "ana").get(f"/submissions/{sid}").status_code == 200
    other = signed_in(app, "bob").get(f"/submissions/{sid}")
    assert other.status_code == 404 and "Not found" in other.text  # as if it did not exist
    assert signed_in(app, "tess").get(f"/submissions/{sid}").status_code == 200  # practice: any teacher
    anonymous = TestClient(app).get(f"/submissions/{sid}")
    assert anonymous.status_code == 401 and 'name="password"' in anonymous.text
    assert TestClient(app).get("/no/such/page").status_code == 404
    assert TestClient(app).get("/no/such/page").headers["content-type"].startswith("text/html")
    assert TestClient(app).get("/api/v1/no-such").headers["content-type"] == "application/json"
    with app.state.sessions() as session:  # lines only in a contest that has not started: hidden
        start = utcnow() + timedelta(hours=1)
        spec = ContestSpec("Later", start, start + timedelta(hours=1), [ProblemEntry("A", "lines")])
        create_contest(session, spec)
    assert signed_in(app, "bob").get("/problems/lines").status_code == 404
    assert signed_in(app, "tess").get("/problems/lines").status_code == 200


def test_a_contest_before_its_start_shows_a_student_none_of_its_problems(app):
    with app.state.sessions() as session:
        start = utcnow() + timedelta(hours=1)
        spec = ContestSpec("Later", start, start + timedelta(hours=1), [ProblemEntry("A", "lee")], owner="tess")
        contest_id = create_contest(session, spec).id
    client = signed_in(app, "bob")
    page = client.get(f"/contests/{contest_id}").text
    assert "The problems appear when the contest starts." in page and "The mouse and the cheese" not in page
    for name in ("A", "lee"):
        refused = client.get(f"/contests/{contest_id}/problems/{name}")
        assert refused.status_code == 404 and "The mouse and the cheese" not in refused.text
    data = {"problem": "A", "contest": str(contest_id), "language": "python3", "source": "print(1)\n"}
    refused = client.post("/submit", data=data | {"csrf_token": client.cookies[CSRF_COOKIE]})
    bearer = {"Authorization": f"Bearer {client.cookies[SESSION_COOKIE]}"}
    api = TestClient(app).post("/api/v1/submissions", json=data | {"contest": contest_id}, headers=bearer)
    assert refused.status_code == api.status_code == 403  # the rule's answer, as the API gives it
    assert f"contest {contest_id} has not started" in refused.text and "no problem" not in refused.text
    jury = signed_in(app, "tess")
    assert "The mouse and the cheese" in jury.get(f"/contests/{contest_id}").text
    assert jury.get(f"/contests/{contest_id}/problems/A").status_code == 200


def test_a_students_submission_page_shows_no_time_or_memory_of_hidden_tests(app):
    sid = _submission(app, "ana", status="done", verdict="TLE", attempt=1, time_ms=2000, memory_kib=99 * 1024)
    with app.state.sessions() as session:
        for ordinal, group, time_ms, memory_kib in ((1, "sample", 12, 3 * 1024), (2, "secret", 2000, 99 * 1024)):
            session.add(
                TestResult(
                    submission_id=sid,
                    attempt=1,
                    ordinal=ordinal,
                    test_name=f"{group}/0{ordinal}",
                    test_group=group,
                    verdict="AC" if group == "sample" else "TLE",
                    time_ms=time_ms,
                    memory_kib=memory_kib,
                )
            )
        row = session.get(Submission, sid)
        row.tests_passed, row.tests_total = 1, 2
        session.commit()
    for path in (f"/submissions/{sid}", f"/submissions/{sid}/results"):
        student = signed_in(app, "ana").get(path, headers=HTMX).text
        assert "· 12 ms · 3.0 MiB" in student and "2000 ms" not in student and "99.0 MiB" not in student
        assert student.count('title="hidden: a secret test shows its verdict only">—') == 2  # its CPU and memory
        assert 'id="hidden-figures">— A secret test shows its verdict only' in student  # and why, under the table
        jury = signed_in(app, "tess").get(path, headers=HTMX).text
        assert "· 2000 ms · 99.0 MiB" in jury and "hidden-figure" not in jury  # the jury sees every test


def test_the_start_page_greets_a_visitor_with_the_sign_in_form_and_other_pages_refuse(app):
    guest = TestClient(app)
    start = guest.get("/")
    assert start.status_code == 200 and 'action="/login"' in start.text and "<h1>Sign in</h1>" in start.text
    assert 'role="alert"' not in start.text and "Please sign in" not in start.text
    refused = guest.get("/submissions")
    assert refused.status_code == 401 and 'action="/login"' in refused.text and 'role="alert"' in refused.text


def test_my_submissions_name_each_contest_escaped_and_linked(app):
    name = "<b>Lab</b> 7 & more"
    with app.state.sessions() as session:
        now = utcnow()
        window = (now - timedelta(minutes=30), now + timedelta(hours=1))
        contest_id = create_contest(session, ContestSpec(name, *window, [ProblemEntry("A", "lee")])).id
    _submission(app, "ana", contest_id=contest_id)
    _submission(app, "ana")  # practice
    client = signed_in(app, "ana")
    for path in ("/submissions", "/"):
        text = client.get(path).text
        assert f'<td class="name"><a href="/contests/{contest_id}">{escape(name)}</a></td>' in text, path
        assert name not in text and '<td class="name">practice</td>' in text, path


def test_a_problem_of_a_running_contest_takes_no_practice_submission(app):
    with app.state.sessions() as session:
        now = utcnow()
        contest = create_contest(
            session,
            ContestSpec("Now", now - timedelta(minutes=5), now + timedelta(hours=1), [ProblemEntry("A", "lee")]),
        )
        contest_id = contest.id
    client = signed_in(app, "bob")
    assert "in a <a" in client.get("/problems/lee").text and 'action="/submit"' not in client.get("/problems/lee").text
    data = {"problem": "lee", "language": "python3", "source": "print(-1)\n", "csrf_token": client.cookies[CSRF_COOKIE]}
    refused = client.post("/submit", data=data)
    assert refused.status_code == 403 and "running contest" in refused.text
    accepted = client.post("/submit", data=data | {"problem": "A", "contest": str(contest_id)}, follow_redirects=False)
    assert accepted.status_code == 303 and accepted.headers["location"].startswith("/submissions/")
    contest_page = client.get(f"/contests/{contest_id}").text
    assert "/contests/%d/problems/A" % contest_id in contest_page and "queued" in contest_page


def test_a_running_contest_that_holds_a_problem_is_named_only_to_those_who_may_see_it(app):
    with app.state.sessions() as session:
        now = utcnow()
        window = (now - timedelta(minutes=5), now + timedelta(hours=1))
        contest_id = create_contest(
            session, ContestSpec("Closed", *window, [ProblemEntry("A", "lee")], participants=["ana"])
        ).id
    link = f'href="/contests/{contest_id}"'
    for name, sees in (("ana", True), ("bob", False)):
        client = signed_in(app, name)
        problem, home = client.get("/problems/lee").text, client.get("/").text
        # locked for its participant only (as the API's practice lock); bob practises lee meanwhile
        assert ("running contest" in problem, 'action="/submit"' in problem) == (sees, not sees), name
        assert (link in problem, link in home) == (sees, sees), name
        assert client.get(f"/contests/{contest_id}").status_code == (200 if sees else 404)


def test_the_rate_limit_is_a_countdown_that_keeps_the_source(app):
    app.state.settings = app.state.settings.model_copy(update={"submit_interval_s": 60})
    client = signed_in(app, "ana")
    data = {
        "problem": "lee",
        "language": "python3",
        "source": "print('<b>')\n",
        "csrf_token": client.cookies[CSRF_COOKIE],
    }
    assert client.post("/submit", data=data, follow_redirects=False).status_code == 303
    again = client.post("/submit", data=data)
    assert again.status_code == 429 and 50 <= int(again.headers["retry-after"]) <= 60
    wait = re.search(r'data-wait="(\d+)"', again.text)
    assert wait and 50 <= int(wait.group(1)) <= 60
    assert "print(&#39;&lt;b&gt;&#39;)" in again.text  # the source is back in the form, escaped
    assert re.search(r'id="submit-button" type="submit"\s+disabled', again.text)


def test_an_uploaded_file_chooses_its_language(app):
    client = signed_in(app, "ana")
    source = (REPO / "problems" / "lee" / "submissions" / "accepted" / "bfs.cpp").read_bytes()
    answer = client.post(
        "/submit",
        data={"problem": "lee", "csrf_token": client.cookies[CSRF_COOKIE]},
        files={"file": ("bfs.cpp", source)},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    with app.state.sessions() as session:
        row = session.get(Submission, int(answer.headers["location"].rsplit("/", 1)[1]))
        assert row.language == "cpp" and row.source.encode() == source
    binary = client.post(
        "/submit",
        data={"problem": "lee", "csrf_token": client.cookies[CSRF_COOKIE]},
        files={"file": ("a.cpp", b"\xff\xfe\x00")},
    )
    assert binary.status_code == 422 and "not UTF-8" in binary.text
    python2 = client.post(
        "/submit",
        data={"problem": "lee", "csrf_token": client.cookies[CSRF_COOKIE]},
        files={"file": ("old.py", b"#!/usr/bin/python2\nprint 1\n")},
    )
    assert python2.status_code == 422 and "this judge has no Python 2" in python2.text


def test_statement_language_switch_is_remembered(app):
    client = signed_in(app, "ana")
    russian = '<article class="statement" lang="ru">'
    assert russian in client.get("/problems/lines?lang=ru").text
    assert russian in client.get("/problems/lines").text
    assert russian in client.get("/problems/lines?lang=xx").text  # an unknown language changes nothing
    assert '<article class="statement" lang="en">' in client.get("/problems/lee").text  # lee has no ru
    assert "input.txt" in client.get("/problems/lines").text  # the file-I/O note


def test_statements_are_sanitised_and_their_title_is_the_page_heading(tmp_path):
    path = tmp_path / "problem.en.md"
    path.write_text("# Hi <b>\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>\n")
    title, html = statement_html("test", "en", "p", path)
    assert title == "Hi <b>" and "<h1>" not in html  # the title is escaped where the template shows it
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html


def test_side_by_side_marks_the_differing_lines():
    lines = side_by_side("3\n1 1\n1 2\n", "3\n1 1\n2 1\n")
    assert lines == [("3", "3", False), ("1 1", "1 1", False), ("1 2", "2 1", True)]
    assert side_by_side("1\n", "1  \n") == [("1", "1  ", False)]
    assert side_by_side("1\n2\n", "1\n") == [("1", "1", False), ("2", "", True)]


def _judged_wa(app, tests: list[tuple[str, str, str]]) -> int:
    """The id of ana's WA submission to lee with ``tests`` (name, verdict, output) as its results, in order."""
    sid = _submission(app, "ana", status="done", verdict="WA", attempt=1, created_at=utcnow())
    with app.state.sessions() as session:
        for ordinal, (name, verdict, output) in enumerate(tests, 1):
            group = name.rsplit("/", 1)[0]
            session.add(
                TestResult(
                    submission_id=sid,
                    attempt=1,
                    ordinal=ordinal,
                    test_name=name,
                    test_group=group,
                    verdict=verdict,
                    output=output,
                )
            )
        session.commit()
    return sid


def test_a_sample_shows_expected_beside_received_and_a_secret_test_never_does(app):

    sid = _judged_wa(
        app,
        [("sample/01", "WA", "<i>sample received</i>"), ("secret/01-one-cell", "WA", "<i>secret received</i>")],
    )
    student = signed_in(app, "ana").get(f"/submissions/{sid}").text
    assert student.count('<table class="diff"') == 1 and "&lt;i&gt;sample received&lt;/i&gt;" in student
    assert "secret received" not in student and "01-one-cell" not in student
    jury = signed_in(app, "tess").get(f"/submissions/{sid}").text
    assert "01-one-cell" in jury  # the jury sees the secret test's name (and no diff: no answer file shown)


def test_a_sample_with_checker_feedback_shows_its_picture_to_the_student(app, tmp_path):
    # real feedback of lee's checker on a path through a wall: on a sample and on a secret test
    runs = {
        "sample": run("lee", "sample/01", wrong("lee", "sample/01")["a path through a wall cell"], tmp_path),
        "secret": run(
            "lee",
            "secret/10-row-corridor-blocked",
            wrong("lee", "secret/10-row-corridor-blocked")["a path through walls"],
            tmp_path,
        ),
    }
    faults = {
        group: "(row {}, column {})".format(*feedback["fault"]["cell"]) for group, (_, _, feedback) in runs.items()
    }
    assert faults["sample"] != faults["secret"]
    hostile = "<script>alert('checker')</script>"  # a checker message may quote the team's output
    sid = _submission(app, "ana", status="done", verdict="WA", attempt=1, created_at=utcnow())
    with app.state.sessions() as session:
        for ordinal, (group, (code, message, feedback)) in enumerate(runs.items(), 1):
            assert code == 43 and render_picture(feedback) is not None
            session.add(
                TestResult(
                    submission_id=sid,
                    attempt=1,
                    ordinal=ordinal,
                    test_name=f"{group}/01",
                    test_group=group,
                    verdict="WA",
                    message=f"{hostile} {message}",
                    feedback=feedback,
                )
            )
        session.commit()
    student = signed_in(app, "ana").get(f"/submissions/{sid}").text
    assert student.count('<div class="picture">') == 1  # the sample's, not the secret test's
    assert faults["sample"] in student and faults["secret"] not in student
    assert hostile not in student and str(escape(hostile)) in student
    jury = signed_in(app, "tess").get(f"/submissions/{sid}").text
    assert jury.count('<div class="picture">') == 2 and all(fault in jury for fault in faults.values())
    assert hostile not in jury and str(escape(hostile)) in jury


def test_scoreboard_pages_follow_the_boards_rules(app):
    with app.state.sessions() as session:
        now = utcnow()
        window = (now - timedelta(minutes=30), now + timedelta(hours=1))
        ioi = create_contest(
            session,
            ContestSpec("IOI day", *window, [ProblemEntry("A", "lee", 40)], scoring="ioi", participants=["ana"]),
        )
        contest_id = ioi.id
    sid = _submission(app, "ana", status="done", verdict="AC", contest_id=contest_id, created_at=utcnow())
    with app.state.sessions() as session:
        row = session.get(Submission, sid)
        row.tests_passed = row.tests_total = 37
        row.finished_at = utcnow()
        session.commit()
    board = signed_in(app, "ana").get(f"/contests/{contest_id}/scoreboard")
    assert board.status_code == 200 and '<th scope="col">Total</th>' in board.text
    assert re.search(r'<td class="cell scored">\s*40', board.text)  # all 37 tests: the problem's 40 points
    assert signed_in(app, "bob").get(f"/contests/{contest_id}/scoreboard").status_code == 404  # not taking part
    assert TestClient(app).get(f"/contests/{contest_id}/scoreboard").status_code == 401


def test_an_icpc_board_explains_its_cells_and_an_ioi_board_has_no_such_legend(app):
    with app.state.sessions() as session:
        now = utcnow()
        window = (now - timedelta(minutes=30), now + timedelta(hours=1))
        spec = ContestSpec("Lab", *window, [ProblemEntry("A", "lee", None)], participants=["ana"])
        icpc = create_contest(session, spec).id
        ioi = create_contest(session, replace(spec, name="Day", scoring="ioi")).id
    ana = signed_in(app, "ana")
    assert 'id="board-legend"' in ana.get(f"/contests/{icpc}/scoreboard").text
    assert "3 wrong tries, not solved yet" in ana.get(f"/contests/{icpc}/scoreboard/table", headers=HTMX).text
    assert "Darker green</span>: the first to solve that problem" in ana.get(f"/contests/{icpc}/scoreboard").text
    assert 'id="board-legend"' not in ana.get(f"/contests/{ioi}/scoreboard").text


def test_the_sign_in_page_is_throttled_with_the_api_login_on_one_count(app):
    """Failed sign-ins count against the account whichever door they use (``judge.auth.check_login``):
    wrong passwords on the page and on the API together reach the account's limit, after which even
    the right password gets the 429 page with its wait, on the page as on the API."""
    limit = app.state.settings.login_failures_per_account
    browser, api = TestClient(app), TestClient(app)
    token = csrf_of(browser)
    for attempt in range(limit):
        if attempt % 2:
            wrong_try = api.post("/api/v1/auth/token", data={"username": "bob", "password": "nope"})
        else:
            wrong_try = browser.post("/login", data={"username": "bob", "password": "nope", "csrf_token": token})
        assert wrong_try.status_code == 401
    refused = browser.post("/login", data={"username": "bob", "password": PASSWORD, "csrf_token": token})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert refused.headers["content-type"].startswith("text/html") and "Please wait" in refused.text
    assert api.post("/api/v1/auth/token", data={"username": "bob", "password": PASSWORD}).status_code == 429
    assert signed_in(app, "ana").get("/").status_code == 200  # another account is not locked out


def test_a_student_reaches_its_contests_from_every_page(app):
    now = utcnow()
    with app.state.sessions() as session:
        for name, start in (("Lab now", -0.5), ("Lab later", 2), ("Lab past", -5), ("Lab gone", -8)):
            at = now + timedelta(hours=start)
            spec = ContestSpec(name, at, at + timedelta(hours=1), [ProblemEntry("A", "lee")], participants=["ana"])
            contest = create_contest(session, spec)
        contest.archived = True  # "Lab gone": only its jury sees it
        session.commit()
    ana = signed_in(app, "ana")
    sid = _submission(app, "ana", status="queued", created_at=now)
    for path in ("/", "/submissions", f"/submissions/{sid}", "/problems/lines", "/no/such/page"):
        nav = ana.get(path).text.split("</nav>")[0]
        assert '<a href="/contests">Contests</a>' in nav, path
    listed = ana.get("/contests").text
    running, upcoming, over = (
        listed.split(f">{h}</h2>")[1].split("</section>")[0] for h in ("Running", "Upcoming", "Over")
    )
    assert "Lab now" in running and "Lab later" in upcoming and "Lab past" in over and "Lab gone" not in listed
    assert "No contest" not in listed
    assert "No contest is running." in signed_in(app, "bob").get("/contests").text  # bob takes part in none
    teacher_nav = signed_in(app, "tess").get("/").text.split("</nav>")[0]
    assert '<a href="/teacher/contests">Contests</a>' in teacher_nav and 'href="/contests"' not in teacher_nav


def test_an_accepted_sample_whose_answer_is_not_the_judges_says_so_without_alarm(app):
    other = "\n".join(["6", "1 1", "1 2", "1 3", "1 4", "1 5", "2 5", "3 5"]) + "\n"  # round the wall above
    judge = (REPO / "problems" / "lee" / "data" / "sample" / "02.ans").read_text()
    assert other.split() != judge.split() and other.split()[0] == judge.split()[0]  # as short, another path
    sid = _judged_wa(app, [("sample/02", "AC", other), ("sample/03", "WA", "0\n")])
    page = signed_in(app, "ana").get(f"/submissions/{sid}").text
    accepted, wrong_ = page.split('id="test-2"')
    assert '<table class="diff accepted"' in accepted and "it is another valid answer" in accepted
    assert "Judge's answer" in accepted and "Your output (accepted)" in accepted
    assert 'class="differs"' in accepted  # the lines that differ are still marked, in the neutral style
    assert '<table class="diff"' in wrong_ and "another valid answer" not in wrong_  # a WA keeps its red


def test_a_file_whose_extension_names_no_language_is_refused_with_the_accepted_ones(app):
    ana = signed_in(app, "ana")
    reply = ana.post(
        "/submit",
        data={"problem": "lee", "csrf_token": csrf_of(ana)},
        files={"file": ("mouse.rb", b"puts 1\n")},
    )
    assert reply.status_code == 422
    told = "the language of mouse.rb cannot be guessed from its extension .rb: choose it in the list. Accepted: C (.c);"
    assert str(escape(told)) in reply.text
    assert "puts 1" in reply.text  # the source is kept in the form
    with app.state.sessions() as session:
        assert session.query(Submission).count() == 0


@pytest.mark.parametrize("contest", ["abc", "999999999999999999999", "-1"])
def test_a_submission_naming_no_contest_id_is_refused_not_taken_as_practice(app, contest):
    client = signed_in(app, "bob")
    data = {"problem": "lee", "contest": contest, "language": "python3", "source": "print(1)\n"}
    refused = client.post("/submit", data=data | {"csrf_token": client.cookies[CSRF_COOKIE]}, follow_redirects=False)
    assert refused.status_code == 422 and "contest must be a contest id" in refused.text
    with app.state.sessions() as session:
        assert session.query(Submission).count() == 0
