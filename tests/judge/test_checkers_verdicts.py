"""Default token checker and its flags, output-validator runner, check_output, and verdict order."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from judge.checkers import (
    CheckResult,
    DefaultFlags,
    FlagError,
    check_output,
    default_check,
    inexact_integers,
    parse_flags,
    plain_text,
)
from judge.packages import TestCase as JudgeTest
from judge.verdicts import AC, JE, MLE, OLE, RTE, TLE, WA, resource_verdict, submission_verdict
from sandbox import Limits, RunResult
from tests.validator_box import needs_root, validator_box_fixture

box = validator_box_fixture(64)


def run_output_validator(box, program, input_path, answer_path, team_output_path, flags=()):
    """The judge's output validator runner: the validator built and run in the sandbox."""
    return box.validators.check(program, input_path, answer_path, team_output_path, flags)


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


@needs_root
def test_output_validator_exit_codes_map_to_verdicts(box, tmp_path):
    accept = _validator(
        tmp_path,
        """
        import sys
        open(sys.argv[3] + "judgemessage.txt", "w").write("fine\\n")
        sys.exit(42)
    """,
    )
    assert run_output_validator(box, accept, tmp_path / "in", tmp_path / "ans", tmp_path / "team").verdict == AC
    reject = _validator(
        tmp_path,
        """
        import sys
        open(sys.argv[3] + "judgemessage.txt", "w").write("path goes through a wall\\nmore")
        sys.exit(43)
    """,
    )
    result = run_output_validator(box, reject, tmp_path / "in", tmp_path / "ans", tmp_path / "team")
    assert (result.verdict, result.message) == (WA, "path goes through a wall")


@pytest.mark.parametrize("body", ["import sys; sys.exit(0)", "raise RuntimeError('boom')", "import sys; sys.exit(1)"])
@needs_root
def test_crashing_or_misbehaving_validator_is_judge_error_not_wa(box, tmp_path, body):
    program = _validator(tmp_path, body)
    assert run_output_validator(box, program, tmp_path / "in", tmp_path / "ans", tmp_path / "team").verdict == JE


@needs_root
def test_validator_that_hangs_is_judge_error(box, tmp_path, monkeypatch):
    monkeypatch.setattr(box.validators, "limits", Limits(cpu_ms=500, wall_ms=1000))
    program = _validator(tmp_path, "import time; time.sleep(30)")
    result = run_output_validator(box, program, tmp_path / "in", tmp_path / "ans", tmp_path / "team")
    assert result.verdict == JE and "over its time limit" in result.message


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


@pytest.mark.parametrize(
    "team, verdict",
    [
        (b"1 2\n", AC),
        (b"1  2\n", WA),  # a doubled space
        (b"1 2\n\n", WA),  # an extra blank line
        (b"1 2", WA),  # the final newline missing
        (b" 1 2\n", WA),  # leading space
        (b"1\t2\n", WA),
        (b"1 2\r\n", AC),  # CR LF is read as LF (docs/conventions.md)
        (b"\xef\xbb\xbf1 2\n", AC),  # so is a leading byte order mark
        (b"1 2 3\n", WA),
        (b"1\n", WA),
    ],
)
def test_space_change_sensitive_compares_every_whitespace_byte(team, verdict):
    assert default_check(team, b"1 2\n", ("space_change_sensitive",)).verdict == verdict
    assert default_check(team, b"1 2\n").verdict == (AC if plain_text(team).split() == [b"1", b"2"] else WA)


def test_each_float_flag_sets_its_own_tolerance():
    # |error| 0.05 on 10: absolute 0.1 accepts, relative 0.001 (0.01 here) rejects
    assert default_check(b"10.05", b"10", ("float_absolute_tolerance", "0.1")).verdict == AC
    assert default_check(b"10.05", b"10", ("float_relative_tolerance", "0.001")).verdict == WA
    assert default_check(b"10.05", b"10", ("float_relative_tolerance", "0.01")).verdict == AC
    assert default_check(b"10.05", b"10", ("float_absolute_tolerance", "0.01")).verdict == WA
    # float_tolerance sets both: either bound accepts
    assert default_check(b"1000.5", b"1000", ("float_tolerance", "0.001")).verdict == AC
    assert default_check(b"0.0005", b"0", ("float_tolerance", "0.001")).verdict == AC
    assert default_check(b"0.002", b"0", ("float_tolerance", "0.001")).verdict == WA
    # a non-number judge token is still compared as a string, case-insensitively by default
    assert default_check(b"YES 1.0", b"yes 1", ("float_tolerance", "1e-9")).verdict == AC
    assert default_check(b"YES 1.0", b"yes 1", ("float_tolerance", "1e-9", "case_sensitive")).verdict == WA
    # without a float flag numbers are strings
    assert default_check(b"1.0", b"1").verdict == WA


