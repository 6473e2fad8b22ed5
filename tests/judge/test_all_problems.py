"""The service lists and judges every shipped package: each is loaded by the service,
listed over the API, and judged by a real worker: its accepted C/C++ solution AC, its first
wrong-answer submission WA."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.api import create_app
from judge.auth import create_user, issue_token
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.languages import language_for_file
from judge.package_store import load_problems_dir
from judge.worker import Worker
from tests.slots import WORK_ROOT, slot

REPO = Path(__file__).resolve().parents[2]
PROBLEMS = ("basic", "camels", "domination", "house", "knight", "lee", "lines", "queens", "snakes")
SLOT = slot(41)


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("five")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=REPO / "problems",
        work_dir=WORK_ROOT / tmp.name,
    )
    upgrade(settings.database_url)
    sessions = make_sessionmaker(make_engine(settings.database_url))
    with sessions() as session:
        load_problems_dir(session, settings.problems_dir)
        teacher, _ = create_user(session, "five-teacher", "teacher", password="five-password")
        token = issue_token(session, teacher)[0]
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    worker = Worker(settings, slot=SLOT)
    worker.start()
    yield client, worker
    worker.close()
    shutil.rmtree(settings.work_dir, ignore_errors=True)


def _submission(problem: str, folder: str) -> Path:
    """The package's first C or C++ submission in ``folder`` (else its first Python one)."""
    files = sorted((REPO / "problems" / problem / "submissions" / folder).iterdir())
    native = [f for f in files if f.suffix in (".c", ".cpp")]
    return (native or [f for f in files if f.suffix == ".py"])[0]


def _language_of(path: Path) -> str:
    """The language id the file's extension names (every submission in a package has one)."""
    language = language_for_file(path.name)
    assert language is not None, path
    return language.id


def _judge(service, problem: str, path: Path) -> dict:
    client, worker = service
    reply = client.post(
        "/api/v1/submissions",
        json={"problem": problem, "language": _language_of(path), "source": path.read_text()},
    )
    assert reply.status_code == 202, reply.text
    while worker.judge_one():
        pass
    return client.get(f"/api/v1/submissions/{reply.json()['id']}").json()


def test_the_service_lists_every_package(service):
    client, _ = service
    assert tuple(p["id"] for p in client.get("/api/v1/problems").json()) == PROBLEMS
    for problem in PROBLEMS:
        shown = client.get(f"/api/v1/problems/{problem}").json()
        assert shown["samples"] and shown["statement"].strip()


@pytest.mark.parametrize("problem", PROBLEMS)
def test_accepted_and_wrong_answer_submissions_get_their_verdicts(service, problem):
    accepted = _judge(service, problem, _submission(problem, "accepted"))
    assert accepted["verdict"] == "AC", accepted
    assert accepted["tests_passed"] == accepted["tests_total"] >= 12
    wrong = _judge(service, problem, _submission(problem, "wrong_answer"))
    assert wrong["verdict"] == "WA", wrong
