"""Load benchmark (issue #6): HTTP submission throughput and latency of one API process on SQLite and
PostgreSQL, and the queue drain rate with one worker against two on CPU-bound submissions.

Run: ``.venv/bin/python benchmarks/load.py`` (PostgreSQL at 127.0.0.1:5432, trust auth; it creates
and drops its own databases). Prints measured numbers and ratios; asserts nothing about time.
Goals from the issue: ≥ 300 accepted submissions/s with p99 < 50 ms; two workers ≥ 1.8× one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.auth import create_user, issue_token  # noqa: E402
from judge.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from judge.generate import generate  # noqa: E402
from judge.models import Submission  # noqa: E402
from judge.package_store import load_problem  # noqa: E402
from tests.judge.test_packages_generate import make_package  # noqa: E402

PG = "postgresql+psycopg://postgres@127.0.0.1:5432"
BUSY = "import time\nwhile time.process_time() < {cpu}: pass\na, b = map(int, input().split())\nprint(a + b)\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Database:
    """A fresh database (SQLite file or PostgreSQL database), dropped on exit."""

    def __init__(self, kind: str, folder: Path):
        self.kind, self.name = kind, f"judge_bench_{uuid.uuid4().hex[:10]}"
        self.url = f"sqlite:///{folder / 'bench.db'}" if kind == "sqlite" else f"{PG}/{self.name}"

    def __enter__(self):
        if self.kind == "postgresql":
            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
                c.execute(f'CREATE DATABASE "{self.name}"')
        upgrade(self.url)
        return self

    def __exit__(self, *exc):
        if self.kind == "postgresql":
            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def prepare(url: str, folder: Path, users: int) -> tuple[str, list[str]]:
    """Load the tiny ``sum`` package and make ``users`` students; returns (package hash, tokens)."""
    package = make_package(folder / "problems")
    generate(package)
    sessions = make_sessionmaker(make_engine(url))
    with sessions() as s:
        digest = load_problem(s, package).package_sha256
        s.commit()
        tokens = []
        for i in range(users):
            user, _ = create_user(s, f"student{i}", "student", password="bench-password")
            tokens.append(issue_token(s, user)[0])
    return digest, tokens


async def submit_load(base: str, tokens: list[str], per_client: int) -> tuple[list[float], float, int]:
    """Each token is one client submitting ``per_client`` times back to back; returns latencies (ms),
    elapsed seconds and the number of 202 answers."""
    latencies: list[float] = []
    accepted = 0
    limits = httpx.Limits(max_connections=len(tokens))

    async def client(token: str, http: httpx.AsyncClient):
        nonlocal accepted
        headers = {"Authorization": f"Bearer {token}"}
        for i in range(per_client):
            t0 = time.perf_counter()
            reply = await http.post(
                "/api/v1/submissions",
                headers=headers,
                json={"problem": "sum", "language": "python3", "source": f"print(1)  # {i}\n"},
            )
            latencies.append((time.perf_counter() - t0) * 1000)
            accepted += reply.status_code == 202

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        for _ in range(3):  # warm up connections and the server
            await http.get("/api/v1/problems")
        start = time.perf_counter()
        await asyncio.gather(*(client(t, http) for t in tokens))
        return latencies, time.perf_counter() - start, accepted


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (s), from /proc (load-independent cost)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_up(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/v1/problems", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("API did not start")


def bench_http(kind: str, clients: int, per_client: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    with Database(kind, folder) as db:
        _, tokens = prepare(db.url, folder, clients)
        port = free_port()
        env = {**os.environ, "JUDGE_DATABASE_URL": db.url, "JUDGE_SUBMIT_INTERVAL_S": "0"}
        api = subprocess.Popen(
            [sys.executable, "-m", "judge", "serve", "--workers", "0", "--no-load", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_up(base)
            cpu_before = cpu_seconds(api.pid)
            latencies, elapsed, accepted = asyncio.run(submit_load(base, tokens, per_client))
            server_cpu_ms = (cpu_seconds(api.pid) - cpu_before) * 1000 / len(latencies)
        finally:
            api.send_signal(signal.SIGTERM)
            api.wait()
    shutil.rmtree(folder, ignore_errors=True)
    q = statistics.quantiles(latencies, n=100)
    print(
        f"HTTP submit  {kind:10s}: {accepted}/{len(latencies)} accepted by {clients} clients in {elapsed:.2f} s = "
        f"{accepted / elapsed:6.0f} submissions/s; latency p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms; "
        f"API CPU {server_cpu_ms:.2f} ms per submission; load average {os.getloadavg()[0]:.1f}"
    )


def drain_seconds(workers: int, submissions: int, cpu_s: float) -> float:
    """Seconds for ``workers`` worker processes to judge ``submissions`` CPU-bound submissions."""
    folder = Path(tempfile.mkdtemp(prefix="bench-drain-", dir="/tmp"))
    folder.chmod(0o755)
    with Database("postgresql", folder) as db:
        digest, _ = prepare(db.url, folder, 0)
        sessions = make_sessionmaker(make_engine(db.url))
        env = {**os.environ, "JUDGE_DATABASE_URL": db.url, "JUDGE_WORK_DIR": str(folder / "work")}
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "judge", "worker", "--slot", str(70 + i)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in range(workers)
        ]
        try:
            time.sleep(8)  # language self-tests at worker start
            with sessions() as s:
                s.add_all(
                    Submission(
                        problem_id="sum",
                        package_sha256=digest,
                        language="python3",
                        source=BUSY.format(cpu=cpu_s) + f"# {i}\n",
                    )
                    for i in range(submissions)
                )
                s.commit()
            start = time.perf_counter()
            while True:
                with sessions() as s:
                    left = s.query(Submission).filter(Submission.status != "done").count()
                if left == 0:
                    break
                time.sleep(0.05)
            return time.perf_counter() - start
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait()
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--per-client", type=int, default=50)
    parser.add_argument("--drain", type=int, default=24, help="CPU-bound submissions for the drain test")
    args = parser.parse_args()
    for kind in ("sqlite", "postgresql"):
        bench_http(kind, args.clients, args.per_client)
    one = drain_seconds(1, args.drain, 0.1)
    two = drain_seconds(2, args.drain, 0.1)
    print(
        f"queue drain  {args.drain} submissions (4 tests × 0.1 s CPU): one worker {one:.1f} s "
        f"({args.drain / one:.2f}/s), two workers {two:.1f} s ({args.drain / two:.2f}/s); "
        f"two/one = {one / two:.2f}x"
    )


if __name__ == "__main__":
    main()
