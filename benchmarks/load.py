"""Load benchmark: HTTP submission throughput, latency and API CPU, measured by Debian's ``wrk`` (a C
load generator that costs little CPU) for SQLite and PostgreSQL with one and two API processes
(``judge serve --api-processes``), side by side in one run; then the queue drain rate with one worker
against two on CPU-bound submissions.

Run: ``make bench`` or ``.venv/bin/python benchmarks/load.py`` (needs ``wrk`` on PATH and PostgreSQL
at 127.0.0.1:5432, trust auth; it creates and drops its own databases). Each run of wrk posts
practice submissions of ``sum`` with the bearer tokens of ``--users`` students in turn, under the
per-student rate limit of ``SUBMIT_INTERVAL_S``, so the limit is checked on every request and refuses
none; only 2xx answers count as accepted. The API's CPU is the user + system time of the ``judge
serve`` process and its children (/proc/<pid>/stat) over the run. Prints measured numbers against the
goals; asserts nothing about time.

Goals: ≥ 300 accepted submissions/s with p99 < 50 ms and ≤ 3 ms of API CPU per submission; two
workers drain the queue ≥ 1.8× as fast as one.
"""

from __future__ import annotations

import argparse
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
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.auth import issue_token  # noqa: E402
from judge.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from judge.generate import generate  # noqa: E402
from judge.models import Submission, User  # noqa: E402
from judge.package_store import load_problem  # noqa: E402
from tests.judge.test_packages_generate import make_package  # noqa: E402

PG = "postgresql+psycopg://postgres@127.0.0.1:5432"
BUSY = "import time\nwhile time.process_time() < {cpu}: pass\na, b = map(int, input().split())\nprint(a + b)\n"
SUBMIT_INTERVAL_S = 1.0  # each student's rate limit: --users tokens in turn stay under it up to --users/s
GOAL_PER_S, GOAL_P99_MS, GOAL_CPU_MS, GOAL_DRAIN = 300, 50.0, 3.0, 1.8

# wrk's Lua script: each thread walks the tokens from its own start (a student's next turn comes
# after every other student's), posts a practice submission of ``sum``, counts 2xx answers, and the
# run ends by printing one JSON line: requests, accepted, seconds, errors, latency percentiles (µs).
WRK_SCRIPT = """
local tokens = {%(tokens)s}
local threads, next_first = {}, 0
function setup(thread)
  thread:set("first", next_first)
  next_first = next_first + 1
  table.insert(threads, thread)
end
function init(args)
  n, accepted, step = 0, 0, %(threads)d
end
function request()
  n = n + 1
  local token = tokens[(first + n * step) %% #tokens + 1]
  local body = '{"problem":"sum","language":"python3","source":"print(1)  # ' .. first .. '-' .. n .. '"}'
  return wrk.format("POST", "/api/v1/submissions",
    {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
function response(status, headers, body)
  if status >= 200 and status < 300 then accepted = accepted + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("accepted") end
  io.write(string.format(
    'WRK {"requests":%%d,"accepted":%%d,"seconds":%%f,"errors":%%d,"p50":%%d,"p99":%%d,"p999":%%d}\\n',
    summary.requests, total, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.status + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
"""


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
    """Load the tiny ``sum`` package and make ``users`` students (no usable password: the benchmark
    needs only their tokens); returns (package hash, tokens)."""
    package = make_package(folder / "problems")
    generate(package)
    sessions = make_sessionmaker(make_engine(url))
    with sessions() as s:
        digest = load_problem(s, package).package_sha256
        students = [
            User(name=f"student{i}", display_name=f"Student {i}", role="student", password_hash="!")
            for i in range(users)
        ]
        s.add_all(students)
        s.commit()
        tokens = [issue_token(s, user)[0] for user in students]
    return digest, tokens


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time (s) so far of process ``pid`` and every live descendant, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    tree, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    total = 0.0
    for member in tree:
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def wait_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/v1/problems", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("API did not start")


@dataclass
class LoadResult:
    """One wrk run against one server: answers counted, its latency percentiles (ms), the API's CPU."""

    kind: str
    processes: int
    requests: int
    accepted: int
    seconds: float
    errors: int
    p50_ms: float
    p99_ms: float
    p999_ms: float
    api_cpu_s: float
    load_average: float

    @property
    def per_s(self) -> float:
        return self.accepted / self.seconds

    @property
    def cpu_ms_per_submission(self) -> float:
        return self.api_cpu_s * 1000 / max(1, self.accepted)


def run_wrk(base: str, tokens: list[str], folder: Path, connections: int, threads: int, seconds: int) -> dict:
    """Drive ``base`` with wrk for ``seconds``; returns the JSON line its script prints."""
    script = folder / "submit.lua"
    script.write_text(WRK_SCRIPT % {"tokens": ",".join(f'"{t}"' for t in tokens), "threads": threads})
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), base],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("WRK "))
    return json.loads(line.removeprefix("WRK "))


