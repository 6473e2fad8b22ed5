"""Validators in other languages, checked by our ``verify`` and by problemtools' ``verifyproblem``
with the same verdicts. Fixture packages (tests/fixtures/packages/, legacy format):

- ``cppchecker``: a C++ output validator that reads ``validator_flags`` (``min_part 1``), a Java
  input validator;
- ``ctdinput``: a checktestdata ``.ctd`` input validator under the legacy
  ``input_format_validators/``, the default output validator;
- ``buildrunvalidator``: an output validator folder with ``build`` and ``run`` scripts, a C input
  validator that reads ``input_validator_flags`` (``max_length 20``, from ``data/testdata.yaml``).

Each input validator must also reject a bad input (so a validator that accepts everything, or is
never run, fails here), and each output validator a wrong answer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.packages import load_package
from judge.verdicts import AC, WA
from judge.verify import verify_package
from tests.slots import WORK_ROOT, slot
from tests.validator_box import needs_root, validator_box_fixture
from tests.verify.test_problemtools import problemtools_config, verifyproblem  # noqa: F401 (a fixture)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "packages"
# package: (a bad input, a wrong answer to its sample)
PACKAGES = {
    "cppchecker": (b"1\n", b"0 5\n"),
    "ctdinput": (b"1 2000000\n", b"4\n"),
    "buildrunvalidator": (b"abcdefghijklmnopqrstu\n", b"judge\n"),
}
# steps that rely on our own conventions and are not the point here (a foreign package may lack them)
CONVENTION_STEPS = {"layout and problem.yaml"}


box = validator_box_fixture(73)


@needs_root
@pytest.mark.parametrize("package_id", sorted(PACKAGES))
def test_each_validator_accepts_the_package_and_rejects_a_bad_case(package_id, box, tmp_path):
    package = load_package(FIXTURES / package_id)
    assert package.input_validators, "the input validator was not found"
    bad_input, wrong_answer = PACKAGES[package_id]
    (tmp_path / "bad.in").write_bytes(bad_input)
    for program in package.input_validators:
        for test in package.tests:
            result = box.validators.validate_input(program, test.input_path, package.input_validator_flags)
            assert result.verdict == AC, (test.name, result)
        result = box.validators.validate_input(program, tmp_path / "bad.in", package.input_validator_flags)
        assert result.verdict == WA, result
    if package.output_validator is not None:
        sample = package.tests[0]
        (tmp_path / "team").write_bytes(wrong_answer)
        args = (sample.input_path, sample.answer_path)
        assert (
            box.validators.check(package.output_validator, *args, sample.answer_path, package.validator_flags).verdict
            == AC
        )
        assert (
            box.validators.check(package.output_validator, *args, tmp_path / "team", package.validator_flags).verdict
            == WA
        )


def test_flags_reach_the_validators():
    assert load_package(FIXTURES / "cppchecker").validator_flags == ("min_part", "1")
    assert load_package(FIXTURES / "buildrunvalidator").input_validator_flags == ("max_length", "20")


@needs_root
def test_a_broken_java_input_validator_fails_verify_with_the_compilers_message(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_WORK_DIR", str(WORK_ROOT / "fixtures-broken"))
    root = tmp_path / "cppchecker"
    shutil.copytree(FIXTURES / "cppchecker", root)
    (root / "input_validators" / "Validate.java").write_text("public class Validate { oops }\n")
    report = verify_package(root, slot=slot(74), run_submissions=False)
    inputs = report.steps[1]
    assert not inputs.ok
    assert all("Validate.java does not build" in f.reason for f in inputs.failures), inputs.failures
    assert any("error" in f.reason for f in inputs.failures)


@needs_root
@pytest.mark.parametrize("package_id", sorted(PACKAGES))
def test_our_verify_passes_every_validator_step(package_id, monkeypatch):
    monkeypatch.setenv("JUDGE_WORK_DIR", str(WORK_ROOT / f"fixtures-{package_id}"))
    report = verify_package(FIXTURES / package_id, slot=slot(74))
    for step in report.steps:
        if step.title not in CONVENTION_STEPS:
            assert step.ok, (step.title, step.failures)
    judged = "\n".join(report.steps[5].notes)
    assert "WA" in judged and "AC" in judged


@pytest.mark.parametrize("package_id", sorted(PACKAGES))
def test_problemtools_verifyproblem_passes(package_id, problemtools_config, tmp_path):  # noqa: F811 (the fixture)
    copy = tmp_path / package_id
    shutil.copytree(FIXTURES / package_id, copy, ignore=shutil.ignore_patterns("statement"))  # legacy: .tex only
    report, _ = verifyproblem(copy, problemtools_config, tmp_path)
    assert f"{package_id} tested: 0 errors" in report, report[-6000:]
