"""Output validators are untrusted code: they run in the sandbox, as the slot's uid, with limits,
without the judge's environment or files. A hostile one (it looks for the database URL, reads the
judge's files or other tests' answers, forks without end, allocates 2 GiB, loops) ends the test
as JE, never as a verdict of the submission, and the next judging in the same sandbox is AC.
A validator that does not compile is JE with the compiler's message; one that compiles is built
once into the cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge import validators
from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.packages import load_package
from judge.validators import BUILD_FOLDER, build_validator, recipe
from judge.verdicts import AC, JE, WA
from sandbox import Limits, Sandbox
from tests.slots import WORK_ROOT, slot
from tests.validator_box import needs_root

pytestmark = needs_root
SECRET_URL = "postgresql://judge:do-not-leak@db.example/judge"
HONEST_SUBMISSION = "a, b = map(int, input().split())\nprint(a + b)\n"

# Each exits 42 (which would accept) only when its attack worked; otherwise it fails or is stopped.
LOOK_FOR_SECRETS = """
import glob, os, sys
found = []
for path in ['/proc/self/environ', '/proc/1/environ', *glob.glob('/proc/*/environ')]:
    try:
        found.append(open(path, 'rb').read().decode(errors='replace'))
    except OSError:
        pass
found.append(repr(dict(os.environ)))
text = '\\n'.join(found)
sys.exit(42 if 'do-not-leak' in text or 'DATABASE' in text else 1)
"""
READ_JUDGE_FILES = """
import sys
for path in [{paths}]:
    try:
        open(path, 'rb').read()
        sys.exit(42)
    except OSError:
        pass
sys.exit(1)
"""
WRITE_THE_ANSWER = """
import sys
try:
    open(sys.argv[2], 'w').write('changed')
    sys.exit(42)
except OSError:
    sys.exit(1)
"""
FORK_BOMB = """
import os, sys, time
children = 0
while children < 100000:
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
    children += 1
sys.exit(42)
"""
ALLOCATE_2_GIB = "import sys\nx = b'x' * (2 << 30)\nsys.exit(42)\n"
LOOP = "import sys\nwhile True:\n    pass\nsys.exit(42)\n"
CRASH_CPP = "#include <cstdlib>\nint main() { std::abort(); }\n"
NOT_CPP = "int main() { this is not C++; }\n"


def write_package(root: Path, validator_name: str, validator: str) -> Path:
    """A+B with a custom output validator ``validator_name`` holding ``validator``."""
    shutil.rmtree(root, ignore_errors=True)
    (root / "statement").mkdir(parents=True)
    (root / "problem.yaml").write_text("name: A plus B\nvalidation: custom\nlimits:\n  time_limit: 2\n")
    (root / "statement" / "problem.en.md").write_text("# A plus B\n")
    for group, name, data, answer in (("sample", "1", "1 2\n", "3\n"), ("secret", "1", "7 11\n", "18\n")):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / f"{name}.in").write_text(data)
        (root / "data" / group / f"{name}.ans").write_text(answer)
    (root / "output_validators").mkdir()
    (root / "output_validators" / validator_name).write_text(validator)
    return root


@pytest.fixture(scope="module")
def box():
    with Sandbox(slot=slot(72)) as opened:
        yield opened


@pytest.fixture
def work():
    folder = WORK_ROOT / "validators-sandboxed"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def judge(box, root: Path, work: Path):
    package = load_package(root)
    return judge_submission(box, package, LANGUAGES["python3"], HONEST_SUBMISSION, work / "judging")


def judge_files(work: Path) -> str:
    """Host files a validator must not reach: a judge secret, another package's answers."""
    secret = work / "judge-secret.txt"
    secret.write_text(SECRET_URL)
    secret.chmod(0o644)
    return ", ".join(repr(str(p)) for p in (secret, Path("/etc/shadow"), Path(__file__), Path.cwd() / "pyproject.toml"))


