"""``judge problem verify`` on a small good package and on copies broken one way each: every
failure is named with its step, its test and the reason."""

from __future__ import annotations

from typer.testing import CliRunner

from judge.cli import app
from judge.verify import verify_package
from judge.verify.report import PackageReport
from tests.verify.conftest import VERIFY_SLOT

ALWAYS_ACCEPT = "import sys\nsys.exit(42)\n"
# rejects 1 as a part: the reference's answers "1 n-1" are then wrong in the checker's eyes
REJECTS_ONE = "import sys\ntokens = sys.stdin.read().split()\nsys.exit(43 if '1' in tokens else 42)\n"


def failures_of(report: PackageReport, step: int) -> dict[str, str]:
    """{test: reason} of one step's failures."""
    return {f.test: f.reason for f in report.steps[step - 1].failures}


def failing_steps(report: PackageReport) -> set[int]:
    return {s.number for s in report.steps if s.failures}


def test_good_package_passes_every_step_through_the_cli(split_package):
    result = CliRunner().invoke(app, ["problem", "verify", str(split_package), "--slot", str(VERIFY_SLOT)])
    assert result.exit_code == 0, result.output
    assert "split: verified" in result.output
    assert "FAIL" not in result.output


def test_good_package_report_counts_what_each_step_checked(split_package):
    report = verify_package(split_package, slot=VERIFY_SLOT)
    assert report.ok, report.failures()
    steps = {s.number: s for s in report.steps}
    assert [steps[n].checked for n in (2, 3, 4)] == [3, 3, 3]  # one sample, two secret tests
    assert steps[6].checked == 3  # two accepted submissions and one wrong answer
    # n = 2 has one split only ("1 1"); the other two tests have alternatives to accept
    assert "alternative answers on 2 tests" in steps[5].notes[0]
    assert "slowest accepted run" in steps[7].notes[0]


def test_input_rejected_by_the_validator_is_named(split_package):
    (split_package / "data/secret/03-one.in").write_text("1\n")
    (split_package / "data/secret/03-one.ans").write_text("1 0\n")  # what the reference prints for 1
    report = verify_package(split_package, slot=VERIFY_SLOT, run_submissions=False)
    assert not report.ok
    reasons = failures_of(report, 2)
    assert list(reasons) == ["secret/03-one"]
    assert "exited 43" in reasons["secret/03-one"] and "2 <= n <= 10^9" in reasons["secret/03-one"]


def test_answer_that_differs_from_the_reference_is_named(split_package):
    (split_package / "data/secret/02-largest.ans").write_text("2 999999998\n")  # valid, but not the reference's
    report = verify_package(split_package, slot=VERIFY_SLOT, run_submissions=False)
    assert failing_steps(report) == {3}
    reasons = failures_of(report, 3)
    assert list(reasons) == ["secret/02-largest"]
    assert "'2 999999998'" in reasons["secret/02-largest"] and "'1 999999999'" in reasons["secret/02-largest"]


def test_checker_that_accepts_everything_fails_the_audit(split_package):
    (split_package / "output_validators/check/check.py").write_text(ALWAYS_ACCEPT)
    report = verify_package(split_package, slot=VERIFY_SLOT, run_submissions=False)
    assert failing_steps(report) == {5}
    failures = report.steps[4].failures
    assert {f.test for f in failures} == {"sample/01", "secret/01-smallest", "secret/02-largest"}
    reasons = {f.reason for f in failures}
    assert "checker accepted a wrong answer (empty output)" in reasons
    assert "checker accepted a wrong answer (a zero part)" in reasons  # from the package's mutations.py


def test_checker_that_rejects_the_judge_answer_is_named(split_package):
    (split_package / "output_validators/check/check.py").write_text(REJECTS_ONE)
    report = verify_package(split_package, slot=VERIFY_SLOT, run_submissions=False)
    reasons = failures_of(report, 4)
    assert set(reasons) == {"sample/01", "secret/01-smallest", "secret/02-largest"}
    assert all(reason.startswith("checker gave WA on the judge answer") for reason in reasons.values())


def test_wrong_answer_submission_that_is_accepted_is_named(split_package):
    (split_package / "submissions/wrong_answer/not_wrong.py").write_text("n = int(input())\nprint(n - 1, 1)\n")
    report = verify_package(split_package, slot=VERIFY_SLOT)
    assert failing_steps(report) == {6}
    reasons = failures_of(report, 6)
    assert list(reasons) == ["wrong_answer/not_wrong.py"]
    assert reasons["wrong_answer/not_wrong.py"] == "expected WA, got AC"


def test_cli_exits_non_zero_and_prints_the_failing_test(split_package):
    (split_package / "data/secret/02-largest.ans").write_text("2 999999998\n")
    result = CliRunner().invoke(
        app, ["problem", "verify", str(split_package), "--no-submissions", "--slot", str(VERIFY_SLOT)]
    )
    assert result.exit_code == 1
    assert "NOT verified" in result.output
    assert "split step 3 secret/02-largest" in " ".join(result.output.split())


def test_broken_layout_stops_before_the_other_steps(tmp_path):
    package = tmp_path / "empty"
    package.mkdir()
    report = verify_package(package, slot=VERIFY_SLOT)
    assert not report.ok
    assert "problem.yaml" in failures_of(report, 1)
    assert all(step.not_run and step.status == "not run" for step in report.steps[1:])


def test_all_runs_every_package_of_the_problems_dir(tmp_path, monkeypatch):
    from tests.verify.conftest import make_split_package

    good = make_split_package(tmp_path / "problems")
    broken = tmp_path / "problems" / "broken"
    broken.mkdir()
    (broken / "problem.yaml").write_text("name: [unclosed\n")
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(good.parent))
    result = CliRunner().invoke(app, ["problem", "verify", "--all", "--no-submissions", "--slot", str(VERIFY_SLOT)])
    assert result.exit_code == 1
    output = " ".join(result.output.split())
    assert "broken: NOT verified" in output and "broken step 1 problem.yaml" in output
    assert "all packages" in output
