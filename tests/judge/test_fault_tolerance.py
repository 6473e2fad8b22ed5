"""Issue #6 proof under faults: a PostgreSQL-backed API and three workers as separate processes (each
worker in a network namespace of its own, as a separate host) judge
200 submissions while one worker is killed with SIGKILL mid-judging, another is frozen (SIGSTOP)
past its lease and then thawed, and the API is restarted once. Every submission must end judged,
with exactly one complete final result, and nothing written by a lost lease may count."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from judge.db import make_engine, make_sessionmaker, upgrade
from judge.generate import generate
from judge.models import Submission, TestResult
from sandbox import Sandbox
from tests.judge.test_packages_generate import make_package
from tests.slots import WORK_ROOT, slot

SUBMISSIONS = 200
LEASE_S = 3
SOURCE = "a, b = map(int, input().split())\nprint(a + b)  # {}\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, timeout_s: float, what: str):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
def test_nothing_lost_when_workers_die_and_api_restarts(postgres_url, tmp_path):
    WORK_ROOT.mkdir(mode=0o755, exist_ok=True)
    upgrade(postgres_url)
    package = make_package(tmp_path / "problems")
    generate(package)
    work = Path(tempfile.mkdtemp(prefix="fault-", dir=WORK_ROOT))
    work.chmod(0o755)  # the sandbox uids must reach their folders below it
    env = {
        **os.environ,
        "JUDGE_DATABASE_URL": postgres_url,
        "JUDGE_WORK_DIR": str(work),
        "JUDGE_LEASE_SECONDS": str(LEASE_S),
        "JUDGE_SUBMIT_INTERVAL_S": "0",
        "PYTHONUNBUFFERED": "1",
    }
    run = [sys.executable, "-m", "judge"]
    subprocess.run([*run, "problem", "load", str(package)], env=env, check=True, capture_output=True)
    sessions = make_sessionmaker(make_engine(postgres_url))
    from judge.auth import create_user, issue_token

    with sessions() as s:
        user, _ = create_user(s, "student", "student", password="pw-123456789")
        token, _ = issue_token(s, user)
    port = _free_port()
    logs = {name: open(tmp_path / f"{name}.log", "w") for name in ("api", "w1", "w2", "w3")}

    def start_api():
        return subprocess.Popen(
            [*run, "serve", "--workers", "0", "--no-load", "--port", str(port)],
            env=env,
            stdout=logs["api"],
            stderr=subprocess.STDOUT,
        )

    api = start_api()
    prefix, worker_env = _separate_host(env, postgres_url)
    workers = {
        name: subprocess.Popen(
            [*prefix, *run, "worker", "--slot", str(slot(60 + i))],
            env=worker_env,
            stdout=logs[name],
            stderr=subprocess.STDOUT,
        )
        for i, name in enumerate(("w1", "w2", "w3"))
    }
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    try:
        if prefix:  # each worker really sits in a network namespace apart from the API's
            own = os.readlink("/proc/self/ns/net")
            spaces = {_wait(lambda p=p: _net_namespace(p), 10, "the worker") for p in workers.values()}
            assert own not in spaces and len(spaces) == 3
        _wait(lambda: _up(client), 120, "the API")
        ids = []
        for i in range(SUBMISSIONS):
            if i == SUBMISSIONS // 2:  # restart the API once, mid-stream
                api.send_signal(signal.SIGTERM)
                api.wait(timeout=30)
                api = start_api()
                _wait(lambda: _up(client), 120, "the restarted API")
            reply = client.post(
                "/api/v1/submissions", json={"problem": "sum", "language": "python3", "source": SOURCE.format(i)}
            )
            assert reply.status_code == 202, reply.text
            ids.append(reply.json()["id"])

        def judging_by(worker) -> int | None:
            with sessions() as s:
                return s.scalar(
                    select(Submission.id).where(
                        Submission.status == "judging", Submission.worker_id.like(f"%:{worker.pid}:%")
                    )
                )

        def stopped_while_judging(worker) -> int | None:
            """The submission ``worker`` is judging, with the worker stopped (SIGSTOP) in the middle
            of it; None (the worker going on) when it was not judging or finished just before."""
            judged = judging_by(worker)
            if judged is None:
                return None
            worker.send_signal(signal.SIGSTOP)
            time.sleep(0.2)  # a commit the worker sent before it stopped (its verdict) lands
            if judging_by(worker) == judged:
                return judged
            worker.send_signal(signal.SIGCONT)
            return None

        killed = _wait(lambda: stopped_while_judging(workers["w1"]), 120, "w1 to judge something")
        workers["w1"].send_signal(signal.SIGKILL)
        frozen = _wait(lambda: stopped_while_judging(workers["w2"]), 120, "w2 to judge something")
        with sessions() as s:
            frozen_attempt = s.get(Submission, frozen).attempt

        def taken_over() -> bool:  # its lease expired and another worker claimed the submission again
            with sessions() as s:
                return s.get(Submission, frozen).attempt > frozen_attempt

        _wait(taken_over, 120, "the frozen worker's submission to be taken over")
        workers["w2"].send_signal(signal.SIGCONT)

        def all_done():
            with sessions() as s:
                return s.scalar(select(func.count()).select_from(Submission).where(Submission.status != "done")) == 0

        _wait(all_done, 400, "every submission to be judged")
        with sessions() as s:
            rows = s.scalars(select(Submission).where(Submission.id.in_(ids))).all()
            assert len(rows) == SUBMISSIONS
            assert {r.verdict for r in rows} == {"AC"}, [
                (r.id, r.verdict, r.judge_message) for r in rows if r.verdict != "AC"
            ]
            for r in rows:
                final = s.scalars(
                    select(TestResult).where(TestResult.submission_id == r.id, TestResult.attempt == r.attempt)
                ).all()
                assert sorted(t.ordinal for t in final) == list(range(1, r.tests_total + 1)), r.id
                later = s.scalar(
                    select(func.count())
                    .select_from(TestResult)
                    .where(TestResult.submission_id == r.id, TestResult.attempt > r.attempt)
                )
                assert later == 0
            assert s.get(Submission, killed).attempt >= 2  # judged again after the kill
            assert s.get(Submission, frozen).attempt > frozen_attempt  # taken over while frozen
        assert workers["w2"].poll() is None  # the thawed worker discarded its stale work and lives on
    finally:
        for proc in [api, *workers.values()]:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.terminate()
        for proc in [api, *workers.values()]:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        client.close()
        for i in range(3):  # what the killed worker left (its session disk, its cgroups) goes with its slot
            Sandbox(slot=slot(60 + i)).close()
    for log in logs.values():
        log.close()
    shutil.rmtree(work, ignore_errors=True)
    assert not work.exists()  # nothing left mounted in it
    assert "lost" in (tmp_path / "w2.log").read_text()  # w2 saw that its lease had been taken over


PG_SOCKET_DIR = Path("/var/run/postgresql")


def _net_namespace(process) -> str | None:
    """The network namespace of a started worker once ``unshare`` has exec'd it, else None."""
    try:
        if b"judge" not in Path(f"/proc/{process.pid}/cmdline").read_bytes():
            return None
        return os.readlink(f"/proc/{process.pid}/ns/net")
    except OSError:
        return None


