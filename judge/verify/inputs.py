"""Step 2: every test input passes the input validator (Kattis interface: ``validate.py < test.in``
exits 42 for a valid input, 43 with a reason on stderr for an invalid one)."""

from __future__ import annotations

import subprocess
import sys

from judge.packages import ProblemPackage, TestCase
from judge.verify.parallel import map_checks
from judge.verify.report import Progress, StepReport

VALID_EXIT = 42
VALIDATOR_TIMEOUT_S = 60


def validate_input(package: ProblemPackage, test: TestCase) -> str | None:
    """Run the input validator on ``test``; None when it exits 42, else the reason (one line).

    Raises ValueError for a package without an input validator.
    """
    validator = package.input_validator
    if validator is None:  # verify skips this step then (the layout step reports it)
        raise ValueError(f"package {package.id} has no input validator")
    with open(test.input_path, "rb") as data:
        try:
            proc = subprocess.run(
                [sys.executable, "-S", str(validator)],
                stdin=data,
                capture_output=True,
                cwd=validator.parent,
                timeout=VALIDATOR_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return f"input validator ran over {VALIDATOR_TIMEOUT_S} s"
    if proc.returncode == VALID_EXIT:
        return None
    said = proc.stderr.decode(errors="replace").strip().splitlines()
    return f"input validator exited {proc.returncode}: {said[-1] if said else '(no message)'}"


def check_inputs(package: ProblemPackage, step: StepReport, progress: Progress) -> None:
    """Validate every input of ``package`` (samples and secret), recording a failure per bad one."""
    progress.begin(step.title, len(package.tests))
    reasons = map_checks(lambda test: validate_input(package, test), package.tests, progress)
    step.checked = len(package.tests)
    for test, reason in zip(package.tests, reasons):
        if reason is not None:
            step.fail(test.name, reason)
