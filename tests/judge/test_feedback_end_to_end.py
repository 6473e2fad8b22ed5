"""Checker feedback end to end: a student's wrong path judged by a real worker in the real sandbox
against ``lee``; the feedback is stored on every test result, shown to the student on the samples
only (like the checker message), to the jury on every test, and drawn with the bad step marked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.api import create_app
from judge.auth import create_user, issue_token
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.models import TestResult
from judge.package_store import load_problem
from judge.pictures import render_picture
from judge.worker import Worker
from tests.slots import WORK_ROOT, slot

REPO = Path(__file__).resolve().parents[2]
LEE = REPO / "problems" / "lee"
SLOT = slot(47)

# Straight down, then across, through whatever walls are in the way: on sample 1 (mouse (1, 1),
# cheese (5, 1), walls on row 2) the second cell (2, 1) is a wall, and 4 moves are too few.
PY_THROUGH_WALLS = """
import sys
v = list(map(int, sys.stdin.read().split()))
n, m = v[0], v[1]
r, c, lb, cb = v[2 + n * m : 6 + n * m]
path = [(r, c)]
while r != lb:
    r += 1 if lb > r else -1
    path.append((r, c))
while c != cb:
    c += 1 if cb > c else -1
    path.append((r, c))
print(len(path) - 1)
print("\\n".join(f"{a} {b}" for a, b in path))
"""


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """One student submission judged on a trimmed lee (samples + 3 secret tests):
    (student's view, jury's view, stored test results)."""
    tmp = tmp_path_factory.mktemp("feedback-e2e")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=REPO / "problems",
        work_dir=WORK_ROOT / tmp.name,
    )
    upgrade(settings.database_url)
    short = tmp / "short" / "lee"
    shutil.copytree(LEE, short, symlinks=True, ignore=shutil.ignore_patterns("submissions"))
    for path in sorted((short / "data" / "secret").glob("*.in"))[3:]:
        path.unlink()
        path.with_suffix(".ans").unlink()
    sessions = make_sessionmaker(make_engine(settings.database_url))
    with sessions() as session:
        load_problem(session, short)
        student, _ = create_user(session, "pupil", "student", password="pupil-password")
        teacher, _ = create_user(session, "teach", "teacher", password="teach-password")
        tokens = {"student": issue_token(session, student)[0], "teacher": issue_token(session, teacher)[0]}
        session.commit()
    client = TestClient(create_app(settings))
    as_student = {"Authorization": f"Bearer {tokens['student']}"}
    reply = client.post(
        "/api/v1/submissions",
        json={"problem": "lee", "language": "python3", "source": PY_THROUGH_WALLS},
        headers=as_student,
    )
    assert reply.status_code == 202, reply.text
    sid = reply.json()["id"]
    worker = Worker(settings, slot=SLOT)
    worker.start()
    try:
        while worker.judge_one():
            pass
    finally:
        worker.close()
        shutil.rmtree(settings.work_dir, ignore_errors=True)
    student_view = client.get(f"/api/v1/submissions/{sid}", headers=as_student).json()
    jury_view = client.get(f"/api/v1/submissions/{sid}", headers={"Authorization": f"Bearer {tokens['teacher']}"})
    with sessions() as session:
        stored = session.query(TestResult).filter_by(submission_id=sid).order_by(TestResult.ordinal).all()
        rows = [(r.test_group, r.verdict, r.feedback) for r in stored]
    return student_view, jury_view.json(), rows


def test_feedback_is_stored_for_every_checked_test(judged):
    _, _, rows = judged
    assert len(rows) == 6 and all(feedback is not None and feedback["kind"] == "lee" for _, _, feedback in rows)
    assert {verdict for _, verdict, _ in rows} >= {"WA"}
    for _, verdict, feedback in rows:
        assert feedback["accepted"] is (verdict == "AC")


def test_the_student_sees_the_samples_feedback_with_the_wall_marked(judged):
    student, _, _ = judged
    assert student["status"] == "done" and student["verdict"] == "WA"
    first = student["results"][0]
    assert first["test"] == "sample/01" and first["verdict"] == "WA"
    fault = first["feedback"]["fault"]
    assert (fault["reason"], fault["step_reason"], fault["cell"], fault["step"]) == ("too_short", "wall", [2, 1], 1)
    picture = render_picture(first["feedback"])
    assert picture is not None and 'data-row="2" data-col="1"' in picture and "is a wall" in picture


def test_secret_feedback_is_hidden_from_the_student_and_shown_to_the_jury(judged):
    student, jury, _ = judged
    secret = [r for r in student["results"] if r["group"] == "secret"]
    assert len(secret) == 3 and all(r["feedback"] is None and r["message"] is None for r in secret)
    jury_secret = [r for r in jury["results"] if r["group"] == "secret"]
    assert len(jury_secret) == 3 and all(r["feedback"]["kind"] == "lee" for r in jury_secret)
    assert all(r["feedback"] is not None for r in student["results"] if r["group"] == "sample")
