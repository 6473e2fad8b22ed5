"""The jury's reading and printing pages in a real browser (Debian Chromium through Playwright): a
teacher finds the copied pair of a finished contest, reads it side by side, and downloads the
sources zip, the problem set and new students' password slips. Screenshots under the artifacts
folder of ``tests/web/conftest.py``."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from judge.clock import utcnow
from judge.contests import ContestSpec, ProblemEntry, create_contest
from judge.models import Problem, Submission, User
from tests.web.conftest import REPO, screenshot, sign_in

pytestmark = pytest.mark.slow
FIXTURES = REPO / "tests" / "jury" / "fixtures"
SOURCES = [  # (student, language, file): carol handed in bob's program renamed and reformatted
    ("sim_ana", "cpp", REPO / "problems/lee/submissions/accepted/bfs.cpp"),
    ("sim_bob", "python3", REPO / "problems/lee/submissions/accepted/from_cheese.py"),
    ("sim_carol", "python3", FIXTURES / "lee_from_cheese_renamed.py"),
    ("sim_dan", "python3", FIXTURES / "lee_parent_dict.py"),
]


@pytest.fixture
def finished_lab(live_judge):
    """A contest of the teacher ``sim_tess`` that ended an hour ago, with one AC of lee per student."""
    live_judge.add_user("sim_tess", "teacher", "Tess Teacher")
    for name, _, _ in SOURCES:
        live_judge.add_user(name, "student", name.removeprefix("sim_").capitalize())
    with live_judge.app.state.sessions() as session:
        tess = session.query(User).filter_by(name="sim_tess").one()
        start = utcnow() - timedelta(hours=3)
        spec = ContestSpec(
            name="Lab 9 <paths>",
            start_at=start,
            end_at=start + timedelta(hours=2),
            problems=[ProblemEntry("A", "lee"), ProblemEntry("B", "lines")],
        )
        contest = create_contest(session, spec, owner=tess)
        package = session.get(Problem, "lee").package_sha256
        for minute, (name, language, path) in enumerate(SOURCES, start=5):
            author = session.query(User).filter_by(name=name).one()
            session.add(
                Submission(
                    problem_id="lee",
                    package_sha256=package,
                    language=language,
                    source=path.read_text(),
                    status="done",
                    verdict="AC",
                    attempt=1,
                    user_id=author.id,
                    contest_id=contest.id,
                    created_at=start + timedelta(minutes=minute),
                    finished_at=start + timedelta(minutes=minute),
                )
            )
        session.commit()
        return contest.id


def test_a_teacher_finds_the_copied_pair_and_prints(live_judge, new_page, finished_lab):
    page = new_page()
    sign_in(page, "sim_tess")
    page.goto(f"/teacher/contests/{finished_lab}")
    page.get_by_role("link", name="Similar sources").click()
    rows = page.locator("table.similarity tbody tr")
    expect(rows.first).to_contain_text("sim_bob")
    expect(rows.first).to_contain_text("sim_carol")
    expect(rows.first).to_contain_text("100%")
    screenshot(page, "jury-similarity-ranked")

    rows.first.get_by_role("link", name="Side by side").click()
    expect(page.locator("h1")).to_contain_text("100% similar")
    expect(page.locator("pre.source mark").first).to_be_visible()
    screenshot(page, "jury-similarity-side-by-side", full_page=False)

    page.goto(f"/teacher/contests/{finished_lab}")
    with page.expect_download() as zipped:
        page.get_by_role("link", name="Download sources (zip)").click()
    names = zipfile.ZipFile(io.BytesIO(open(zipped.value.path(), "rb").read())).namelist()
    assert sorted(n.split("/")[0] for n in names) == [name for name, _, _ in SOURCES]
    with page.expect_download() as printed:
        page.get_by_role("button", name="Problem set (PDF)").click()
    assert printed.value.suggested_filename == f"contest-{finished_lab}-problems-en.pdf"
    assert open(printed.value.path(), "rb").read(5) == b"%PDF-"
    language = page.get_by_label("Statement language")
    assert language.locator("option").all_inner_texts() == ["en", "ro", "ru"]  # lee: en, ro; lines: en, ru
    language.select_option("ro")
    screenshot(page, "jury-contest-problem-set-language", full_page=False)
    with page.expect_download() as printed:
        page.get_by_role("button", name="Problem set (PDF)").click()
    assert printed.value.suggested_filename == f"contest-{finished_lab}-problems-ro.pdf"

    page.goto("/teacher/users")
    page.get_by_label("User name", exact=True).fill("sim_erin")
    page.get_by_role("button", name="Create and show the password").click()
    expect(page.locator(".slip-login")).to_have_text("sim_erin")
    screenshot(page, "jury-slips-with-pdf")
    with page.expect_download() as slips:
        page.get_by_role("button", name="Download the slips (PDF)").click()
    assert open(slips.value.path(), "rb").read(5) == b"%PDF-"