def bench_http(kind: str, processes: int, args: argparse.Namespace) -> LoadResult:
    """Serve a fresh ``kind`` database with ``processes`` API processes and load it with wrk."""
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        with Database(kind, folder) as db:
            _, tokens = prepare(db.url, folder, args.users)
            port = free_port()
            env = {
                **os.environ,
                "JUDGE_DATABASE_URL": db.url,
                "JUDGE_SUBMIT_INTERVAL_S": str(SUBMIT_INTERVAL_S),
                "JUDGE_WORK_DIR": str(folder / "work"),
            }
            command = [sys.executable, "-m", "judge", "serve", "--workers", "0", "--no-load"]
            api = subprocess.Popen(
                [*command, "--port", str(port), "--api-processes", str(processes)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                base = f"http://127.0.0.1:{port}"
                wait_up(base)
                run_wrk(base, tokens[: len(tokens) // 2], folder, args.connections, args.threads, 1)  # warm up
                time.sleep(SUBMIT_INTERVAL_S)  # the warm-up's students may submit again
                cpu_before = tree_cpu_seconds(api.pid)
                out = run_wrk(base, tokens, folder, args.connections, args.threads, args.seconds)
                api_cpu_s = tree_cpu_seconds(api.pid) - cpu_before
            finally:
                api.send_signal(signal.SIGTERM)
                api.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return LoadResult(
        kind,
        processes,
        out["requests"],
        out["accepted"],
        out["seconds"],
        out["errors"],
        out["p50"] / 1000,
        out["p99"] / 1000,
        out["p999"] / 1000,
        api_cpu_s,
        os.getloadavg()[0],
    )


def _mark(met: bool) -> str:
    return "ok" if met else "MISSED"


def print_http(results: list[LoadResult], args: argparse.Namespace) -> None:
    """The runs side by side, each goal marked ok or MISSED."""
    print(
        f"HTTP submit: wrk -t{args.threads} -c{args.connections} for {args.seconds:g} s per row, "
        f"{args.users} students; "
        f"goals ≥ {GOAL_PER_S}/s, p99 < {GOAL_P99_MS:g} ms, API CPU ≤ {GOAL_CPU_MS:g} ms per submission"
    )
    print(
        f"{'database':10s} {'API procs':>9s} {'accepted':>9s} {'of':>7s} {'per s':>7s} {'p50 ms':>7s} {'p99 ms':>7s} "
        f"{'p99.9 ms':>8s} {'CPU ms/sub':>10s} {'load avg':>8s}  goals"
    )
    for r in results:
        goals = (
            f"rate {_mark(r.per_s >= GOAL_PER_S)}, p99 {_mark(r.p99_ms < GOAL_P99_MS)}, "
            f"CPU {_mark(r.cpu_ms_per_submission <= GOAL_CPU_MS)}"
        )
        print(
            f"{r.kind:10s} {r.processes:9d} {r.accepted:9d} {r.requests:7d} {r.per_s:7.0f} {r.p50_ms:7.1f} "
            f"{r.p99_ms:7.1f} {r.p999_ms:8.1f} {r.cpu_ms_per_submission:10.2f} {r.load_average:8.1f}  {goals}"
        )
    for kind in sorted({r.kind for r in results}):
        rows = {r.processes: r for r in results if r.kind == kind}
        if 1 in rows and 2 in rows and rows[1].per_s:
            print(f"{kind}: two API processes / one = {rows[2].per_s / rows[1].per_s:.2f}x accepted per second")


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
    parser.add_argument("--seconds", type=int, default=10, help="length of each wrk run (s)")
    parser.add_argument("--connections", type=int, default=16, help="wrk's open connections")
    parser.add_argument("--threads", type=int, default=1, help="wrk's threads")
    parser.add_argument("--users", type=int, default=2000, help="students whose tokens the load uses in turn")
    parser.add_argument("--processes", default="1,2", help="API process counts to compare, comma-separated")
    parser.add_argument("--databases", default="sqlite,postgresql", help="databases to compare, comma-separated")
    parser.add_argument("--drain", type=int, default=24, help="CPU-bound submissions for the drain test (0: skip)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: make bench installs it (Debian package wrk)")
    results = [
        bench_http(kind, int(processes), args)
        for kind in args.databases.split(",")
        for processes in args.processes.split(",")
    ]
    print_http(results, args)
    if args.drain:
        one = drain_seconds(1, args.drain, 0.1)
        two = drain_seconds(2, args.drain, 0.1)
        print(
            f"queue drain  {args.drain} submissions (4 tests × 0.1 s CPU): one worker {one:.1f} s "
            f"({args.drain / one:.2f}/s), two workers {two:.1f} s ({args.drain / two:.2f}/s); "
            f"two/one = {one / two:.2f}x (goal ≥ {GOAL_DRAIN}x: {_mark(one / two >= GOAL_DRAIN)}); "
            f"load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
