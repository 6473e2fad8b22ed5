"""Load benchmark: HTTP submission throughput, latency and API CPU, measured by Debian's ``wrk`` (a C
load generator that costs little CPU) for SQLite and PostgreSQL with one and two API processes
(``judge serve --api-processes``), side by side in one run; then the queue drain rate with one worker
against two on CPU-bound submissions.

Each server is loaded twice:

- **closed loop** (capacity): ``--connections`` (16) connections each post again as soon as the
  last answer came. It measures how many submissions per second the API accepts at most, and its
  CPU per submission. Its latency is queueing the client made itself: by Little's law the mean is
  connections / throughput (16 / 300 per s = 53 ms), so it cannot show latency at a given rate.
- **paced** (open loop, the latency goal): submissions are sent on a fixed schedule of ``--rate``
  (300) per second over ``--paced-connections`` (64) connections, whatever the answers' pace, as a
  class submitting at once does; wrk's latency is from each request's send to its answer. The
  script counts sends later than 5 ms behind their schedule (all connections busy): if more than
  1 % are late the schedule slipped and the row says so, since its latencies then understate.

Run: ``make bench`` or ``.venv/bin/python benchmarks/load.py`` (needs ``wrk`` on PATH and PostgreSQL
at 127.0.0.1:5432, trust auth; it creates and drops its own databases). Each run of wrk posts
practice submissions of ``sum`` with the bearer tokens of ``--users`` students in turn, under the
per-student rate limit of ``SUBMIT_INTERVAL_S``, so the limit is checked on every request and refuses
none; only 2xx answers count as accepted. The API's CPU is the user + system time of the ``judge
serve`` process and its children (/proc/<pid>/stat) over the run. Prints measured numbers against the
goals; asserts nothing about time.

Goals: ≥ 300 accepted submissions/s (closed loop) and, at 300 submissions/s (paced), p99 < 50 ms;
≤ 3 ms of API CPU per submission; two workers drain the queue ≥ 1.8× as fast as one.
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
  n, accepted, step, late = 0, 0, %(threads)d, 0
end
%(pacing)sfunction request()
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
  local total, late_sends = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("accepted")
    late_sends = late_sends + thread:get("late")
  end
  io.write(string.format(
    'WRK {"requests":%%d,"accepted":%%d,"late":%%d,"seconds":%%f,"errors":%%d,"p50":%%d,"p99":%%d,"p999":%%d}\\n',
    summary.requests, total, late_sends, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.status + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
"""

# The paced run's ``delay``: each send takes the next slot of a fixed schedule (one every
# ``interval_ms``, per wrk thread) and waits for it; a send that finds its slot more than 5 ms past
# (every connection was busy) counts as late. wrk times a request from its send, after the delay.
PACING = """
local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } pace_timespec; int clock_gettime(int, pace_timespec *); ]]
local clock_now = ffi.new("pace_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, clock_now)  -- CLOCK_MONOTONIC
  return tonumber(clock_now.tv_sec) * 1000 + tonumber(clock_now.tv_nsec) / 1e6
end
local slot = nil
function delay()
  local now = now_ms()
  slot = (slot or now) + %(interval_ms)f
  if now - slot > 5 then late = late + 1 end
  return math.max(0, math.floor(slot - now + 0.5))
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
    """One wrk run against one server: answers counted, its latency percentiles (ms), the API's CPU;
    ``rate`` is the paced run's schedule (sends per second), 0 for the closed loop."""

    kind: str
    processes: int
    rate: float
    requests: int
    accepted: int
    late: int
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

    @property
    def slipped(self) -> bool:
        """The paced schedule was not kept: over 1 % of sends late, or under 98 % of the rate sent."""
        return self.late > self.requests / 100 or self.requests / self.seconds < 0.98 * self.rate


def run_wrk(
    base: str, tokens: list[str], folder: Path, connections: int, threads: int, seconds: int, rate: float = 0
) -> dict:
    """Drive ``base`` with wrk for ``seconds``: a closed loop, or paced at ``rate`` sends per second
    (spread over the threads) when ``rate`` > 0; returns the JSON line its script prints."""
    script = folder / "submit.lua"
    pacing = PACING % {"interval_ms": 1000 * threads / rate} if rate > 0 else ""
    tokens_lua = ",".join(f'"{t}"' for t in tokens)
    script.write_text(WRK_SCRIPT % {"tokens": tokens_lua, "threads": threads, "pacing": pacing})
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), base],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("WRK "))
    return json.loads(line.removeprefix("WRK "))


