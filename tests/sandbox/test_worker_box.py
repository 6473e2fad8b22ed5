"""Hostile submissions against the box a submission's runs share, through the real worker (one
``Worker`` on a slot of its own, submissions over the API): deep folder trees left by a program
or written by a compiler, disk reserved with ``fallocate`` where no size shows it, programs that
look for the name of the test they run on, network and vsock sockets, forks that would move
the next run's process ids; and allocations beyond the memory limit, which are MLE whatever
the host's memory.

For each hostile submission: the verdict its behaviour earns (never JE), then the next three
honest submissions on the same worker are AC, the host's free disk did not fall, and (through
the programs' own answers) no test name reached any program: each "looks for a name" program
answers right only when what it saw holds no test name.

The package is A+B with one sample (1 2 -> 3) and one secret test (7 11 -> 18) whose input
files have telling names (``01-small.in``, ``02-split-unreachable.in``).
"""

from __future__ import annotations

import os
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
from tests.slots import slot

from .conftest import needs_root

SLOT = slot(84)
HONEST = ("python3", "a, b = map(int, input().split())\nprint(a + b)\n")
# the host's free disk may move this much meanwhile (other processes of the machine); each
# attack below tries to take a GiB or more
DISK_SLACK = 256 << 20
TEST_NAMES = ("small", "split", "unreachable", "sample", "secret", ".in", ".ans", "data/")

C_ANSWER = (
    "#include <stdio.h>\nstatic void answer(void) {\n"
    '  long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b); fflush(stdout); }\n'
)
C_DEEP_CHDIR = (
    C_ANSWER
    + "#include <sys/stat.h>\n#include <unistd.h>\n"
    + "int main(void) { answer();\n"
    + '  for (int i = 0; i < 3000 && mkdir("d", 0755) == 0 && chdir("d") == 0; i++);\n  return 0; }\n'
)
C_DEEP_AT = (
    C_ANSWER
    + "#include <fcntl.h>\n#include <sys/stat.h>\n#include <unistd.h>\n"
    + 'int main(void) { answer(); int fd = open(".", O_RDONLY);\n'
    + '  for (int i = 0; i < 8000 && mkdirat(fd, "x", 0700) == 0; i++) {\n'
    + '    int next = openat(fd, "x", O_RDONLY | O_DIRECTORY); if (next < 0) break;\n'
    + "    fchmod(fd, 0); close(fd); fd = next; }\n  return 0; }\n"
)
PY_DEEP = (
    "import os\n" + HONEST[1] + "for i in range(4000):\n    os.mkdir('dd')\n    os.chdir('dd')\n"
    "    open('f', 'w').write('x')\n"
)
# javac writes a folder per package component: a package 1,500 names deep is a tree 1,500 deep
JAVA_DEEP_PACKAGE = (
    "package " + ".".join(["p"] * 1500) + ";\n"
    "public class Main { public static void main(String[] a) { java.util.Scanner s = new java.util.Scanner(System.in);"
    " System.out.println(s.nextLong() + s.nextLong()); } }\n"
)
C_FALLOCATE = (
    C_ANSWER
    + "#define _GNU_SOURCE\n#include <fcntl.h>\n"
    + "int main(int argc, char **argv) { answer();\n"
    + '  const char *places[] = {"/box/hole", "/tmp/hole", "/dev/shm/hole"};\n'
    + "  for (int mode = 1; mode <= 3; mode += 2) {\n"
    + "    fallocate(1, mode, 0, 1L << 30);\n"
    + "    for (int i = 0; i < 3; i++) { int fd = open(places[i], O_RDWR | O_CREAT, 0644);\n"
    + "      fallocate(fd, mode, 0, 1L << 30); } }\n  return 0; }\n"
)
PY_FALLOCATE = (
    "import ctypes, os\n" + HONEST[1] + "libc = ctypes.CDLL(None)\n"
    "for path in ('stdout', 'hole', '/tmp/hole', '/dev/shm/hole'):\n"
    "    fd = 1 if path == 'stdout' else os.open(path, os.O_RDWR | os.O_CREAT)\n"
    "    for mode in (1, 3, 0x10, 0x20):\n"
    "        libc.fallocate(fd, mode, ctypes.c_long(0), ctypes.c_long(1 << 30))\n"
)
PY_FILL = "import os\n" + HONEST[1] + "os.posix_fallocate(os.open('big', os.O_RDWR | os.O_CREAT), 0, 1 << 30)\n"
# reads the input, then answers wrong if anything it can see names a test
PY_LOOK_FOR_NAMES = (
    "import glob, os\n"
    "a, b = map(int, input().split())\n"
    "seen = []\n"
    "for fd in (0, 1, 2):\n"
    "    seen.append(os.readlink(f'/proc/self/fd/{fd}'))\n"
    "for path in ('/proc/self/mountinfo', '/proc/self/cgroup', '/proc/self/environ', '/proc/self/cmdline',\n"
    "             '/proc/1/cmdline', '/proc/self/maps', '/proc/self/fdinfo/0'):\n"
    "    try:\n        seen.append(open(path, 'rb').read().decode(errors='replace'))\n"
    "    except OSError:\n        pass\n"
    "seen += [os.getcwd(), *glob.glob('/box/**', recursive=True), *glob.glob('/tmp/**', recursive=True)]\n"
    "seen += [f'{k}={v}' for k, v in os.environ.items()]\n"
    "text = '\\n'.join(seen)\n"
    f"named = any(name in text for name in {TEST_NAMES!r})\n"
    "print(a + b + (1 if named else 0))\n"
)
# answers from the name of its standard input alone, as a leak would let it
PY_ORACLE = (
    "import os\nname = os.readlink('/proc/self/fd/0')\nprint(18 if 'split' in name else 3 if 'small' in name else -1)\n"
)
C_SOCKETS = (
    C_ANSWER
    + "#include <sys/socket.h>\n#include <netinet/in.h>\n"
    + "int main(void) { int families[] = {AF_INET, AF_INET6, 40, AF_NETLINK, AF_PACKET};\n"
    + "  for (int i = 0; i < 5; i++)\n"
    + "    if (socket(families[i], SOCK_STREAM, 0) >= 0 || socket(families[i], SOCK_DGRAM, 0) >= 0)\n"
    + '    { puts("-1"); return 0; }\n  answer(); return 0; }\n'
)
PY_TCP = (
    "import socket\n" + "a, b = map(int, input().split())\n"
    "try:\n    s = socket.socket(); s.bind(('127.0.0.1', 40404)); s.listen(); print(-1)\n"
    "except OSError:\n    print(a + b)\n"
)

