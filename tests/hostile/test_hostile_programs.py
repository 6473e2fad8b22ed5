"""Hostile submissions through the real worker and sandbox (slot 82): programs that snoop for the
judge answers, read /etc/shadow, fake a kill with ``exit(137)``, sleep, flood the output, print
binary garbage, fork without end, or come in the wrong language. Each gets the verdict its
behaviour earns (never AC by cheating, never JE), and the worker judges the next submission right.

The package is a tiny A+B with the default token checker: one sample (1 2 -> 3) and one secret
test (7 11 -> 18) whose answer a program must not find.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.api import create_app
from judge.auth import create_user, issue_token
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.package_store import load_problem
from judge.worker import Worker
from tests.slots import WORK_ROOT, slot

SLOT = slot(82)  # a sandbox slot of its own (80+: clear of workers, verify and the other test folders)

A_PLUS_B = "a, b = map(int, input().split())\nprint(a + b)\n"
SNOOP = r"""
import os
a, b = map(int, input().split())
found = []
for root, dirs, files in os.walk("/"):  # everything but the system folders (too big for a 1 s test)
    dirs[:] = [d for d in dirs if root != "/" or d not in ("proc", "sys", "dev", "usr", "lib", "lib64", "etc")]
    found += [os.path.join(root, f) for f in files if f.endswith((".ans", ".py"))]
for path in found:  # a secret judge answer within reach would be printed and accepted
    if path.endswith(".ans") and "secret" in path:
        print(open(path).read())
        raise SystemExit
print(0 if any(p.endswith("main.py") for p in found) else -1)  # 0: the walk saw at least its own source
"""
PROGRAMS = {
    "snoop": (SNOOP, "WA"),
    "shadow": ("print(open('/etc/shadow').read())\n", "RTE"),
    "exit137": ("raise SystemExit(137)\n", "RTE"),  # looks like SIGKILL's 128 + 9, is an exit
    "sleep": ("import time\ntime.sleep(10**6)\n", "TLE"),
    "flood": ("import sys\nwhile True:\n    sys.stdout.write('1' * 65536)\n", "OLE"),
    "garbage": ("import os, sys\nsys.stdout.buffer.write(os.urandom(4096) + b'\\x00\\xff\\xfe\\r' * 999)\n", "WA"),
    "long-line": ("import sys\nsys.stdout.write('7' * 900_000)\n", "WA"),
    "crlf": ("a, b = map(int, input().split())\nprint(a + b, end='\\r\\n')\n", "AC"),
    "nul-padded": ("a, b = map(int, input().split())\nprint(a + b, end='\\x00\\n')\n", "WA"),
    "forkbomb": (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        ("TLE", "RTE", "MLE"),
    ),
    "kill-all": (
        "import os, signal\nfor pid in (os.getppid(), -1):\n    try:\n        os.kill(pid, 9)\n"
        "    except OSError:\n        pass\n" + A_PLUS_B,
        "AC",
    ),
    "c-as-python": ('#include <stdio.h>\nint main(void){ puts("3"); return 0; }\n', "CE"),
}


def write_package(folder: Path) -> Path:
    """The A+B package (output limit 1 MiB) in ``folder``."""
    (folder / "statement").mkdir(parents=True)
    (folder / "problem.yaml").write_text("name: A plus B\nlimits:\n  time_limit: 1\n  memory: 256\n  output: 1\n")
    (folder / "statement" / "problem.en.md").write_text("Print a + b.\n")
    for group, name, data, answer in (("sample", "01", "1 2\n", "3\n"), ("secret", "01-big", "7 11\n", "18\n")):
        (folder / "data" / group).mkdir(parents=True, exist_ok=True)
        (folder / "data" / group / f"{name}.in").write_text(data)
        (folder / "data" / group / f"{name}.ans").write_text(answer)
    return folder


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every program of PROGRAMS submitted over the API and judged by one real worker, then an
    honest A+B after them all; yields {name: the teacher's view of the submission}."""
    tmp = tmp_path_factory.mktemp("hostile")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=tmp,
        work_dir=WORK_ROOT / tmp.name,
    )  # the sandbox uid reaches /tmp
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        load_problem(session, write_package(tmp / "aplusb"))
        teacher, _ = create_user(session, "tess", "teacher", password="pw-12345")
        session.commit()
        token, _ = issue_token(session, teacher)
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    worker = Worker(settings, slot=SLOT)
    worker.languages = ["python3"]  # its self-test is tests/languages' business
    try:
        ids = {}
        for name, (source, _) in [*PROGRAMS.items(), ("honest", (A_PLUS_B, "AC"))]:
            reply = client.post(
                "/api/v1/submissions", json={"problem": "aplusb", "language": "python3", "source": source}
            )
            assert reply.status_code == 202, reply.text
            ids[name] = reply.json()["id"]
        while worker.judge_one():
            pass
        yield {name: client.get(f"/api/v1/submissions/{sid}").json() for name, sid in ids.items()}
    finally:
        worker.close()
        shutil.rmtree(settings.work_dir, ignore_errors=True)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_hostile_program_earns_its_verdict(judged, name):
    state, expected = judged[name], PROGRAMS[name][1]
    assert state["status"] == "done"
    assert state["verdict"] in (expected if isinstance(expected, tuple) else (expected,)), state
    assert state["judge_message"] is None  # no judge error behind any verdict
    if state["verdict"] != "CE":
        assert [r["test"] for r in state["results"]] == ["sample/01", "secret/01-big"]
        assert all(len(r["message"] or "") <= 2000 for r in state["results"])


def test_no_program_finds_a_judge_answer(judged):
    secret = judged["snoop"]["results"][1]
    assert (secret["test"], secret["verdict"]) == ("secret/01-big", "WA")
    assert "'0'" in secret["message"]  # its walk worked (it saw its own main.py) and found no secret .ans


def test_the_worker_judges_an_honest_submission_after_them_all(judged):
    state = judged["honest"]
    assert (state["verdict"], state["tests_passed"], state["tests_total"]) == ("AC", 2, 2)
