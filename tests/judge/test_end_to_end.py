"""Issue #2 end to end: submissions POSTed over HTTP to the API, judged by a real worker in the real
sandbox against the ``lee`` package, verdicts and per-test results read back over HTTP."""

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

REPO = Path(__file__).resolve().parents[2]
LEE = REPO / "problems" / "lee"
SLOT = slot(40)  # a sandbox slot of its own, apart from any worker a developer runs

# A classroom-style BFS in C++: read the maze, run the wave from the mouse, walk back from the cheese.
CPP_BFS = r"""
#include <cstdio>
#include <vector>
#include <utility>
using namespace std;
int n, m, a[105][105], d[105][105];
int main() {
    scanf("%d %d", &n, &m);
    for (int i = 1; i <= n; i++) for (int j = 1; j <= m; j++) scanf("%d", &a[i][j]);
    int ls, cs, lb, cb; scanf("%d %d %d %d", &ls, &cs, &lb, &cb);
    int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    vector<pair<int,int>> q; q.push_back({ls, cs}); d[ls][cs] = 1;
    for (size_t h = 0; h < q.size(); h++) {
        int i = q[h].first, j = q[h].second;
        for (int k = 0; k < 4; k++) {
            int x = i + di[k], y = j + dj[k];
            if (x >= 1 && x <= n && y >= 1 && y <= m && !a[x][y] && !d[x][y]) {
                d[x][y] = d[i][j] + 1;
                q.push_back({x, y});
            }
        }
    }
    if (!d[lb][cb]) { printf("-1\n"); return 0; }
    vector<pair<int,int>> path; int i = lb, j = cb; path.push_back({i, j});
    while (d[i][j] > 1) {
        for (int k = 0; k < 4; k++) {
            int x = i + di[k], y = j + dj[k];
            if (x >= 1 && x <= n && y >= 1 && y <= m && d[x][y] == d[i][j] - 1) { i = x; j = y; break; }
        }
        path.push_back({i, j});
    }
    printf("%d\n", d[lb][cb] - 1);
    for (int p = (int)path.size() - 1; p >= 0; p--) printf("%d %d\n", path[p].first, path[p].second);
}
"""

# Python BFS that prefers moving right/down first: a different shortest path than the reference's.
PY_OTHER_PATH = """
import sys
from collections import deque
data = sys.stdin.read().split(); it = iter(map(int, data))
n, m = next(it), next(it)
g = [[next(it) for _ in range(m)] for _ in range(n)]
s = (next(it) - 1, next(it) - 1); t = (next(it) - 1, next(it) - 1)
prev = {t: None}; q = deque([t])
while q:
    c = q.popleft()
    for dx, dy in ((0, -1), (-1, 0), (0, 1), (1, 0)):
        x, y = c[0] + dx, c[1] + dy
        if 0 <= x < n and 0 <= y < m and not g[x][y] and (x, y) not in prev:
            prev[(x, y)] = c; q.append((x, y))
if s not in prev:
    print(-1); sys.exit()
path = [s]
while prev[path[-1]] is not None:
    path.append(prev[path[-1]])
print(len(path) - 1)
print("\\n".join(f"{x + 1} {y + 1}" for x, y in path))
"""

C_MINUS_ONE = '#include <stdio.h>\nint main(void){ printf("-1\\n"); return 0; }\n'
CPP_TLE = "int main(){ volatile unsigned long x = 0; for(;;) x++; }\n"
PY_RTE = "import sys\nn = len(sys.stdin.read())\nprint(n // 0)\n"
CPP_MLE = """#include <cstdio>
#include <vector>
int main(){ std::vector<int> v(150u << 20); long s = 0;  // 600 MiB, every page written and read
    for (size_t i = 0; i < v.size(); i++) v[i] = (int)i;
    for (size_t i = 0; i < v.size(); i += 1024) s += v[i];
    printf("%ld\\n", s); }
"""
C_OLE = '#include <stdio.h>\nint main(void){ for(;;) fputs("1 1 1 1 1 1 1 1 1 1 1 1\\n", stdout); }\n'
CPP_CE = "int main() { this is not C++; }\n"


@pytest.fixture(scope="module")
def judge_env(tmp_path_factory):
    """A migrated SQLite database with ``lee`` loaded, the API app, and a real worker."""
    if not (LEE / "problem.yaml").is_file():
        pytest.skip("lee package missing")
    tmp = tmp_path_factory.mktemp("e2e")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=REPO / "problems",
        work_dir=WORK_ROOT / tmp.name,
    )
    upgrade(settings.database_url)
    # a trimmed copy of lee (samples + 3 secret tests) keeps the slow verdicts (TLE on every test) quick
    short = tmp / "short" / "lee"
    shutil.copytree(LEE, short, symlinks=True, ignore=shutil.ignore_patterns("submissions"))
    for path in sorted((short / "data" / "secret").glob("*.in"))[3:]:
        path.unlink()
        path.with_suffix(".ans").unlink()
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        full_hash = load_problem(session, LEE).package_sha256
        short_hash = load_problem(session, short).package_sha256
        session.commit()
    client = TestClient(create_app(settings))
    with make_sessionmaker(
        make_engine(settings.database_url)
    )() as session:  # a teacher: sees every detail, no rate limit
        teacher, _ = create_user(session, "e2e-teacher", "teacher", password="e2e-password")
        client.headers["Authorization"] = f"Bearer {issue_token(session, teacher)[0]}"
    worker = Worker(settings, slot=SLOT)
    worker.start()
    yield client, worker, {"full": full_hash, "short": short_hash}, settings
    worker.close()
    shutil.rmtree(settings.work_dir, ignore_errors=True)


