"""Printouts (``judge.printouts``, WeasyPrint) opened by a PDF reader (poppler's ``pdftotext``): the
problem set holds each problem's letter, title, limits and samples in the chosen language; password
slips hold each account's name and password; only the jury may print, over the API, the CLI and the
teacher's pages."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judge.cli import app as cli
from judge.package_store import load_problem
from judge.packages import load_package
from judge.printouts import PrintedProblem, problem_set_html
from tests.conftest import logged_in_client

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "artifacts" / "screenshots"


def pdf_text(data: bytes, tmp_path: Path) -> str:
    """The text of a PDF as poppler reads it (layout kept), with runs of spaces squeezed."""
    assert data.startswith(b"%PDF-"), data[:20]
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return re.sub(r"[ \t]+", " ", text)


def sample_lines(problem: str) -> list[str]:
    """Every non-empty line of the package's sample inputs and answers."""
    folder = ROOT / "problems" / problem / "data" / "sample"
    return [line.strip() for p in sorted(folder.iterdir()) for line in p.read_text().splitlines() if line.strip()]


@pytest.fixture
def contest(api_app, teacher_client):
    """A contest of teacher1 with lee as A and lines as B (the real packages)."""
    with api_app.state.sessions() as session:
        for problem in ("lee", "lines"):
            load_problem(session, ROOT / "problems" / problem)
        session.commit()
    start = datetime.now(UTC) + timedelta(days=1)
    reply = teacher_client.post(
        "/api/v1/contests",
        json={
            "name": "Lab 5: paths",
            "start_at": start.isoformat(),
            "end_at": (start + timedelta(hours=2)).isoformat(),
            "problems": [{"problem": "lee"}, {"problem": "lines"}],
        },
    )
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


def test_the_problem_set_pdf_holds_every_title_limit_and_sample(contest, teacher_client, tmp_path):
    reply = teacher_client.get(f"/api/v1/contests/{contest}/problemset.pdf")
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/pdf"
    text = pdf_text(reply.content, tmp_path)
    assert "Lab 5: paths" in text
    assert "A. The mouse and the cheese" in text and "B. Lines: move the ball" in text
    assert "Time limit 1 s per test" in text and "Memory 256 MiB" in text and "Input: input.txt" in text
    lines_of_text = {line.strip() for line in text.splitlines()}
    for problem in ("lee", "lines"):
        missing = [line for line in sample_lines(problem) if line not in lines_of_text]
        assert missing == [], problem
    assert text.index("A. The mouse") < text.index("B. Lines")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (tmp_path / "doc.pdf").write_bytes(reply.content)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "2",
            "-l",
            "2",
            str(tmp_path / "doc.pdf"),
            str(SCREENSHOTS / "problemset"),
        ],
        check=True,
    )


def test_the_problem_set_in_another_language_falls_back_to_english(contest, teacher_client, tmp_path):
    text = pdf_text(teacher_client.get(f"/api/v1/contests/{contest}/problemset.pdf?language=ro").content, tmp_path)
    assert "A. Soricelul si branza" in text  # lee has a Romanian statement
    assert "B. Lines: move the ball" in text  # lines has none: English
    assert teacher_client.get(f"/api/v1/contests/{contest}/problemset.pdf?language=../x").status_code == 422


def test_samples_a_statement_does_not_show_are_printed_from_the_package(tmp_path):
    package = load_package(ROOT / "problems" / "lee")
    bare = tmp_path / "problem.en.md"
    bare.write_text("# Bare\n\nFind the route.\n")
    package.statements["zz"] = bare
    html = problem_set_html(
        "C", (datetime(2026, 1, 1), datetime(2026, 1, 2)), [PrintedProblem("A", "x", package, "s")], "zz"
    )
    assert "Sample tests" in html and html.count("<pre>") == 6  # three samples, input and answer each
    full = problem_set_html(
        "C", (datetime(2026, 1, 1), datetime(2026, 1, 2)), [PrintedProblem("A", "x", package, "t")], "en"
    )
    assert "Sample tests" not in full  # lee's statement shows its samples itself