@pytest.mark.parametrize("team", [b"+1.0", b"1.", b".5e1", b"0x1p0", b"inf", b"1e9999", b"1_0", b"\xd9\xa1"])
def test_float_tolerance_reads_only_the_float_grammar(team):
    # each spells a number to sscanf("%lf") or Python's float(), none is in the judge's grammar
    assert default_check(team, b"1", ("float_tolerance", "100")).verdict == WA


@pytest.mark.parametrize(
    "flags, word",
    [
        (("float_tolerence", "1e-6"), "unknown validator flag 'float_tolerence'"),
        (("case_insensitive",), "unknown"),
        (("float_tolerance",), "needs a number"),
        (("float_absolute_tolerance", "-1"), "needs a number"),
        (("float_relative_tolerance", "nan"), "needs a number"),
        (("float_tolerance", "1e400"), "needs a number"),
    ],
)
def test_unknown_flags_and_bad_tolerances_are_refused(flags, word):
    with pytest.raises(FlagError, match=word):
        parse_flags(flags)


def test_parse_flags_reads_every_kattis_flag():
    assert parse_flags(
        [
            "case_sensitive",
            "space_change_sensitive",
            "float_absolute_tolerance",
            "1e-6",
            "float_relative_tolerance",
            "0",
        ]
    ) == DefaultFlags(True, True, 1e-6, 0.0)
    assert parse_flags(["float_tolerance", "2.5e-3"]) == DefaultFlags(absolute=2.5e-3, relative=2.5e-3)


def test_integers_beyond_two_to_the_53_are_reported_under_a_float_tolerance():
    big = b"9007199254740993 9007199254740992 -9007199254740993 1.5\n"
    assert inexact_integers(big, ("float_tolerance", "1e-9")) == ["9007199254740993", "-9007199254740993"]
    assert inexact_integers(big, ()) == []
    # the reason for the warning: a neighbouring wrong integer is accepted
    assert default_check(b"9007199254740992", b"9007199254740993", ("float_tolerance", "0")).verdict == AC


def test_check_output_runs_the_validator_through_the_given_runner(tmp_path):
    calls = []

    def runner(program, input_path, answer_path, team_output_path, flags=()):
        calls.append((program.name, input_path.name, answer_path.name, team_output_path.name, tuple(flags)))
        return CheckResult(WA, "from the runner")

    test = JudgeTest("sample/01", "sample", tmp_path / "01.in", tmp_path / "01.ans")
    package = SimpleNamespace(output_validator=tmp_path / "check.py", validator_flags=("x",))
    result = check_output(package, test, tmp_path / "team", run_validator=runner)  # type: ignore[arg-type]
    assert result == CheckResult(WA, "from the runner")
    assert calls == [("check.py", "01.in", "01.ans", "team", ("x",))]


def test_check_output_given_the_bytes_writes_a_file_only_for_an_output_validator(tmp_path):
    seen = []

    def runner(program, input_path, answer_path, team_output_path, flags=()):
        seen.append(team_output_path.read_bytes())
        return CheckResult(AC)

    (tmp_path / "01.ans").write_bytes(b"3\n")
    test = JudgeTest("sample/01", "sample", tmp_path / "01.in", tmp_path / "01.ans")
    default = SimpleNamespace(output_validator=None, validator_flags=())
    team = tmp_path / "team"
    assert check_output(default, test, team, runner, data=b" 3 ").verdict == AC  # type: ignore[arg-type]
    assert check_output(default, test, team, runner, data=b"4\n").verdict == WA  # type: ignore[arg-type]
    assert not team.exists() and not seen  # compared in memory
    custom = SimpleNamespace(output_validator=tmp_path / "check.py", validator_flags=())
    assert check_output(custom, test, team, runner, data=b"7\n").verdict == AC  # type: ignore[arg-type]
    assert seen == [b"7\n"]


def test_checking_needs_neither_the_sandbox_nor_the_judging_module():
    code = (
        "import sys, judge.checkers\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sandbox' or m == 'judge.judging'))"
    )
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert printed.strip() == "[]"