# forks a thousand times, then answers right only if it is still PID 2 (a run of its own)
PY_FORKS_THEN_PID = (
    "import os\n" + "a, b = map(int, input().split())\n"
    "for _ in range(1000):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n"
    "print(a + b if os.getpid() == 2 else -1)\n"
)

# allocates N GB at once and touches all of it: beyond the host's memory the kernel refuses it
# (std::bad_alloc, MemoryError), below it the memory limit stops it; MLE either way
CPP_ALLOCATE = (
    "#include <cstdio>\n#include <cstring>\n"
    "int main() {{ unsigned long long n = {gb}ULL * 1000000000ULL; char *p = new char[n];\n"
    '  asm volatile("" : : "r"(p) : "memory");  // the allocation escapes: never elided\n'
    '  memset(p, 1, n); asm volatile("" : : "r"(p) : "memory"); std::printf("%d\\n", p[n - 1]); }}\n'
)
PY_ALLOCATE = "x = [0] * ({gb} * 10**9 // 8)\nprint(len(x))\n"

# name: (language, source, the verdicts it may earn)
HOSTILE = {
    "deep-mkdir-chdir-c": ("c", C_DEEP_CHDIR, ("AC",)),
    "deep-mkdirat-c": ("c", C_DEEP_AT, ("AC",)),
    "deep-python": ("python3", PY_DEEP, ("AC", "TLE")),
    "deep-java-package": ("java", JAVA_DEEP_PACKAGE, ("CE", "RTE", "AC")),
    "fallocate-keep-size-c": ("c", C_FALLOCATE, ("AC",)),
    "fallocate-modes-python": ("python3", PY_FALLOCATE, ("AC",)),
    "fallocate-fill-python": ("python3", PY_FILL, ("OLE", "RTE")),  # Python ignores SIGXFSZ: EFBIG
    "look-for-test-names": ("python3", PY_LOOK_FOR_NAMES, ("AC",)),
    "answer-from-the-name": ("python3", PY_ORACLE, ("WA",)),
    "sockets-c": ("c", C_SOCKETS, ("AC",)),
    "tcp-python": ("python3", PY_TCP, ("AC",)),
    "forks-then-pid": ("python3", PY_FORKS_THEN_PID, ("AC",)),
    **{f"allocate-{gb}gb-cpp": ("cpp", CPP_ALLOCATE.format(gb=gb), ("MLE",)) for gb in (16, 40, 1000)},
    **{f"allocate-{gb}gb-python": ("python3", PY_ALLOCATE.format(gb=gb), ("MLE",)) for gb in (16, 32, 1000)},
}


