"""Default token checker, output-validator runner and verdict order."""

from __future__ import annotations

import textwrap

import pytest

from judge.checkers import default_check, run_output_validator
from judge.verdicts import AC, JE, MLE, OLE, RTE, TLE, WA, resource_verdict, submission_verdict
from sandbox import RunResult


@pytest.mark.parametrize("team", [b"1 2\n3", b"1\t2 3", b"1\r\n2\r\n3\r\n", b"  1 2 3   \n\n"])
def test_default_check_ignores_whitespace_layout(team):
    assert default_check(team, b"1 2 3\n").verdict == AC


@pytest.mark.parametrize(
    "team, reason",
    [(b"1 2", "ends after 2"), (b"1 2 3 4", "extra output"), (b"1 2 4", "token 3"), (b"", "ends after 0")],
)
def test_default_check_rejects_wrong_missing_extra(team, reason):
    result = default_check(team, b"1 2 3")
    assert result.verdict == WA and reason in result.message


def test_default_check_case_and_float_flags():
    assert default_check(b"YES", b"yes").verdict == AC
    assert default_check(b"YES", b"yes", ("case_sensitive",)).verdict == WA
    assert default_check(b"1.0001", b"1.0", ("float_tolerance", "1e-3")).verdict == AC
    assert default_check(b"1.01", b"1.0", ("float_tolerance", "1e-3")).verdict == WA
    assert default_check(b"nan", b"1.0", ("float_tolerance", "1e-3")).verdict == WA


def _validator(tmp_path, body: str):
    path = tmp_path / "check.py"
    path.write_text(textwrap.dedent(body))
    for name in ("in", "ans", "team"):
        (tmp_path / name).write_text("5\n")
    return path


def test_output_validator_exit_codes_map_to_verdicts(tmp_path):
    accept = _validator(
        tmp_path,
        """
        import sys
        open(sys.argv[3] + "judgemessage.txt", "w").write("fine\\n")
        sys.exit(42)
    """,
    )
    assert run_output_validator(accept, tmp_path / "in", tmp_path / "ans", tmp_path / "team").verdict == AC
    reject = _validator(
        tmp_path,
        """
        import sys
        open(sys.argv[3] + "judgemessage.txt", "w").write("path goes through a wall\\nmore")
        sys.exit(43)
    """,
    )
    result = run_output_validator(reject, tmp_path / "in", tmp_path / "ans", tmp_path / "team")
    assert (result.verdict, result.message) == (WA, "path goes through a wall")


@pytest.mark.parametrize("body", ["import sys; sys.exit(0)", "raise RuntimeError('boom')", "import sys; sys.exit(1)"])
def test_crashing_or_misbehaving_validator_is_judge_error_not_wa(tmp_path, body):
    program = _validator(tmp_path, body)
    assert run_output_validator(program, tmp_path / "in", tmp_path / "ans", tmp_path / "team").verdict == JE


def test_validator_that_hangs_is_judge_error(tmp_path):
    program = _validator(tmp_path, "import time; time.sleep(30)")
    result = run_output_validator(program, tmp_path / "in", tmp_path / "ans", tmp_path / "team", timeout_s=0.5)
    assert result.verdict == JE and "over" in result.message


def _run(**kw):
    base = dict(
        memory_limit_exceeded=False,
        cpu_limit_exceeded=False,
        wall_limit_exceeded=False,
        output_limit_exceeded=False,
        signal=None,
        exit_code=0,
        cpu_ms=5,
        wall_ms=6,
        peak_memory_kib=100,
        stderr=b"",
    )
    return RunResult(**{**base, **kw})


def test_resource_verdict_order_and_exit_137_is_rte():
    assert resource_verdict(_run()) is None
    assert resource_verdict(_run(memory_limit_exceeded=True, cpu_limit_exceeded=True, signal=9))[0] == MLE
    assert resource_verdict(_run(cpu_limit_exceeded=True, wall_limit_exceeded=True, signal=9))[0] == TLE
    assert "wall" in resource_verdict(_run(wall_limit_exceeded=True, signal=9))[1]
    assert resource_verdict(_run(output_limit_exceeded=True, signal=25))[0] == OLE
    verdict, reason = resource_verdict(_run(signal=11, exit_code=None))
    assert (verdict, reason) == (RTE, "killed by SIGSEGV")
    assert resource_verdict(_run(exit_code=137)) == (RTE, "exit code 137")


def test_runtime_heap_exhaustion_is_mle_only_when_the_run_failed():
    java = (b"java.lang.OutOfMemoryError",)
    oom = b'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space'
    assert resource_verdict(_run(exit_code=1, stderr=oom), java)[0] == MLE
    assert resource_verdict(_run(exit_code=1, stderr=oom)) == (RTE, "exit code 1")  # no markers: C, C++
    assert resource_verdict(_run(exit_code=0, stderr=oom), java) is None  # caught and recovered: check output
    assert resource_verdict(_run(exit_code=1, stderr=b"NullPointerException"), java)[0] == RTE


def test_submission_verdict_is_first_non_ac():
    assert submission_verdict([AC, AC]) == AC
    assert submission_verdict([AC, WA, TLE]) == WA
    assert submission_verdict([TLE, WA]) == TLE
    assert submission_verdict([]) == JE
