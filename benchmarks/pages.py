"""Page benchmark: the problem, submission and scoreboard pages of a 300 students × 12 problems
contest (30,000 submissions, each with 10 test results; ``benchmarks/scoreboard.py`` builds it),
each requested through the whole app (TestClient: routing, session cookie, rules, template), beside
the JSON API's answer for the same data measured in the same run. Prints median and p95 per page and
the page/API ratio. Goal from the issue: p95 under 50 ms per page. Asserts nothing about time; it does
check every answer is 200.

Run: ``.venv/bin/python benchmarks/pages.py`` (SQLite in a temporary folder).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fastapi.testclient import TestClient  # noqa: E402

from benchmarks.scoreboard import build, refresh_statistics  # noqa: E402
from judge.api import create_app  # noqa: E402
from judge.auth import create_user, issue_token  # noqa: E402
from judge.config import Settings  # noqa: E402
from judge.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from judge.package_store import load_problem  # noqa: E402
from judge.vocabulary import Role  # noqa: E402
from judge.web.session import SESSION_COOKIE  # noqa: E402


def p95(samples: list[float]) -> float:
    """The 95th percentile (nearest rank) of ``samples``."""
    ordered = sorted(samples)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def timed(client: TestClient, path: str) -> float:
    """Wall ms of one GET of ``path``; the answer must be 200."""
    began = time.perf_counter()
    answer = client.get(path)
    elapsed = (time.perf_counter() - began) * 1000
    assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
    return elapsed


def clients(app, session, name: str, role: str) -> tuple[TestClient, TestClient]:
    """A page client (session cookie) and an API client (bearer header) of a new ``role`` account."""
    user, _ = create_user(session, name, role, password="benchmark-password")
    token, _ = issue_token(session, user)
    page, api = TestClient(app), TestClient(app)
    page.cookies.set(SESSION_COOKIE, token)
    api.headers["Authorization"] = f"Bearer {token}"
    return page, api


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="requests per page and per API call")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{Path(tmp) / 'bench.db'}", problems_dir=REPO / "problems", work_dir=Path(tmp)
        )
        upgrade(settings.database_url)
        engine = make_engine(settings.database_url)
        with make_sessionmaker(engine)() as session:
            contest_id = build(session, students=300, problems=12, submissions=30000, tests=10)
            load_problem(session, REPO / "problems" / "lee")
            session.commit()
            refresh_statistics(engine)
            app = create_app(settings)
            jury_page, jury_api = clients(app, session, "bench-admin", Role.ADMIN)
            student_page, student_api = clients(app, session, "s-bench", Role.STUDENT)
        print(f"300 students × 12 problems × 30,000 submissions (10 test results each), {args.runs} requests each")
        cases = [
            ("problem lee", student_page, "/problems/lee", student_api, "/api/v1/problems/lee"),
            ("submission (jury)", jury_page, "/submissions/15000", jury_api, "/api/v1/submissions/15000"),
            (
                "scoreboard (jury)",
                jury_page,
                f"/contests/{contest_id}/scoreboard",
                jury_api,
                f"/api/v1/contests/{contest_id}/scoreboard",
            ),
            (
                "scoreboard (public)",
                student_page,
                f"/contests/{contest_id}/scoreboard",
                student_api,
                f"/api/v1/contests/{contest_id}/scoreboard",
            ),
        ]
        student_page.get(f"/contests/{contest_id}/scoreboard")  # s-bench takes part: every student does
        for name, page, page_path, api, api_path in cases:
            timed(page, page_path), timed(api, api_path)  # warm caches (package, statement, templates)
            pages, apis = [], []
            for _ in range(args.runs):  # interleaved: both see the same machine load
                pages.append(timed(page, page_path))
                apis.append(timed(api, api_path))
            goal = "met" if p95(pages) < 50 else "missed"
            print(
                f"{name:20} page p50 {statistics.median(pages):6.1f} ms  p95 {p95(pages):6.1f} ms | "
                f"API p50 {statistics.median(apis):6.1f} ms  p95 {p95(apis):6.1f} ms | "
                f"page/API p95 {p95(pages) / p95(apis):4.2f}× | goal p95 < 50 ms {goal}"
            )
        print(f"machine: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        engine.dispose()


if __name__ == "__main__":
    main()
