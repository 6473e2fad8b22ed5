"""Interactive problems (legacy ``validation: custom interactive``, 2023-07 ``type: interactive``):
the output validator is the interactor, run in a box of its own slot and connected to the
submission by pipes. The fixture ``guessgame`` (tests/fixtures/packages/) is a guessing game
(binary search): its submissions get AC, WA, TLE and RTE through ``judge problem verify`` and the
same from problemtools' ``verifyproblem``. The verdict rules are problemtools'
(``interactive_verdict``)."""

from __future__ import annotations

import select
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.api import create_app
from judge.checkers import CheckResult
from judge.config import Settings
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.judging import interactive_verdict, judge_submission
from judge.languages import LANGUAGES
from judge.package_store import load_problem
from judge.packages import PackageError, load_package
from judge.verdicts import AC, JE, RTE, TLE, WA
from judge.verify import verify_package
from sandbox import RunResult, Sandbox
from sandbox.session import BoxServer
from tests.slots import WORK_ROOT, slot
from tests.validator_box import needs_root
from tests.verify.test_problemtools import problemtools_config, verifyproblem  # noqa: F401 (a fixture)

GUESSGAME = Path(__file__).resolve().parents[1] / "fixtures" / "packages" / "guessgame"
EXPECTED = {
    "accepted/binary_search.py": "AC",
    "accepted/binary_search.cpp": "AC",
    "wrong_answer/linear.py": "WA",
    "wrong_answer/off_by_one.py": "WA",
    "time_limit_exceeded/think_forever.py": "TLE",
    "run_time_error/crash_after_one.py": "RTE",
}


def run(exit_code=0, signal=None, cpu=False, wall=False) -> RunResult:
    flags = dict(cpu_limit_exceeded=cpu, wall_limit_exceeded=wall, memory_limit_exceeded=False)
    return RunResult(exit_code=exit_code, signal=signal, cpu_ms=10, wall_ms=10, peak_memory_kib=1, **flags)


@pytest.mark.parametrize(
    "submission, interactor, interactor_first, verdict",
    [
        (run(), CheckResult(AC, "found"), False, AC),
        (run(), CheckResult(WA, "too many guesses"), False, WA),
        (run(exit_code=1), CheckResult(WA, "no guess"), False, RTE),  # the submission failed first
        (run(signal=13), CheckResult(WA, "bad guess"), True, WA),  # the interactor failed first
        (run(cpu=True, signal=9), CheckResult(WA, "no guess"), False, TLE),
        (run(wall=True, signal=9), CheckResult(WA, "gave up"), True, WA),  # its WA came first
        (run(cpu=True, signal=9), CheckResult(JE, "interactor crashed"), False, JE),
        (run(), CheckResult(JE, "interactor ran over its time limit"), True, JE),
    ],
)
def test_who_failed_first_decides(submission, interactor, interactor_first, verdict):
    assert interactive_verdict(submission, interactor, interactor_first)[0] == verdict


def test_interactive_is_read_from_both_format_versions(tmp_path):
    assert load_package(GUESSGAME).interactive
    modern = tmp_path / "guessgame"
    shutil.copytree(GUESSGAME, modern)
    (modern / "problem.yaml").write_text("problem_format_version: 2023-07-draft\nname: Guess\ntype: interactive\n")
    (modern / "output_validators").rename(modern / "output_validator")
    shutil.move(modern / "output_validator" / "interactor" / "interactor.py", modern / "output_validator")
    (modern / "output_validator" / "interactor").rmdir()
    assert load_package(modern).interactive and load_package(modern).output_validator == modern / "output_validator"
    shutil.rmtree(modern / "output_validator")
    with pytest.raises(PackageError, match="interactor"):
        load_package(modern)


@needs_root
def test_every_guessgame_submission_gets_its_folders_verdict(monkeypatch):
    monkeypatch.setenv("JUDGE_WORK_DIR", str(WORK_ROOT / "interactive-verify"))
    report = verify_package(GUESSGAME, slot=slot(75))
    steps = {step.title: step for step in report.steps}
    judged = steps["submissions get their verdicts"]
    assert judged.ok, judged.failures
    assert {note.split(":")[0]: note.split(": ")[1].split()[0] for note in judged.notes} == EXPECTED
    assert steps["inputs pass the input validator"].ok


