"""API CPU per accepted submission: one client submits back to back to one ``judge serve`` process,
and the server's own CPU time (user + system, from ``/proc/<pid>/stat``) is divided by the number of
requests. The client's CPU is not counted, and a busy machine stretches wall time but hardly CPU time.

In the same run, on the same server, the same client also sends a trivial authenticated request
(``GET /api/v1/auth/me``) and polls one submission with ``If-None-Match`` (a 304 when unchanged):
the submission's cost is printed as a ratio against that baseline.

Run: ``.venv/bin/python benchmarks/submit_cpu.py [--requests N]`` (PostgreSQL at 127.0.0.1:5432,
trust auth; it creates and drops its own databases). Prints; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.auth import create_user, issue_token  # noqa: E402
from judge.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from judge.generate import generate  # noqa: E402
from judge.package_store import load_problem  # noqa: E402
from tests.judge.test_packages_generate import make_package  # noqa: E402

PG_SERVER = "postgresql://postgres@127.0.0.1:5432"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ms(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (ms)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def database_url(kind: str, folder: Path) -> str:
    """A fresh, migrated database of ``kind`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'bench.db'}"
    else:
        name = f"judge_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    upgrade(url)
    return url


def drop_database(url: str) -> None:
    """Drop the PostgreSQL database of ``url`` (nothing for SQLite)."""
    if url.startswith("postgresql"):
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def student_token(url: str, folder: Path) -> str:
    """Load the tiny ``sum`` package and make one student; its bearer token."""
    package = make_package(folder / "problems")
    generate(package)
    with make_sessionmaker(make_engine(url))() as s:
        load_problem(s, package)
        s.commit()
        user, _ = create_user(s, "student", "student", password="bench-password")
        return issue_token(s, user)[0]


class Client:
    """One keep-alive HTTP/1.1 connection to the server, with the student's token."""

    def __init__(self, port: int, token: str):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Bearer {token}"}

    def request(self, method: str, path: str, body: dict | None = None, **headers: str) -> tuple[int, bytes, dict]:
        """Status, body and headers (lower-case names) of one request."""
        payload = json.dumps(body).encode() if body is not None else None
        extra = {"Content-Type": "application/json"} if payload else {}
        self.http.request(method, path, payload, {**self.headers, **extra, **headers})
        reply = self.http.getresponse()
        return reply.status, reply.read(), {k.lower(): v for k, v in reply.getheaders()}


def wait_up(port: int) -> None:
    """Wait (at most 30 s) until the server answers."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/v1/problems")
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("API did not start")


def per_request_ms(pid: int, count: int, send: Callable[[int], int], expected: int) -> float:
    """Server CPU (ms) per request over ``count`` calls of ``send(i)`` (each returns an HTTP status,
    which must be ``expected``)."""
    before = cpu_ms(pid)
    for i in range(count):
        status = send(i)
        if status != expected:
            raise RuntimeError(f"request {i}: HTTP {status}, expected {expected}")
    return (cpu_ms(pid) - before) / count


def bench(kind: str, requests: int) -> None:
    """Print the server's CPU per trivial GET, per accepted submission and per unchanged poll on ``kind``."""
    folder = Path(tempfile.mkdtemp(prefix="bench-cpu-"))
    url = database_url(kind, folder)
    try:
        token = student_token(url, folder)
        port = free_port()
        env = {**os.environ, "JUDGE_DATABASE_URL": url, "JUDGE_SUBMIT_INTERVAL_S": "0"}
        server = subprocess.Popen(
            [sys.executable, "-m", "judge", "serve", "--workers", "0", "--no-load", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_up(port)
            client = Client(port, token)
            for _ in range(50):  # warm up: imports, caches, the connection pool
                client.request("GET", "/api/v1/auth/me")
            me = per_request_ms(server.pid, requests, lambda i: client.request("GET", "/api/v1/auth/me")[0], 200)
            submit = per_request_ms(
                server.pid,
                requests,
                lambda i: client.request(
                    "POST",
                    "/api/v1/submissions",
                    {"problem": "sum", "language": "python3", "source": f"print(1)  # {i}\n"},
                )[0],
                202,
            )
            _, _, headers = client.request("GET", "/api/v1/submissions/1")
            tag = headers.get("etag", "")
            expect = 304 if tag else 200
            poll = per_request_ms(
                server.pid,
                requests,
                lambda i: client.request("GET", "/api/v1/submissions/1", **({"If-None-Match": tag} if tag else {}))[0],
                expect,
            )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait()
    finally:
        drop_database(url)
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{kind:10s} API CPU per request over {requests}: GET /auth/me {me:.2f} ms; "
        f"POST /submissions {submit:.2f} ms ({submit / me:.2f}x the GET); "
        f"poll GET /submissions/1 ({expect}) {poll:.2f} ms ({poll / me:.2f}x); "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests of each kind")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    for kind in ("sqlite", "postgresql") if args.database == "both" else (args.database,):
        bench(kind, args.requests)


if __name__ == "__main__":
    main()
