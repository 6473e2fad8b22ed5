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
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import judge.judging as judge_module
from judge.api import create_app
from judge.auth import create_user, issue_token
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.judging import fit_session, open_session
from judge.languages import LANGUAGES
from judge.package_store import load_problem
from judge.worker import Worker
from sandbox import Sandbox, SandboxError
from tests.slots import WORK_ROOT, slot

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


class Judge:
    """The A+B package on a fresh SQLite database in ``tmp``, the API as a teacher, and one real
    worker on sandbox slot ``slot`` (work folder under the tests' WORK_ROOT, which the slot's uid
    reaches)."""

    def __init__(self, tmp: Path, slot: int) -> None:
        work_dir = WORK_ROOT / f"worker-box-{tmp.name}"
        self.settings = Settings(database_url=f"sqlite:///{tmp / 'judge.db'}", problems_dir=tmp, work_dir=work_dir)
        upgrade(self.settings.database_url)
        with make_sessionmaker(make_engine(self.settings.database_url))() as session:
            load_problem(session, write_package(tmp / "aplusb"))
            teacher, _ = create_user(session, "tess", "teacher", password="pw-12345")
            session.commit()
            token, _ = issue_token(session, teacher)
        self.client = TestClient(create_app(self.settings), headers={"Authorization": f"Bearer {token}"})
        self.worker = Worker(self.settings, slot=slot)
        self.worker.languages = ["c", "cpp", "python3", *(["java"] if shutil.which("javac") else [])]
        work_dir.mkdir(parents=True, exist_ok=True)

    def submit(self, language: str, source: str) -> int:
        """The id of a new submission to A+B."""
        reply = self.client.post(
            "/api/v1/submissions", json={"problem": "aplusb", "language": language, "source": source}
        )
        assert reply.status_code == 202, reply.text
        return reply.json()["id"]

    def view(self, submission_id: int) -> dict:
        """The teacher's view of a submission."""
        return self.client.get(f"/api/v1/submissions/{submission_id}").json()

    def close(self) -> None:
        """Free the worker's slot and remove its work folder."""
        self.worker.close()
        shutil.rmtree(self.settings.work_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Each HOSTILE submission followed by three honest ones, judged one at a time by one real
    worker; yields {name: (hostile view, [honest views], free disk before, free disk after)}."""
    judge = Judge(tmp_path_factory.mktemp("box"), SLOT)
    try:
        found = {}
        for name, (language, source, _) in HOSTILE.items():
            if language not in judge.worker.languages:
                continue
            before = free_bytes(judge.settings.work_dir)
            hostile = judge.submit(language, source)
            honest = [judge.submit(*HONEST) for _ in range(3)]
            while judge.worker.judge_one():
                pass
            after = free_bytes(judge.settings.work_dir)
            found[name] = (judge.view(hostile), [judge.view(i) for i in honest], before, after)
        yield found
    finally:
        judge.close()


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


@needs_root
def test_a_worker_makes_its_folder_clean_before_it_claims(tmp_path, monkeypatch):
    judge = Judge(tmp_path, slot(85))
    try:
        left = judge.worker.work / "left"
        left.mkdir(parents=True)
        fd = os.open(left, os.O_RDONLY)
        for _ in range(3000):  # deeper than Python's recursion limit, longer than PATH_MAX
            os.mkdir("deeper", dir_fd=fd)
            deeper = os.open("deeper", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = deeper
        os.close(fd)
        first = judge.submit(*HONEST)
        assert judge.worker.judge_one()
        assert judge.view(first)["verdict"] == "AC"
        assert not left.exists()

        def cannot_clean(path: Path) -> Path:
            raise SandboxError(f"cannot remove or move aside {path}")

        (judge.worker.work / "stuck").mkdir()
        monkeypatch.setattr("judge.worker.clear_folder", cannot_clean)
        second = judge.submit(*HONEST)
        assert judge.worker.judge_one()  # in the box set up after the first: the folder is cleaned after it
        assert judge.view(second)["verdict"] == "AC"
        assert judge.worker.box.session_open is None  # no box set up in a folder left unclean
        third = judge.submit(*HONEST)
        assert not judge.worker.judge_one()  # nothing claimed: no submission pays for the worker's fault
        assert judge.view(third)["status"] == "queued"
        monkeypatch.undo()
        assert judge.worker.judge_one()
        assert judge.view(third)["verdict"] == "AC"
    finally:
        judge.close()


@needs_root
def test_an_idle_worker_keeps_its_box_ready_and_judges_the_next_submission_in_it(tmp_path, monkeypatch):
    judge = Judge(tmp_path, slot(86))
    try:
        assert not judge.worker.judge_one()  # nothing queued: the box set up meanwhile stays
        deadline = time.monotonic() + 10
        while not ((ready := judge.worker.box.session_open) and ready.box_pids):  # by the worker's box thread
            assert time.monotonic() < deadline, "no box set up"
            time.sleep(0.01)
        box_pids = ready.box_pids
        assert box_pids
        assert not judge.worker.judge_one()
        assert judge.worker.box.session_open is ready and ready.box_pids[0] == box_pids[0]
        judged_in = []
        judge_submission = judge_module.judge_submission

        def noting(*args, **kwargs):
            judged_in.append(kwargs["session"].box_pids[0])
            return judge_submission(*args, **kwargs)

        monkeypatch.setattr("judge.worker.judge_submission", noting)
        submitted = [judge.submit(*HONEST), judge.submit("c", C_ANSWER + "int main(void) { answer(); }\n")]
        assert judge.worker.judge_one() and judge.worker.judge_one()
        assert [judge.view(i)["verdict"] for i in submitted] == ["AC", "AC"]
        assert judged_in[0] == box_pids[0]  # the box that was ready, not a new one
        assert judged_in[1] != box_pids[0]  # each submission has a box of its own
        assert not os.path.exists(f"/proc/{box_pids[0]}")  # closed by the time judge_one returned, and reaped
        deadline = time.monotonic() + 10
        while not (judge.worker.box.session_open and judge.worker.box.session_open.box_pids):
            assert time.monotonic() < deadline, "no box set up for the next submission"
            time.sleep(0.01)
        assert judge.worker.box.session_open.box_pids[0] not in judged_in  # the next one's, new
    finally:
        judge.close()


@needs_root
def test_a_box_that_cannot_be_set_up_ahead_is_a_judge_error_and_the_worker_goes_on(tmp_path, monkeypatch):
    judge = Judge(tmp_path, slot(87))
    try:
        real = judge_module.open_session

        def broken_once(*args):
            monkeypatch.setattr("judge.worker.open_session", real)
            raise SandboxError("bubblewrap could not set up the session box: test")

        monkeypatch.setattr("judge.worker.open_session", broken_once)
        first, second = judge.submit(*HONEST), judge.submit(*HONEST)
        assert judge.worker.judge_one() and judge.worker.judge_one()
        failed = judge.view(first)
        assert failed["verdict"] == "JE" and "could not set up the session box" in failed["judge_message"]
        assert judge.view(second)["verdict"] == "AC"
    finally:
        judge.close()


@needs_root
def test_a_box_set_up_ahead_takes_the_language_s_environment_and_binds(tmp_path):
    box = Sandbox(slot=slot(88))
    work = WORK_ROOT / f"ahead-{tmp_path.name}"
    shared = Path(tempfile.mkdtemp(dir="/var/tmp"))  # not under /tmp: each run has a /tmp of its own
    (shared / "note.txt").write_text("bound\n")
    os.chmod(shared, 0o755)
    os.chmod(shared / "note.txt", 0o644)
    show = "import os, sys\nprint(os.environ.get('AHEAD'), *(open(name).read().strip() for name in sys.argv[1:]))\n"
    try:
        plain = replace(LANGUAGES["python3"], env={"AHEAD": "yes"})
        ahead = open_session(box, None, work)
        fitted = fit_session(ahead, box, plain, work)
        assert fitted is ahead  # no binds of its own: the box set up ahead serves
        (fitted.folder("run") / "show.py").write_text(show)
        assert fitted.run(["/usr/bin/python3", "show.py"], "run").stdout == b"yes\n"
        bound = replace(plain, extra_binds=(str(shared),))
        refitted = fit_session(fitted, box, bound, work)
        assert refitted is not fitted and not fitted.box_pids  # a box with the bind in its place
        (refitted.folder("run") / "show.py").write_text(show)
        ran = refitted.run(["/usr/bin/python3", "show.py", str(shared / "note.txt")], "run")
        assert ran.stdout == b"yes bound\n", ran.stderr
        refitted.close()
    finally:
        box.close()
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(shared, ignore_errors=True)
