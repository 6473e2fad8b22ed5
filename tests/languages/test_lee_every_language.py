"""Over HTTP with a real worker in the real sandbox (as tests/judge/test_end_to_end.py does): an
accepted ``lee`` solution in every language is AC on a trimmed ``lee``, and a language whose
compiler is missing fails the worker's self-test, shows as unavailable and is refused with 422."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
from argon2 import PasswordHasher, profiles
from fastapi.testclient import TestClient

from judge.api import create_app
from judge.auth import create_user, issue_token
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.languages import LANGUAGES
from judge.package_store import load_problem
from judge.worker import Worker
from tests.languages.conftest import REPO, SOLUTIONS, WORKER_SLOT, needs_root
from tests.slots import WORK_ROOT

pytestmark = needs_root
LEE_ACCEPTED = REPO / "problems" / "lee" / "submissions" / "accepted"
SOLUTION_OF = {
    "c": SOLUTIONS / "lee.c",
    "cpp": LEE_ACCEPTED / "bfs.cpp",
    "cpp20": LEE_ACCEPTED / "bfs.cpp",
    "python3": LEE_ACCEPTED / "from_cheese.py",
    "pypy3": REPO / "reference" / "lee.py",
    "pascal": SOLUTIONS / "lee.pas",
    "java": SOLUTIONS / "MouseAndCheese.java",
    "javascript": SOLUTIONS / "lee.js",
    "kotlin": SOLUTIONS / "lee.kt",
    "rust": SOLUTIONS / "lee.rs",
    "go": SOLUTIONS / "lee.go",
}
BROKEN = "brokenlang"  # a language the worker cannot self-test: its compiler does not exist


@pytest.fixture(scope="module")
def judge_api(short_lee, tmp_path_factory):
    """(API client as a teacher, worker) with ``lee`` trimmed, and LANGUAGES holding one more
    language whose compiler path does not exist, known to the API and the worker alike."""
    tmp = tmp_path_factory.mktemp("languages-api")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=short_lee.parent,
        work_dir=WORK_ROOT / tmp.name,
    )
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        load_problem(session, short_lee)
        session.commit()
    broken = dataclasses.replace(
        LANGUAGES["c"],
        id=BROKEN,
        name="C with a missing compiler",
        compile=("/usr/lib/no-such-toolchain/cc", "-o", "main", "{source}"),
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(LANGUAGES, BROKEN, broken)
        patch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
        client = TestClient(create_app(settings))
        with make_sessionmaker(make_engine(settings.database_url))() as session:  # a teacher: no rate limit
            teacher, _ = create_user(session, "languages-teacher", "teacher", password="languages-pw")
            client.headers["Authorization"] = f"Bearer {issue_token(session, teacher)[0]}"
        worker = Worker(settings, slot=WORKER_SLOT)
        try:
            worker.start()
            yield client, worker
        finally:
            worker.close()
            shutil.rmtree(settings.work_dir, ignore_errors=True)


def _judge(judge_api, language: str, source: str) -> dict:
    client, worker = judge_api
    reply = client.post("/api/v1/submissions", json={"problem": "lee", "language": language, "source": source})
    assert reply.status_code == 202, reply.text
    while worker.judge_one():
        pass
    state = client.get(f"/api/v1/submissions/{reply.json()['id']}").json()
    assert state["status"] == "done"
    return state


@pytest.mark.parametrize("language", sorted(SOLUTION_OF))
def test_an_accepted_lee_solution_is_ac_in_every_language(judge_api, language):
    state = _judge(judge_api, language, SOLUTION_OF[language].read_text())
    assert state["verdict"] == "AC", state
    assert state["tests_passed"] == state["tests_total"] == 8  # 3 samples + 5 secret tests
    assert all(r["verdict"] == "AC" for r in state["results"])


def test_every_real_language_passed_the_worker_self_test(judge_api):
    client, worker = judge_api
    assert set(worker.languages) == set(SOLUTION_OF)
    listed = {entry["id"]: entry["available"] for entry in client.get("/api/v1/languages").json()}
    assert listed == {**{language: True for language in SOLUTION_OF}, BROKEN: False}


def test_a_language_with_a_missing_compiler_is_refused_not_judged(judge_api):
    client, _ = judge_api
    reply = client.post(
        "/api/v1/submissions", json={"problem": "lee", "language": BROKEN, "source": SOLUTION_OF["c"].read_text()}
    )
    assert reply.status_code == 422
    assert "unavailable" in str(reply.json()["detail"])