def test_only_the_jury_prints_the_problem_set(contest, api_app, api_client):
    assert api_client.get(f"/api/v1/contests/{contest}/problemset.pdf").status_code == 403  # a student
    other = logged_in_client(api_app, "teacher2", "teacher")
    assert other.get(f"/api/v1/contests/{contest}/problemset.pdf").status_code == 404  # not its contest: unseen
    assert TestClient(api_app).get(f"/api/v1/contests/{contest}/problemset.pdf").status_code == 401


def test_password_slips_as_pdf_from_the_passwords_just_made(api_app, teacher_client, api_client, tmp_path):
    made = teacher_client.post(
        "/api/v1/users/import",
        json=[{"name": "ana", "display_name": "Ana Pop"}, {"name": "bogdan", "display_name": "Ștefan B"}],
    ).json()
    body = {"accounts": [{"name": a["user"]["name"], "password": a["password"]} for a in made]}
    reply = teacher_client.post("/api/v1/printouts/slips.pdf", json=body)
    assert reply.status_code == 200, reply.text
    assert reply.headers["cache-control"] == "no-store"
    text = pdf_text(reply.content, tmp_path)
    for account in made:
        assert account["user"]["name"] in text and account["password"] in text
    assert "Ana Pop" in text and "Ștefan B" in text and "http://testserver/login" in text
    assert api_client.post("/api/v1/printouts/slips.pdf", json=body).status_code == 403
    assert teacher_client.post("/api/v1/printouts/slips.pdf", json={"accounts": [{"name": "ghost"}]}).status_code == 404
    assert (
        teacher_client.post("/api/v1/printouts/slips.pdf", json={"accounts": [{"name": "teacher1"}]}).status_code == 403
    )
    assert teacher_client.post("/api/v1/printouts/slips.pdf", json={"accounts": []}).status_code == 422


def test_the_slips_page_offers_the_pdf_of_the_same_passwords(api_app, teacher_client, tmp_path):
    page = TestClient(api_app, cookies={"classjudge_session": teacher_client.headers["Authorization"][7:]})
    form = page.get("/teacher/users")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form.text).group(1)
    shown = page.post("/teacher/users", data={"name": "dora", "display_name": "Dora <b>", "csrf_token": csrf})
    assert shown.status_code == 200, shown.text
    password = re.search(r'class="slip-password">([^<]+)<', shown.text).group(1)
    assert f'name="password" value="{password}"' in shown.text and 'action="/teacher/users/slips.pdf"' in shown.text
    pdf = page.post("/teacher/users/slips.pdf", data={"name": "dora", "password": password, "csrf_token": csrf})
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    text = pdf_text(pdf.content, tmp_path)
    assert password in text and "Dora <b>" in text
    assert page.post("/teacher/users/slips.pdf", data={"name": "dora", "password": password}).status_code == 403


def test_the_cli_prints_the_problem_set_and_slips(contest, api_app, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_DATABASE_URL", api_app.state.settings.database_url)
    monkeypatch.setenv("JUDGE_WORK_DIR", str(api_app.state.settings.work_dir))
    runner = CliRunner()
    target = tmp_path / "set.pdf"
    done = runner.invoke(cli, ["contest", "print", str(contest), "--language", "en", "-o", str(target)])
    assert done.exit_code == 0, done.output
    text = pdf_text(target.read_bytes(), tmp_path)
    assert "A. The mouse and the cheese" in text and "B. Lines: move the ball" in text
    assert runner.invoke(cli, ["contest", "print", "999", "-o", str(target)]).exit_code == 1
    logged_in_client(api_app, "ana", "student")
    passwords = tmp_path / "pw.txt"
    passwords.write_text("ana\tsecret-ana-1\n")
    slips = tmp_path / "slips.pdf"
    done = runner.invoke(cli, ["user", "slips", str(passwords), "-o", str(slips)])
    assert done.exit_code == 0, done.output
    assert "secret-ana-1" in pdf_text(slips.read_bytes(), tmp_path)
    passwords.write_text("ghost\tx\n")
    refused = runner.invoke(cli, ["user", "slips", str(passwords), "-o", str(slips)])
    assert refused.exit_code == 1 and "ghost" in refused.output
