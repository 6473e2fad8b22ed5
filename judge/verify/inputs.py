"""Step 2: every test input passes every input validator (Kattis interface: ``validator [flags] <
test.in`` exits 42 for a valid input, 43 with a reason for an invalid one), each run in the
sandbox by ``judge.validators``."""

from __future__ import annotations

from judge.packages import ProblemPackage, TestCase
from judge.validators import SandboxedValidators
from judge.verdicts import AC, WA
from judge.verify.parallel import map_checks
from judge.verify.report import Progress, StepReport


def validate_input(package: ProblemPackage, test: TestCase, validators: SandboxedValidators) -> str | None:
    """Run each input validator of ``package`` on ``test``; None when all accept, else the first
    reason (one line, naming the validator). Raises ValueError for a package without one."""
    if not package.input_validators:  # verify skips this step then (the layout step reports it)
        raise ValueError(f"package {package.id} has no input validator")
    for program in package.input_validators:
        result = validators.validate_input(
            program, test.input_path, test.input_validator_flags or package.input_validator_flags
        )
        if result.verdict == WA:
            return f"{program.name} exited 43 (invalid input): {result.message or '(no message)'}"
        if result.verdict != AC:
            return f"{program.name}: {result.message}"
    return None


def check_inputs(
    package: ProblemPackage, step: StepReport, progress: Progress, validators: SandboxedValidators
) -> None:
    """Validate every input of ``package`` (samples and secret), recording a failure per bad one."""
    progress.begin(step.title, len(package.tests))
    reasons = map_checks(lambda test: validate_input(package, test, validators), package.tests, progress)
    step.checked = len(package.tests)
    for test, reason in zip(package.tests, reasons):
        if reason is not None:
            step.fail(test.name, reason)