def _judge(env, language: str, source: str, package: str = "full") -> dict:
    client, worker, hashes, settings = env
    from judge.models import Problem

    with make_sessionmaker(make_engine(settings.database_url))() as session:  # point lee at the wanted package
        session.get(Problem, "lee").package_sha256 = hashes[package]
        session.commit()
    reply = client.post("/api/v1/submissions", json={"problem": "lee", "language": language, "source": source})
    assert reply.status_code == 202, reply.text
    sid = reply.json()["id"]
    assert client.get(f"/api/v1/submissions/{sid}").json()["status"] == "queued"
    while worker.judge_one():
        pass
    state = client.get(f"/api/v1/submissions/{sid}").json()
    assert state["status"] == "done"
    return state


def test_seed_style_cpp_bfs_is_accepted_on_every_test(judge_env):
    state = _judge(judge_env, "cpp", CPP_BFS)
    assert state["verdict"] == "AC", state
    names = [r["test"] for r in state["results"]]
    assert names[:3] == ["sample/01", "sample/02", "sample/03"]  # samples first: the seed's examples
    assert len(names) >= 28 and all(r["verdict"] == "AC" for r in state["results"])
    assert state["tests_passed"] == state["tests_total"] == len(names)
    assert all(0 <= r["time_ms"] <= 1000 and 0 <= r["wall_ms"] < 3000 for r in state["results"])


def test_reference_python_is_accepted(judge_env):
    state = _judge(judge_env, "python3", (REPO / "reference" / "lee.py").read_text())
    assert state["verdict"] == "AC", state


def test_a_different_shortest_path_is_accepted(judge_env):
    state = _judge(judge_env, "python3", PY_OTHER_PATH)
    assert state["verdict"] == "AC", state


@pytest.mark.parametrize(
    "language, source, verdict, first_bad",
    [
        ("c", C_MINUS_ONE, "WA", "sample/01"),
        ("cpp", CPP_TLE, "TLE", "sample/01"),
        ("python3", PY_RTE, "RTE", "sample/01"),
        ("cpp", CPP_MLE, "MLE", "sample/01"),
        ("c", C_OLE, "OLE", "sample/01"),
    ],
)
def test_wrong_submissions_get_their_verdict(judge_env, language, source, verdict, first_bad):
    state = _judge(judge_env, language, source, package="short")
    assert state["verdict"] == verdict, state
    first = next(r for r in state["results"] if r["verdict"] != "AC")
    assert first["test"] == first_bad
    assert len(state["results"]) == state["tests_total"]  # all tests run by default
    if verdict == "MLE":
        assert first["memory_kib"] >= 200 * 1024  # the peak is reported near the 256 MiB limit


def test_wa_on_reachable_sample_but_ac_on_unreachable_one(judge_env):
    state = _judge(judge_env, "c", C_MINUS_ONE, package="short")
    by_name = {r["test"]: r["verdict"] for r in state["results"]}
    assert by_name["sample/03"] == "AC" and by_name["sample/01"] == "WA"
    assert by_name["sample/01"] and state["results"][0]["message"]  # a sample's checker reason is shown


def test_compile_error_gives_ce_with_the_compiler_message(judge_env):
    state = _judge(judge_env, "cpp", CPP_CE, package="short")
    assert state["verdict"] == "CE"
    assert "error" in state["compile_message"] and state["results"] == []


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"problem": "nope", "language": "cpp", "source": "x"}, 404, "no problem"),
        ({"problem": "lee", "language": "cobol", "source": "x"}, 422, "unknown language"),
        ({"problem": "lee", "language": "cpp", "source": "   \n"}, 422, "empty"),
        ({"problem": "lee", "language": "cpp", "source": "x" * (64 * 1024 + 1)}, 413, "limit"),
        ({"problem": "lee", "language": "cpp"}, 422, "source"),
        ({"problem": "lee", "language": "cpp", "source": "a\u0000b"}, 422, "NUL"),
    ],
)
def test_bad_submissions_get_clear_4xx(judge_env, body, status, words):
    client = judge_env[0]
    reply = client.post("/api/v1/submissions", json=body)
    assert reply.status_code == status
    assert words in str(reply.json()["detail"])


def test_oversized_and_malformed_bodies_are_refused(judge_env):
    client = judge_env[0]
    assert (
        client.post(
            "/api/v1/submissions", content=b"{" * (2 << 20), headers={"content-type": "application/json"}
        ).status_code
        == 413
    )
    assert client.post(
        "/api/v1/submissions", content=b"\xff\xfe not json", headers={"content-type": "application/json"}
    ).status_code in (400, 422)
    assert client.get("/api/v1/submissions/999999").status_code == 404
    assert client.get("/api/v1/submissions/abc").status_code == 422


def test_problem_and_language_listing(judge_env):
    client = judge_env[0]
    assert [p["id"] for p in client.get("/api/v1/problems").json()] == ["lee"]
    lee = client.get("/api/v1/problems/lee").json()
    assert lee["time_limit_ms"] == 1000 and lee["memory_kib"] == 256 * 1024
    assert len(lee["samples"]) == 3 and lee["samples"][0]["answer"].split()[0] == "12"
    assert client.get("/api/v1/problems/lee?lang=ro").json()["statement_language"] == "ro"
    languages = {l["id"]: l["available"] for l in client.get("/api/v1/languages").json()}
    assert languages["cpp"] is True and languages["python3"] is True and languages["c"] is True
