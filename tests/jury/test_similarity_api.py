"""Similarity and the sources zip over the API, the CLI and the teacher's pages: the one copied pair
among ten submissions ranks first, only the contest's jury (a teacher, an admin) may look, and the
zip holds one folder per student with names that cannot climb out of it."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judge.cli import app as cli
from judge.package_store import load_problem
from judge.source_archive import safe_name
from tests.conftest import logged_in_client

from .test_similarity import FIXTURES, HIGH, LEE, LOW, ROOT

TEN = [  # (student, language, source): ten submissions to lee, carol's a renamed copy of bob's
    ("ana", "cpp", LEE / "accepted/bfs.cpp"),
    ("bob", "python3", LEE / "accepted/from_cheese.py"),
    ("carol", "python3", FIXTURES / "lee_from_cheese_renamed.py"),
    ("dan", "cpp", FIXTURES / "lee_queue_of_pairs.cpp"),
    ("eve", "python3", ROOT / "reference/lee.py"),
    ("fred", "python3", LEE / "wrong_answer/first_dfs_path.py"),
    ("gina", "python3", LEE / "wrong_answer/greedy.py"),
    ("hugo", "python3", LEE / "time_limit_exceeded/all_simple_paths.py"),
    ("ines", "python3", FIXTURES / "lee_parent_dict.py"),
    ("jon", "python3", FIXTURES / "lee_level_sets.py"),
]


@pytest.fixture
def lab(api_app, teacher_client):
    """A running contest of teacher1 on lee (A) and lines (B), ten students each submitting ``TEN``."""
    with api_app.state.sessions() as session:
        load_problem(session, ROOT / "problems/lee")
        load_problem(session, ROOT / "problems/lines")
        session.commit()
    start = datetime.now(UTC) - timedelta(minutes=10)
    reply = teacher_client.post(
        "/api/v1/contests",
        json={
            "name": "Lab 4",
            "start_at": start.isoformat(),
            "end_at": (start + timedelta(hours=2)).isoformat(),
            "problems": [{"problem": "lee"}, {"problem": "lines"}],
        },
    )
    assert reply.status_code == 201, reply.text
    contest = reply.json()["id"]
    students = {}
    for name, language, path in TEN:
        students[name] = logged_in_client(api_app, name, "student")
        body = {"problem": "A", "contest": contest, "language": language, "source": path.read_text()}
        sent = students[name].post("/api/v1/submissions", json=body)
        assert sent.status_code == 202, sent.text
    return contest, students


def test_the_one_copied_pair_among_ten_submissions_ranks_first(lab, teacher_client):
    contest, _ = lab
    reply = teacher_client.get(f"/api/v1/contests/{contest}/similarity", params={"problem": "A"})
    assert reply.status_code == 200, reply.text
    report = reply.json()
    assert report["problem"] == "lee" and report["letter"] == "A" and report["sources"] == 10
    assert len(report["pairs"]) == 1 + 28  # two C++ sources, eight Python ones: pairs within each family
    top, runner_up = report["pairs"][:2]
    assert {top["first"]["user"], top["second"]["user"]} == {"bob", "carol"}
    # the package's own wrong solutions share their author's reading code (up to half), far below a copy
    assert top["score"] >= HIGH and runner_up["score"] <= top["score"] - 0.4
    assert all(p["score"] < LOW for p in report["pairs"] if {p["first"]["user"], p["second"]["user"]} & {"ines", "jon"})
    side = teacher_client.get(f"/api/v1/similarity/{top['first']['submission']}/{top['second']['submission']}")
    assert side.status_code == 200, side.text
    first = side.json()["first"]
    assert "".join(s["text"] for s in first["segments"]) == (LEE / "accepted/from_cheese.py").read_text()
    assert any(s["matched"] for s in first["segments"])
    assert teacher_client.get(f"/api/v1/contests/{contest}/similarity?problem=B").json()["pairs"] == []
    assert teacher_client.get(f"/api/v1/contests/{contest}/similarity?problem=Q").status_code == 404


def test_any_problem_among_named_students(lab, teacher_client):
    reply = teacher_client.get("/api/v1/problems/lee/similarity", params={"users": "bob,carol,eve"})
    assert reply.status_code == 200, reply.text
    pairs = reply.json()["pairs"]
    assert [{p["first"]["user"], p["second"]["user"]} for p in pairs][0] == {"bob", "carol"} and len(pairs) == 3
    assert teacher_client.get("/api/v1/problems/lee/similarity?users=nobody").status_code == 404
    assert teacher_client.get("/api/v1/problems/nope/similarity").status_code == 404


def test_only_the_contests_jury_may_compare_or_download(lab, api_app, teacher_client):
    contest, students = lab
    ana = students["ana"]
    other_teacher = logged_in_client(api_app, "teacher2", "teacher")
    bob_first = ana.get(f"/api/v1/contests/{contest}/submissions").json()[0]["id"]
    for client, status in ((ana, 403), (other_teacher, 404), (TestClient(api_app), 401)):
        assert client.get(f"/api/v1/contests/{contest}/similarity?problem=A").status_code == status
        assert client.get(f"/api/v1/contests/{contest}/sources.zip").status_code == status
    assert ana.get("/api/v1/problems/lee/similarity").status_code == 403
    assert ana.get(f"/api/v1/similarity/{bob_first}/{bob_first + 1}").status_code == 403
    # another teacher sees no contest submission of teacher1's contest: as if it did not exist
    assert other_teacher.get(f"/api/v1/similarity/{bob_first}/{bob_first + 1}").status_code == 404
    assert other_teacher.get("/api/v1/problems/lee/similarity").json()["sources"] == 0


def test_the_sources_zip_has_a_folder_per_student_and_named_files(lab, teacher_client):
    contest, _ = lab
    reply = teacher_client.get(f"/api/v1/contests/{contest}/sources.zip")
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/zip"
    assert f"contest-{contest}-sources.zip" in reply.headers["content-disposition"]
    archive = zipfile.ZipFile(io.BytesIO(reply.content))
    names = archive.namelist()
    assert sorted({n.split("/")[0] for n in names}) == sorted(name for name, _, _ in TEN)
    carol = next(n for n in names if n.startswith("carol/"))
    assert carol.startswith("carol/A-lee_") and "_queued_" in carol and carol.endswith(".py")
    assert archive.read(carol).decode() == (FIXTURES / "lee_from_cheese_renamed.py").read_text()
    assert all(".." not in n and not n.startswith("/") and n.count("/") == 1 for n in names)


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("../../etc/passwd", "_.._etc_passwd"),
        ("/abs", "_abs"),
        ("ana", "ana"),
        ("a b\x00c", "a_b_c"),
        ("..", "_"),
        ("", "_"),
    ],
)
def test_a_name_part_cannot_climb_out(text, safe):
    assert safe_name(text) == safe


def test_the_cli_ranks_pairs_and_writes_the_zip(lab, api_app, tmp_path, monkeypatch):
    contest, _ = lab
    database = api_app.state.settings.database_url
    monkeypatch.setenv("JUDGE_DATABASE_URL", database)
    monkeypatch.setenv("JUDGE_WORK_DIR", str(api_app.state.settings.work_dir))
    runner = CliRunner()
    shown = runner.invoke(cli, ["contest", "similarity", str(contest), "--problem", "A", "--limit", "3"])
    assert shown.exit_code == 0, shown.output
    first_row = next(line for line in shown.output.splitlines() if "%" in line)
    assert "bob" in first_row and "carol" in first_row
    assert runner.invoke(cli, ["contest", "similarity", str(contest), "--problem", "Z"]).exit_code == 1
    anyone = runner.invoke(cli, ["problem", "similarity", "lee", "--users", "bob,carol"])
    assert anyone.exit_code == 0 and "carol" in anyone.output
    target = tmp_path / "out.zip"
    written = runner.invoke(cli, ["contest", "sources", str(contest), "-o", str(target)])
    assert written.exit_code == 0, written.output
    assert len(zipfile.ZipFile(target).namelist()) == 10
    assert runner.invoke(cli, ["contest", "sources", "999", "-o", str(target)]).exit_code == 1


def test_the_teacher_pages_rank_and_show_escaped_sources(lab, api_app, teacher_client):
    contest, students = lab
    hostile = '#include <cstdio>\n// </pre><script>alert("x")</script>\nint main() { return 0; }\n'
    sent = students["dan"].post(
        "/api/v1/submissions", json={"problem": "A", "contest": contest, "language": "cpp", "source": hostile}
    )
    assert sent.status_code == 202
    page = TestClient(api_app, cookies={"classjudge_session": teacher_client.headers["Authorization"][7:]})
    listed = page.get(f"/teacher/contests/{contest}/similarity?problem=A")
    assert listed.status_code == 200, listed.text
    assert "bob" in listed.text and "carol" in listed.text and "Side by side" in listed.text
    sub = sent.json()["id"]
    ana_cpp = students["ana"].get("/api/v1/submissions").json()[0]["id"]
    shown = page.get(f"/teacher/similarity/{sub}/{ana_cpp}")
    assert shown.status_code == 200, shown.text
    assert "<script>alert" not in shown.text and "&lt;script&gt;alert" in shown.text
    assert page.get(f"/teacher/similarity/{sub}/{sub - 1}").status_code == 422  # C++ against Python
    assert 'href="/teacher/similarity"' in page.get("/teacher/contests").text
    anyone = page.get("/teacher/similarity", params={"problem": "lee", "users": "bob, carol"})
    assert anyone.status_code == 200 and "2 sources compared, 1 pair." in anyone.text
    assert page.get(f"/teacher/contests/{contest}/sources.zip").headers["content-type"] == "application/zip"
