"""Compile bombs (issue #4's hostile corpus, compile side), judged by ``judge_submission`` in the
real sandbox: each is CE (stopped by a compile limit, or a plain compiler failure with its
message capped), leaves no process of the slot's uid on the host, and the same sandbox then
judges an ordinary submission AC."""

from __future__ import annotations

import subprocess

import pytest

from judge.judging import COMPILE_LIMITS, COMPILE_MESSAGE_LIMIT, judge_submission
from judge.languages import LANGUAGES
from judge.packages import load_package
from judge.verdicts import AC, CE
from tests.languages.conftest import SOLUTIONS, needs_root
from tests.sandbox.conftest import processes_of

pytestmark = [needs_root, pytest.mark.slow]

# the preprocessor reads an endless device into memory
URANDOM_INCLUDE = '#include "/dev/urandom"\nint main() { return 0; }\n'
# 2^30 distinct instantiations (each level doubles them, and the type names nest): the compiler's
# memory grows until a limit stops it
EXPLODING_TEMPLATE = """template <class T, int N> struct Blow {
    typedef Blow<Blow<T, N - 1>, N - 1> Left;
    typedef Blow<Blow<Left, N - 1>*, N - 1> Right;
    static const long value = Left::value + Right::value + sizeof(T);
};
template <class T> struct Blow<T, 0> { static const long value = 1; };
int main() { return (int)Blow<int, 30>::value; }
"""
# 4,000 errors on one 28 KB line: g++ quotes the whole line under each of them (over 100 MB)
ERROR_LOG_STATEMENTS = 4000
HUGE_ERROR_LOG = "struct S {};\nint main() { S s; " + "s = 1; " * ERROR_LOG_STATEMENTS + "}\n"


def _judge(box, package, source: str, work):
    return judge_submission(box, package, LANGUAGES["cpp"], source, work)


def _assert_slot_clean_and_still_judging(box, package, work):
    assert processes_of(box.uid) == []
    follow_up = judge_submission(box, package, LANGUAGES["c"], (SOLUTIONS / "lee.c").read_text(), work / "next")
    assert follow_up.verdict == AC, (follow_up.compile_message, [(t.test.name, t.verdict) for t in follow_up.tests])


@pytest.mark.parametrize(
    "name, bomb",
    [("dev-urandom", URANDOM_INCLUDE), ("exploding-template", EXPLODING_TEMPLATE)],
    ids=["dev-urandom", "exploding-template"],
)
def test_a_compiler_eating_memory_is_stopped_at_a_limit(box, work_root, short_lee, name, bomb):
    package = load_package(short_lee)
    work = work_root / f"bomb-{name}"
    outcome = _judge(box, package, bomb, work)
    assert outcome.verdict == CE and outcome.tests == []
    assert outcome.compile_message.startswith("compilation stopped: ")
    # the cgroup memory limit of the compile, or its CPU limit, whichever came first
    assert "memory limit exceeded" in outcome.compile_message or "CPU time limit" in outcome.compile_message
    _assert_slot_clean_and_still_judging(box, package, work)


def test_a_100_mb_error_log_is_ce_with_the_message_capped(box, work_root, short_lee, tmp_path):
    source = tmp_path / "log.cpp"
    source.write_text(HUGE_ERROR_LOG)
    # the bomb is one: g++ outside the sandbox writes over 100 MB of diagnostics for it
    host = subprocess.run(["g++", "-fsyntax-only", str(source)], capture_output=True)
    assert host.returncode != 0 and len(host.stderr) > 100 * 10**6
    assert len(host.stderr) > COMPILE_LIMITS.output_bytes + COMPILE_LIMITS.stderr_bytes  # more than the box keeps
    package = load_package(short_lee)
    work = work_root / "bomb-error-log"
    outcome = _judge(box, package, HUGE_ERROR_LOG, work)
    assert outcome.verdict == CE and outcome.tests == []
    assert "error: no match for" in outcome.compile_message
    assert len(outcome.compile_message.encode()) <= COMPILE_MESSAGE_LIMIT + 200
    _assert_slot_clean_and_still_judging(box, package, work)