def bench_http(kind: str, processes: int, args: argparse.Namespace) -> list[LoadResult]:
    """Serve a fresh ``kind`` database with ``processes`` API processes and load it with wrk: the
    closed loop, then the paced run; one result each."""
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    results = []
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
                for connections, rate in ((args.connections, 0), (args.paced_connections, args.rate)):
                    time.sleep(SUBMIT_INTERVAL_S)  # the last run's students may submit again
                    cpu_before = tree_cpu_seconds(api.pid)
                    out = run_wrk(base, tokens, folder, connections, args.threads, args.seconds, rate)
                    api_cpu_s = tree_cpu_seconds(api.pid) - cpu_before
                    results.append(
                        LoadResult(
                            kind,
                            processes,
                            rate,
                            out["requests"],
                            out["accepted"],
                            out["late"],
                            out["seconds"],
                            out["errors"],
                            out["p50"] / 1000,
                            out["p99"] / 1000,
                            out["p999"] / 1000,
                            api_cpu_s,
                            os.getloadavg()[0],
                        )
                    )
            finally:
                api.send_signal(signal.SIGTERM)
                api.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def _mark(met: bool) -> str:
    return "ok" if met else "MISSED"


def _row(r: LoadResult) -> str:
    return (
        f"{r.kind:10s} {r.processes:9d} {r.accepted:9d} {r.requests:7d} {r.per_s:7.0f} {r.p50_ms:7.1f} "
        f"{r.p99_ms:7.1f} {r.p999_ms:8.1f} {r.cpu_ms_per_submission:10.2f} {r.load_average:8.1f}"
    )


def print_http(results: list[LoadResult], args: argparse.Namespace) -> None:
    """The runs side by side, each goal marked ok or MISSED: rate and CPU on the closed loop, p99 on
    the paced run."""
    header = (
        f"{'database':10s} {'API procs':>9s} {'accepted':>9s} {'of':>7s} {'per s':>7s} {'p50 ms':>7s} {'p99 ms':>7s} "
        f"{'p99.9 ms':>8s} {'CPU ms/sub':>10s} {'load avg':>8s}"
    )
    print(
        f"HTTP submit, closed loop (capacity): wrk -t{args.threads} -c{args.connections} for {args.seconds:g} s "
        f"per row, {args.users} students; goals ≥ {GOAL_PER_S}/s, API CPU ≤ {GOAL_CPU_MS:g} ms per submission "
        f"(its latency is {args.connections} connections' own queue: Little's law)"
    )
    print(header + "  goals")
    closed = [r for r in results if not r.rate]
    for r in closed:
        print(f"{_row(r)}  rate {_mark(r.per_s >= GOAL_PER_S)}, CPU {_mark(r.cpu_ms_per_submission <= GOAL_CPU_MS)}")
    for kind in sorted({r.kind for r in closed}):
        rows = {r.processes: r for r in closed if r.kind == kind}
        if 1 in rows and 2 in rows and rows[1].per_s:
            print(f"{kind}: two API processes / one = {rows[2].per_s / rows[1].per_s:.2f}x accepted per second")
    print(
        f"HTTP submit, paced (open loop): {args.rate:g} sends/s on a fixed schedule, wrk -t{args.threads} "
        f"-c{args.paced_connections} for {args.seconds:g} s per row; goal p99 < {GOAL_P99_MS:g} ms at "
        f"{GOAL_PER_S}/s"
    )
    print(header + f" {'late':>5s}  goals")
    for r in results:
        if r.rate:
            kept = "schedule SLIPPED (latencies understate)" if r.slipped else "schedule kept"
            met = not r.slipped and r.accepted == r.requests and r.p99_ms < GOAL_P99_MS
            print(f"{_row(r)} {r.late:5d}  p99 {_mark(met)}, {kept}")


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
    parser.add_argument("--rate", type=float, default=GOAL_PER_S, help="the paced run's sends per second")
    parser.add_argument("--paced-connections", type=int, default=64, help="wrk's connections in the paced run")
    parser.add_argument("--users", type=int, default=2000, help="students whose tokens the load uses in turn")
    parser.add_argument("--processes", default="1,2", help="API process counts to compare, comma-separated")
    parser.add_argument("--databases", default="sqlite,postgresql", help="databases to compare, comma-separated")
    parser.add_argument("--drain", type=int, default=24, help="CPU-bound submissions for the drain test (0: skip)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: make bench installs it (Debian package wrk)")
    results = [
        result
        for kind in args.databases.split(",")
        for processes in args.processes.split(",")
        for result in bench_http(kind, int(processes), args)
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