def _separate_host(env: dict, postgres_url: str) -> tuple[list[str], dict]:
    """How to start a worker as if on another host: in a network namespace of its own (no route to
    the API or to any TCP address of this host), reaching PostgreSQL through its Unix socket, the
    only thing a worker shares with the rest. Falls back to a plain process where that is not
    possible (no root, no ``unshare``, no socket)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or not (PG_SOCKET_DIR / ".s.PGSQL.5432").exists():
        return [], env
    database = postgres_url.rsplit("/", 1)[1]
    return ["unshare", "--net", "--"], {
        **env,
        "JUDGE_DATABASE_URL": f"postgresql+psycopg://postgres@/{database}?host={PG_SOCKET_DIR}",
    }


def _up(client) -> bool:
    try:
        return client.get("/api/v1/problems").status_code == 200
    except httpx.HTTPError:
        return False


def test_sigterm_gives_the_submission_back_and_the_worker_exits(sqlite_url, tmp_path):
    """Graceful stop: the current test finishes, the submission returns to the queue unjudged."""
    WORK_ROOT.mkdir(mode=0o755, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="sigterm-", dir=WORK_ROOT))
    work.chmod(0o755)
    upgrade(sqlite_url)
    package = make_package(tmp_path / "problems")
    for i in range(2, 9):  # more tests, so that SIGTERM arrives with tests still to run
        (package / "data/sample" / f"{i:02d}.in").write_text(f"{i} {i}\n")
    generate(package)
    env = {**os.environ, "JUDGE_DATABASE_URL": sqlite_url, "JUDGE_WORK_DIR": str(work)}
    run = [sys.executable, "-m", "judge"]
    subprocess.run([*run, "problem", "load", str(package)], env=env, check=True, capture_output=True)
    sessions = make_sessionmaker(make_engine(sqlite_url))
    with sessions() as s:
        row = Submission(
            problem_id="sum",
            package_sha256=_package_hash(s),
            language="python3",
            source=(
                "import time\nwhile time.process_time() < 0.6: pass\na, b = map(int, input().split())\nprint(a + b)\n"
            ),
        )
        s.add(row)
        s.commit()
        sid = row.id
    worker = subprocess.Popen(
        [*run, "worker", "--slot", str(slot(63))], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:

        def first_result():
            with sessions() as s:
                return s.scalar(select(func.count()).select_from(TestResult).where(TestResult.submission_id == sid))

        _wait(first_result, 120, "the first test result")
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
        shutil.rmtree(work, ignore_errors=True)
    with sessions() as s:
        row = s.get(Submission, sid)
        assert (row.status, row.verdict, row.worker_id) == ("queued", None, None)
        written = s.scalar(select(func.count()).select_from(TestResult).where(TestResult.submission_id == sid))
        assert 1 <= written < 8  # it stopped after the test it was running, not at the end
    assert worker.returncode == 0


def _package_hash(session) -> str:
    from judge.models import Problem

    return session.get(Problem, "sum").package_sha256


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_serve_takes_its_workers_down_with_it(sqlite_url, how):
    """``judge serve`` ended by SIGTERM (uvicorn re-raises it after shutdown) or SIGKILL leaves no
    worker process behind."""
    WORK_ROOT.mkdir(mode=0o755, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="serve-", dir=WORK_ROOT))
    work.chmod(0o755)
    env = {**os.environ, "JUDGE_DATABASE_URL": sqlite_url, "JUDGE_WORK_DIR": str(work)}
    serve = subprocess.Popen(
        [sys.executable, "-m", "judge", "serve", "--workers", "1", "--no-load", "--port", str(_free_port())],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def children() -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if (
                    entry.name.isdigit()
                    and b"judge\x00worker" in (entry / "cmdline").read_bytes()
                    and str(work).encode() in (entry / "environ").read_bytes()
                ):
                    found.append(int(entry.name))
            except OSError:
                pass
        return found

    try:
        _wait(children, 60, "the worker to start")
        serve.send_signal(how)
        serve.wait(timeout=30)
        _wait(lambda: not children(), 30, "the worker to stop")
    finally:
        for pid in children():
            os.kill(pid, signal.SIGKILL)
        if serve.poll() is None:
            serve.kill()
        shutil.rmtree(work, ignore_errors=True)