def write_package(folder: Path) -> Path:
    """A+B (output limit 1 MiB, 2 s) with telling test names."""
    (folder / "statement").mkdir(parents=True)
    (folder / "problem.yaml").write_text("name: A plus B\nlimits:\n  time_limit: 2\n  memory: 256\n  output: 1\n")
    (folder / "statement" / "problem.en.md").write_text("Print a + b.\n")
    for group, name, data, answer in (
        ("sample", "01-small", "1 2\n", "3\n"),
        ("secret", "02-split-unreachable", "7 11\n", "18\n"),
    ):
        (folder / "data" / group).mkdir(parents=True, exist_ok=True)
        (folder / "data" / group / f"{name}.in").write_text(data)
        (folder / "data" / group / f"{name}.ans").write_text(answer)
    return folder


def free_bytes(path: Path) -> int:
    info = os.statvfs(path)
    return info.f_bavail * info.f_frsize


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Each HOSTILE submission followed by three honest ones, judged one at a time by one real
    worker; yields {name: (hostile view, [honest views], free disk before, free disk after)}."""
    tmp = tmp_path_factory.mktemp("box")
    work_dir = Path(os.environ.get("JUDGE_WORK_DIR", "/tmp/classjudge-tests")) / f"worker-box-{tmp.name}"
    settings = Settings(database_url=f"sqlite:///{tmp / 'judge.db'}", problems_dir=tmp, work_dir=work_dir)
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        load_problem(session, write_package(tmp / "aplusb"))
        teacher, _ = create_user(session, "tess", "teacher", password="pw-12345")
        session.commit()
        token, _ = issue_token(session, teacher)
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    worker = Worker(settings, slot=SLOT)
    worker.languages = ["c", "cpp", "python3", *(["java"] if shutil.which("javac") else [])]

    def submit(language: str, source: str) -> int:
        reply = client.post("/api/v1/submissions", json={"problem": "aplusb", "language": language, "source": source})
        assert reply.status_code == 202, reply.text
        return reply.json()["id"]

    def view(submission_id: int) -> dict:
        return client.get(f"/api/v1/submissions/{submission_id}").json()

    try:
        found = {}
        for name, (language, source, _) in HOSTILE.items():
            if language not in worker.languages:
                continue
            settings.work_dir.mkdir(parents=True, exist_ok=True)
            before = free_bytes(settings.work_dir)
            hostile = submit(language, source)
            honest = [submit(*HONEST) for _ in range(3)]
            while worker.judge_one():
                pass
            after = free_bytes(settings.work_dir)
            found[name] = (view(hostile), [view(i) for i in honest], before, after)
        yield found
    finally:
        worker.box.close()
        shutil.rmtree(settings.work_dir, ignore_errors=True)


@needs_root
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_submission_earns_its_verdict_and_harms_no_later_one(judged, name):
    if name not in judged:
        pytest.skip(f"{HOSTILE[name][0]} is not installed")
    hostile, honest, before, after = judged[name]
    assert hostile["status"] == "done"
    assert hostile["verdict"] in HOSTILE[name][2], hostile
    assert hostile["judge_message"] is None
    assert [(state["verdict"], state["judge_message"]) for state in honest] == [("AC", None)] * 3
    assert after > before - DISK_SLACK  # nothing of the run holds disk after its verdict
