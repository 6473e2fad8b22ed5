"""``judge problem verify`` on a package from elsewhere (a contest archive in the Kattis format):
the steps that check this judge's own conventions (the reference solver, the checker audit with the
package's mutations) are skipped with a note, every other step runs and decides; a package written
to the conventions keeps all seven steps."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.verify import verify_package
from judge.verify.layout import follows_own_conventions
from judge.verify.submissions import verdict_matches
from judge.vocabulary import StepStatus, Verdict
from tests.verify.conftest import VERIFY_SLOT, make_split_package

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "packages" / "archivesum"
OWN_PACKAGES = ["basic", "lee", "lines", "queens", "snakes"]
CONVENTION_STEPS = [3, 5]


@pytest.fixture
def archivesum(tmp_path) -> Path:
    """A copy of the foreign fixture: no reference solver, no generator, ``validation: default``."""
    return Path(shutil.copytree(FIXTURE, tmp_path / "archivesum"))


def statuses(report) -> dict[int, str]:
    return {step.number: step.status for step in report.steps}


def test_foreign_package_skips_exactly_the_convention_steps(archivesum):
    slow = archivesum / "submissions/slow_accepted/indexed.py"  # a folder other tools know (DOMjudge, BAPCtools)
    slow.parent.mkdir()
    slow.write_text("n = int(input())\nvalues = input().split()\nprint(sum(int(values[i]) for i in range(n)))\n")
    hungry = archivesum / "submissions/run_time_error/hungry.py"  # the format's words: a crash
    hungry.parent.mkdir()
    hungry.write_text("block = b'x' * (600 * 1024 * 1024)\nprint(len(block))\n")
    report = verify_package(archivesum, slot=VERIFY_SLOT)
    assert report.ok, report.failures()
    assert [step.number for step in report.skipped()] == CONVENTION_STEPS
    assert {n for n, s in statuses(report).items() if s == StepStatus.OK} == {1, 2, 4, 6, 7}
    steps = {step.number: step for step in report.steps}
    assert "no reference solver" in (steps[3].skipped or "")
    assert "generators/mutations.py" in (steps[5].skipped or "")
    assert steps[2].checked == steps[4].checked == 3  # every input validated, every .ans checked
    # the default output validator judged: the accepted C and Python files, the wrong answer
    assert steps[6].checked == 4
    judged = [
        "accepted/sum.c: AC",
        "accepted/sum.py: AC",
        "run_time_error/hungry.py: MLE on sample/1",
        "wrong_answer/largest.py: WA on sample/1",
    ]
    assert sorted(steps[6].notes) == judged
    # a submission folder the format allows elsewhere is named, not judged, and fails nothing
    assert any("submissions/slow_accepted" in w for w in steps[1].warnings)


def test_cli_shows_skipped_steps_in_the_table_and_the_summary(archivesum):
    command = ["problem", "verify", str(archivesum), "--no-submissions", "--slot", str(VERIFY_SLOT)]
    result = CliRunner().invoke(app, command)
    output = " ".join(result.output.split())
    assert "skipped" in output and "no reference solver" in output
    assert "not run" in output  # --no-submissions: steps 6 and 7 did not run, so not verified
    assert result.exit_code == 1


def test_skipped_steps_are_counted_in_the_all_packages_table(archivesum, monkeypatch):
    make_split_package(archivesum.parent)  # one package of the conventions beside it
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(archivesum.parent))
    result = CliRunner().invoke(app, ["problem", "verify", "--all", "--slot", str(VERIFY_SLOT)])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "archivesum: verified (steps 3, 5 skipped: not this judge's conventions)" in output
    assert "split: verified ┏" in output  # no step skipped
    overall = output.split("all packages", 1)[1]
    assert "│ archivesum │ verified (steps 3, 5 skipped: not this judge's conventions) │ - │ 3, 5 │" in overall
    assert "│ split │ verified │ - │ - │" in overall


def test_other_steps_still_decide_on_a_foreign_package(archivesum):
    (archivesum / "data/secret/02-mixed.ans").write_text("2000003\n")  # so the accepted solutions get WA
    (archivesum / "data/secret/03-empty.in").write_text("0\n\n")  # the input validator rejects it
    (archivesum / "data/secret/03-empty.ans").write_text("0\n")
    report = verify_package(archivesum, slot=VERIFY_SLOT)
    assert not report.ok
    failing = {step.number: {f.test for f in step.failures} for step in report.steps if step.failures}
    assert failing == {2: {"secret/03-empty"}, 6: {"accepted/sum.c", "accepted/sum.py"}}
    assert all("expected AC, got WA on secret/02-mixed" in f.reason for f in report.steps[5].failures)
    assert [step.number for step in report.skipped()] == CONVENTION_STEPS


def test_mutations_module_brings_the_audit_back(archivesum):
    (archivesum / "generators").mkdir()
    (archivesum / "generators/mutations.py").write_text(
        "def wrong_answers(input_text, answer_text):\n"
        "    return [('one more', str(int(answer_text) + 1) + '\\n')]\n\n"
        "def alternative_answers(input_text, answer_text):\n"
        "    return []\n"
    )
    report = verify_package(archivesum, slot=VERIFY_SLOT, run_submissions=False)
    assert [step.number for step in report.skipped()] == [3]
    assert report.steps[4].status == StepStatus.OK and report.steps[4].checked > 0


@pytest.mark.parametrize("package_id", OWN_PACKAGES)
def test_shipped_packages_follow_the_conventions(package_id):
    root = REPO / "problems" / package_id
    if not (root / "problem.yaml").is_file():
        pytest.skip(f"package {package_id} not written yet")
    assert follows_own_conventions(root)
    assert (root / "generators" / "mutations.py").is_file()  # so the audit runs with its own kinds


def test_package_of_the_conventions_runs_every_step(split_package):
    report = verify_package(split_package, slot=VERIFY_SLOT)
    assert report.ok, report.failures()
    assert report.skipped() == []
    assert set(statuses(report).values()) == {StepStatus.OK}


def test_package_with_our_test_plan_but_no_reference_fails(split_package):
    (split_package / "generators/tests.yaml").write_text("secret: []\n")
    (split_package / "submissions/accepted/reference.py").unlink()
    report = verify_package(split_package, slot=VERIFY_SLOT, run_submissions=False)
    assert "reference" in {f.test for f in report.steps[0].failures}
    assert report.steps[2].status == StepStatus.NOT_RUN
    assert report.skipped() == []


def test_run_time_error_folder_takes_a_memory_crash_and_ours_stays_exact():
    assert verdict_matches(Verdict.RTE, Verdict.MLE) and verdict_matches(Verdict.RTE, Verdict.RTE)
    assert not verdict_matches(Verdict.RTE, Verdict.TLE) and not verdict_matches(Verdict.MLE, Verdict.RTE)
    assert not verdict_matches(Verdict.WA, Verdict.MLE)