# reads the secret wherever it might lie (the interactor's files, its /proc) and guesses it at once
CHEATER = """
import glob
found = None
for path in glob.glob('/box/**', recursive=True) + glob.glob('/proc/*/cwd/.judge/testdata.in'):
    try:
        found = int(open(path).read())
        break
    except (OSError, ValueError):
        pass
print(found if found is not None else 0, flush=True)
input()
"""
CRASHING_INTERACTOR = "import sys\nprint('lower', flush=True)\nraise RuntimeError('the interactor is broken')\n"


@pytest.fixture(scope="module")
def box():
    with Sandbox(slot=slot(76)) as opened:
        yield opened


@needs_root
def test_the_submission_cannot_read_the_interactors_files(box, tmp_path):
    work = WORK_ROOT / "interactive-cheater"
    shutil.rmtree(work, ignore_errors=True)
    outcome = judge_submission(box, load_package(GUESSGAME), LANGUAGES["python3"], CHEATER, work)
    assert outcome.verdict == WA, [(t.verdict, t.message) for t in outcome.tests]
    assert "out of range" in outcome.tests[0].message
    shutil.rmtree(work, ignore_errors=True)


@needs_root
def test_a_crashing_interactor_is_a_judge_error_and_the_next_judging_is_ac(box, tmp_path):
    broken = tmp_path / "guessgame"
    shutil.copytree(GUESSGAME, broken)
    (broken / "output_validators" / "interactor" / "interactor.py").write_text(CRASHING_INTERACTOR)
    work = WORK_ROOT / "interactive-crash"
    shutil.rmtree(work, ignore_errors=True)
    source = (GUESSGAME / "submissions" / "accepted" / "binary_search.py").read_text()
    outcome = judge_submission(box, load_package(broken), LANGUAGES["python3"], source, work)
    assert outcome.verdict == JE and "RuntimeError" in outcome.tests[0].message
    shutil.rmtree(work, ignore_errors=True)
    assert judge_submission(box, load_package(GUESSGAME), LANGUAGES["python3"], source, work).verdict == AC
    shutil.rmtree(work, ignore_errors=True)


# An out-of-range guess (the interactor says WA and stops reading), then more output: killed by
# SIGPIPE after the interactor ended, so WA, however close the two ends are.
WRITES_ON = """#include <stdio.h>
int main(void) {
    printf("0\\n");
    fflush(stdout);
    for (;;) { printf("1\\n"); fflush(stdout); }
}
"""
# An out-of-range guess, then a crash at the end of file the interactor's end gives: WA.
CRASHES_AT_EOF = """#include <stdio.h>
int main(void) {
    char answer[32];
    printf("0\\n");
    fflush(stdout);
    return scanf("%31s", answer) == 1 ? 0 : 3;
}
"""
# Exits at once with an error: the interactor meets the end of its input after that, so RTE.
EXITS_AT_ONCE = "int main(void) { return 3; }\n"
# Guesses without flushing, then waits for an answer that cannot come: killed at the wall limit
# first, so TLE, though the interactor's WA (no guess) follows within milliseconds.
NEVER_FLUSHES = """#include <stdio.h>
int main(void) {
    char answer[32];
    printf("500\\n");
    return scanf("%31s", answer) == 1 ? 0 : 3;
}
"""


@needs_root
@pytest.mark.parametrize(
    "source, verdict", [(WRITES_ON, WA), (CRASHES_AT_EOF, WA), (EXITS_AT_ONCE, RTE), (NEVER_FLUSHES, TLE)]
)
def test_the_side_that_ended_first_decides_however_close_the_ends(box, source, verdict):
    work = WORK_ROOT / "interactive-order"
    shutil.rmtree(work, ignore_errors=True)
    stop = verdict == TLE  # a wall-limit kill costs seconds: one test is enough
    outcome = judge_submission(box, load_package(GUESSGAME), LANGUAGES["c"], source, work, stop_on_failure=stop)
    assert [t.verdict for t in outcome.tests] == [verdict] * (1 if stop else 4), [
        (t.verdict, t.message) for t in outcome.tests
    ]


# An interactor that gives the whole input, closes its output (the submission's end of file),
# then waits for the answer: the judge must not keep that conversation open.
CLOSES_ITS_OUTPUT = """import os, sys
secret = open(sys.argv[1]).read().strip()
sys.stdout.write(secret + "\\n")
sys.stdout.flush()
os.close(sys.stdout.fileno())
answer = sys.stdin.readline().strip()
sys.exit(42 if answer == secret else 43)
"""
ECHO_TO_EOF = "import sys\nprint(sys.stdin.read().strip(), flush=True)\n"


