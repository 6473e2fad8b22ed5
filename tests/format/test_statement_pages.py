"""A foreign package's statement on the problem page: the LaTeX statement of each language with its
title from \\problemname, math as MathML, and its picture served by the app (nothing else of the
package); a 2023-07 name map titles the page in each language."""

from __future__ import annotations

from fastapi.testclient import TestClient

from judge.package_store import load_problem
from tests.format.conftest import FIXTURES


def loaded(app, *names: str) -> TestClient:
    with app.state.sessions() as session:
        for name in names:
            load_problem(session, FIXTURES / name)
        session.commit()
    return TestClient(app)


def test_latex_statement_page_shows_title_math_and_picture(api_app):
    client = loaded(api_app, "oldtimer")
    page = client.get("/problems/oldtimer")
    assert page.status_code == 200
    assert "Stair Sum</h1>" in page.text and "<math" in page.text
    assert '<img src="/problems/oldtimer/statement/stairs.png"' in page.text
    picture = client.get("/problems/oldtimer/statement/stairs.png")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    assert picture.content == (FIXTURES / "oldtimer/problem_statement/stairs.png").read_bytes()
    romanian = client.get("/problems/oldtimer?lang=ro")
    assert "Suma scărilor</h1>" in romanian.text and "Date de intrare" in romanian.text


def test_only_the_statements_pictures_are_served(api_app):
    client = loaded(api_app, "oldtimer")
    for name in ("problem.en.tex", "..%2Fproblem.yaml", "missing.png", ".timelimit"):
        assert client.get(f"/problems/oldtimer/statement/{name}").status_code == 404, name
    assert client.get("/problems/nosuch/statement/stairs.png").status_code == 404


def test_a_name_map_titles_the_page_in_each_language(api_app):
    client = loaded(api_app, "greeting")
    assert "Greeting</h1>" in client.get("/problems/greeting").text
    assert "Salutul</h1>" in client.get("/problems/greeting?lang=ro").text


def test_the_api_names_the_statements_format(api_app):
    client = loaded(api_app, "oldtimer", "greeting")
    latex = client.get("/api/v1/problems/oldtimer?lang=ro").json()
    assert (latex["statement_format"], latex["statement_language"]) == ("tex", "ro")
    assert latex["statement"].startswith("\\problemname{Suma")
    assert [s["name"] for s in latex["samples"]] == ["sample/1"]
    assert client.get("/api/v1/problems/greeting").json()["statement_format"] == "md"


def _graded_view(api_app, package, verdict: str, passed: int, total: int, score: float, max_score: float):
    """The API's view and the page's live part, for ana, of her judged submission to the package at
    ``package`` (loaded here), its row holding the grading's ``score`` of ``max_score``."""
    from judge.models import Submission, utcnow
    from tests.conftest import make_account
    from tests.web.test_pages_http import PASSWORD, signed_in

    with api_app.state.sessions() as session:
        problem = load_problem(session, package)
        session.commit()
        problem_id, sha = problem.id, problem.package_sha256
    user_id, headers = make_account(api_app, "ana", password=PASSWORD)
    with api_app.state.sessions() as session:
        row = Submission(problem_id=problem_id, package_sha256=sha, language="python3", source="print(1)")
        row.status, row.verdict, row.attempt, row.user_id, row.created_at = "done", verdict, 1, user_id, utcnow()
        row.tests_passed, row.tests_total, row.score, row.max_score = passed, total, score, max_score
        session.add(row)
        session.commit()
        sid = row.id
    view = TestClient(api_app).get(f"/api/v1/submissions/{sid}", headers=headers).json()
    return view, signed_in(api_app, "ana").get(f"/submissions/{sid}/results").text


def test_a_submissions_score_shows_in_the_api_and_on_its_page(api_app, fixture_copy):
    root = fixture_copy("doubling")
    (root / ".timelimit").write_text("1\n")
    view, page = _graded_view(api_app, root, "AC", 3, 5, 40.0, 100.0)
    assert (view["score"], view["max_score"]) == (40.0, 100.0)
    assert "score 40 of 100" in page


def test_an_svg_picture_opened_on_its_own_runs_no_script_of_the_package(api_app, tmp_path):
    from tests.format.conftest import write_package

    svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/teacher/users")</script><circle r="5"/></svg>'
    root = write_package(
        tmp_path / "svgpic",
        "name: Svg\nlimits: {time_limit: 1}\nvalidation: default\n",
        {"problem_statement/problem.en.tex": "\\problemname{Svg}\n\\includegraphics{evil.svg}\n"},
    )
    (root / "problem_statement" / "evil.svg").write_text(svg)
    with api_app.state.sessions() as session:
        load_problem(session, root)
        session.commit()
    picture = TestClient(api_app).get("/problems/svgpic/statement/evil.svg")
    assert picture.status_code == 200 and picture.text == svg
    policy = [part.strip() for part in picture.headers["content-security-policy"].split(";")]
    assert "sandbox" in policy and "default-src 'none'" in policy
    assert not any(part.startswith("script-src") for part in policy)  # nothing lets a script back in


def test_a_pass_fail_problems_submission_has_a_verdict_and_no_score(api_app):
    from tests.web.test_pages_http import REPO

    # the score as the grading stores it: an IOI board scores a pass-fail problem by the tests passed
    view, page = _graded_view(api_app, REPO / "problems" / "lee", "WA", 7, 37, 7.0, 37.0)
    assert (view["verdict"], view["tests_passed"], view["tests_total"]) == ("WA", 7, 37)
    assert (view["score"], view["max_score"]) == (None, None)
    assert "7 of 37 tests passed" in page and 'class="score"' not in page


def test_a_package_that_cannot_be_read_takes_nothing_from_the_stored_score(api_app):
    from judge.models import PackageArchive
    from judge.package_store import package_pass_fail

    with api_app.state.sessions() as session:
        session.add(PackageArchive(sha256="f" * 64, archive=b"not a tar", size_bytes=9))
        session.commit()
        assert package_pass_fail(session, "f" * 64) is False  # shown as stored, not refused
        assert package_pass_fail(session, "e" * 64) is False  # no such archive