HOSTILE = {
    "look-for-secrets": lambda work: LOOK_FOR_SECRETS,
    "read-judge-files": lambda work: READ_JUDGE_FILES.format(paths=judge_files(work)),
    "write-the-answer": lambda work: WRITE_THE_ANSWER,
    "fork-bomb": lambda work: FORK_BOMB,
    "allocate-2-gib": lambda work: ALLOCATE_2_GIB,
    "loop": lambda work: LOOP,
}


@pytest.mark.parametrize("attack", sorted(HOSTILE))
def test_a_hostile_validator_is_a_judge_error_and_the_box_judges_on(box, work, monkeypatch, attack):
    monkeypatch.setenv("DATABASE_URL", SECRET_URL)
    monkeypatch.setattr(validators, "VALIDATOR_LIMITS", Limits(cpu_ms=2000, wall_ms=4000, memory_kib=256 * 1024))
    root = write_package(work / "hostile", "check.py", HOSTILE[attack](work))
    outcome = judge(box, root, work)
    assert outcome.verdict == JE, [(t.verdict, t.message) for t in outcome.tests]
    assert all(t.verdict == JE and t.message.startswith("output validator") for t in outcome.tests)
    assert SECRET_URL not in repr(outcome)
    honest = write_package(work / "honest", "check.py", "import sys\nsys.exit(42)\n")
    assert judge(box, honest, work).verdict == AC


def test_a_validator_killed_by_a_signal_is_a_judge_error(box, work):
    outcome = judge(box, write_package(work / "crash", "check.cpp", CRASH_CPP), work)
    assert outcome.verdict == JE and "SIGABRT" in outcome.tests[0].message


def test_a_validator_that_does_not_compile_is_a_judge_error_with_the_compilers_message(box, work):
    outcome = judge(box, write_package(work / "broken", "check.cpp", NOT_CPP), work)
    assert outcome.verdict == JE
    message = outcome.tests[0].message
    assert "check.cpp does not build" in message and "error" in message, message


def test_the_validator_sees_only_its_test_and_writes_only_feedback(box, work):
    """The input and answer are read-only files of its own folder; the feedback folder is its."""
    validator = (
        "import os, sys\n"
        "assert open(sys.argv[1]).read() == '1 2\\n' or open(sys.argv[1]).read() == '7 11\\n'\n"
        "assert not os.access(sys.argv[2], os.W_OK) and os.getuid() != 0\n"
        "assert sorted(os.listdir('/box/.judge')) == ['testdata.ans', 'testdata.in']\n"
        "open(sys.argv[3] + 'teammessage.txt', 'w').write('seen by the team\\n')\n"
        "open(sys.argv[3] + 'score.txt', 'w').write('0.5\\n')\n"
        "sys.exit(43 if sys.stdin.read().split() != open(sys.argv[2]).read().split() else 42)\n"
    )
    root = write_package(work / "reads", "check.py", validator)
    outcome = judge(box, root, work)
    assert outcome.verdict == AC, [(t.verdict, t.message) for t in outcome.tests]
    wrong = judge_submission(box, load_package(root), LANGUAGES["python3"], "print(0)\n", work / "judging")
    assert wrong.verdict == WA


class CountingSession:
    """A session that counts the runs made through it."""

    def __init__(self, session) -> None:
        self.session, self.runs = session, 0

    def __getattr__(self, name):
        return getattr(self.session, name)

    def run(self, *args, **kwargs):
        self.runs += 1
        return self.session.run(*args, **kwargs)


def test_a_compiled_validator_is_built_once_into_the_cache(box, work):
    root = write_package(work / "cached", "check.cpp", "int main() { return 42; }\n")
    program = load_package(root).output_validator
    assert program is not None
    cache = work / "cache"
    (work / "session").mkdir()
    with box.session(work / "session") as session:
        counting = CountingSession(session)
        first = build_validator(counting, program, cache)  # type: ignore[arg-type]
        assert counting.runs == 1 and (first.folder / "main").is_file()
        second = build_validator(counting, program, cache)  # type: ignore[arg-type]
        assert counting.runs == 1 and second == first
        assert not (session.root / BUILD_FOLDER).exists()
    assert [p.name for p in cache.iterdir()] == [recipe(program).key()]
