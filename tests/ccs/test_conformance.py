"""The specification's own checker, ``check-api.sh -e`` of icpc/ccs-specs (branch 2023-06), run
against ``/api/ccs`` of a judge serving the contests of ``tests/ccs/frozen.py`` (pass-fail and
score, both frozen), as its jury and as the public; ``tests/ccs/yajsv.py`` stands in for yajsv.

Needs a checkout of the specification (never part of this repository): set ``CCS_SPECS_DIR`` to
it, e.g. ``git clone -b 2023-06 https://github.com/icpc/ccs-specs /tmp/ccs-specs``; skipped without
it, or without curl and jq (which the script calls).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import uvicorn

from .frozen import PASSWORD, seed_frozen_contest, seed_score_contest

HERE = Path(__file__).resolve().parent


def specs_dir() -> Path:
    """The specification checkout of ``CCS_SPECS_DIR``; skips the test without one."""
    folder = Path(os.environ.get("CCS_SPECS_DIR", "/nonexistent"))
    if not (folder / "check-api.sh").is_file():
        pytest.skip("no Contest API specification: set CCS_SPECS_DIR to a checkout of icpc/ccs-specs (2023-06)")
    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("check-api.sh needs curl and jq")
    return folder


def seed_clarifications(session, frozen: dict) -> None:
    """In the frozen contest: ana's question answered to everyone, ben's answered to ben alone, and
    an announcement about problem B (every kind of clarification message)."""
    from judge import clarifications as clar
    from judge.models import Contest, User, utcnow

    contest = session.get(Contest, frozen["id"])
    jury, ana, ben = (session.get(User, frozen["users"][name]) for name in ("jury", "ana", "ben"))
    clar.answer(session, jury, clar.ask(session, ana, contest, "Is n >= 1?", "A", 0, utcnow()), "Yes.", True, utcnow())
    clar.answer(session, jury, clar.ask(session, ben, contest, "Why?", None, 0, utcnow()), "Because.", False, utcnow())
    clar.announce(session, jury, contest, "B: mind the limits.", "B", utcnow())


@pytest.fixture
def served(api_app):
    """``api_app`` with the frozen pass-fail contest (with clarifications) and a score contest,
    served over HTTP on a free local port; its base URL."""
    with api_app.state.sessions() as session:
        seed_clarifications(session, seed_frozen_contest(session))
        seed_score_contest(session)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(api_app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/api/ccs"
    server.should_exit = True
    thread.join(10)


def check_api(url: str, curl_options: str) -> subprocess.CompletedProcess:
    """``check-api.sh -e`` (error codes too) with a 3 s event feed, yajsv replaced by ours."""
    folder = specs_dir()
    yajsv = f"{sys.executable} {HERE / 'yajsv.py'}"  # the script expands it unquoted: a command with arguments
    return subprocess.run(
        ["bash", str(folder / "check-api.sh"), "-e", "-t", "3", "-j", yajsv, "-c", curl_options, url],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("who", ["jury", "public"])
def test_check_api_passes(served, who):
    curl = f"-s -u jury:{PASSWORD}" if who == "jury" else "-s"
    result = check_api(served, curl)
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "fail" not in result.stdout and "Failed" not in result.stdout, result.stdout


def test_the_yajsv_stand_in_fails_an_invalid_document_and_passes_a_valid_one(tmp_path, capsys):
    from .yajsv import main

    (tmp_path / "common.json").write_text('{"$id": "https://x.test/common.json", "time": {"type": "string"}}')
    schema = tmp_path / "thing.json"
    schema.write_text('{"$id": "https://x.test/thing.json", "properties": {"t": {"$ref": "common.json#/time"}}}')
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text('{"t": "noon"}')
    bad.write_text('{"t": 12}')
    references = ["-r", str(tmp_path / "common.json")]
    assert main(["-q", "-s", str(schema), *references, str(good)]) == 0
    assert main(["-q", "-s", str(schema), *references, str(bad)]) == 1
    assert "bad.json: fail: t" in capsys.readouterr().out
    assert main(["-s", str(tmp_path / "missing.json"), str(good)]) == 4