def judge_with_interactor(box, tmp_path: Path, interactor: str, source: str, work_name: str):
    """Judge the Python 3 ``source`` on guessgame's tests with the interactor ``interactor``
    (Python source) in place of the package's own."""
    package = tmp_path / "guessgame"
    shutil.copytree(GUESSGAME, package)
    (package / "output_validators" / "interactor" / "interactor.py").write_text(interactor)
    work = WORK_ROOT / work_name
    shutil.rmtree(work, ignore_errors=True)
    try:
        return judge_submission(box, load_package(package), LANGUAGES["python3"], source, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@needs_root
def test_an_interactor_may_close_its_output_to_end_the_input(box, tmp_path):
    outcome = judge_with_interactor(box, tmp_path, CLOSES_ITS_OUTPUT, ECHO_TO_EOF, "interactive-close")
    assert outcome.verdict == AC, [(t.verdict, t.message) for t in outcome.tests]


def test_problemtools_gives_the_same_verdicts(problemtools_config, tmp_path):  # noqa: F811 (the fixture)
    copy = tmp_path / "guessgame"
    shutil.copytree(GUESSGAME, copy, ignore=shutil.ignore_patterns("statement"))  # legacy: .tex only
    report, _ = verifyproblem(copy, problemtools_config, tmp_path)
    assert "guessgame tested: 0 errors" in report, report[-6000:]
    for name, verdict in EXPECTED.items():
        assert f"{name} " in report and f"OK: {verdict}" in report.split(f"{name} ", 1)[1].splitlines()[0], name


def test_the_sample_conversation_is_shown_over_the_api_and_on_the_problem_page(tmp_path):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'judge.db'}", problems_dir=tmp_path, work_dir=tmp_path)
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        load_problem(session, GUESSGAME)
        session.commit()
    client = TestClient(create_app(settings))
    sample = client.get("/api/v1/problems/guessgame").json()["samples"][0]
    assert sample["interaction"] == ">500\n<correct\n"
    page = client.get("/problems/guessgame").text
    assert "Conversation" in page and "&gt;500\n&lt;correct" in page


# An interactor that still writes after the submission has given its answer and ended: its writes
# must not fail (no SIGPIPE, no broken pipe), and its verdict stands.
WRITES_AFTER_THE_END = """import sys
secret = open(sys.argv[1]).read().strip()
print(secret, flush=True)
answer = sys.stdin.readline().strip()
sys.stdout.write("bye\\n" * 100_000)  # far over a pipe's buffer, to a submission that has ended
sys.stdout.flush()
sys.exit(42 if answer == secret else 43)
"""
ECHO_ONE_LINE = "print(input(), flush=True)\n"


@needs_root
def test_an_interactor_may_write_after_the_submission_ended(box, tmp_path):
    outcome = judge_with_interactor(box, tmp_path, WRITES_AFTER_THE_END, ECHO_ONE_LINE, "interactive-after")
    assert [t.verdict for t in outcome.tests] == [AC] * len(outcome.tests), [
        (t.verdict, t.message) for t in outcome.tests
    ]


@needs_root
def test_an_interactor_box_set_up_again_lasts_to_the_end_of_the_judging(box, monkeypatch):
    """The interactor's box is killed after the first test: the next test's interactor run sets
    up a new one, and that box must serve every later test (a box started by a thread that ends
    dies with it, and each later test would find it gone)."""
    started: list[BoxServer] = []
    real_init = BoxServer.__init__

    def recorded(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        started.append(self)

    monkeypatch.setattr(BoxServer, "__init__", recorded)

    def kill_the_interactors_box(outcome) -> None:
        if outcome.ordinal == 1:
            interactors = started[1]  # the submission's box came up first
            assert interactors.process is not None
            interactors.process.kill()
            interactors.process.wait()
            gone = select.poll()  # until the box's end of the socket is closed too
            gone.register(interactors.socket, select.POLLHUP)
            assert gone.poll(10_000), "the killed box still holds its socket"

    work = WORK_ROOT / "interactive-restart"
    shutil.rmtree(work, ignore_errors=True)
    source = (GUESSGAME / "submissions" / "accepted" / "binary_search.py").read_text()
    package = load_package(GUESSGAME)
    outcome = judge_submission(box, package, LANGUAGES["python3"], source, work, on_test=kill_the_interactors_box)
    shutil.rmtree(work, ignore_errors=True)
    assert len(package.tests) >= 3
    assert [t.verdict for t in outcome.tests] == [AC] * len(package.tests), [
        (t.verdict, t.message) for t in outcome.tests
    ]
    assert len(started) == 3  # the submission's box, the interactor's, and the one set up again
