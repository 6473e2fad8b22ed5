"""Steps 3 and 4 on the judge answers: each ``.ans`` is byte for byte what the reference solver
prints for its input, and the checker accepts each ``.ans`` as a team output."""

from __future__ import annotations

from pathlib import Path

from judge.checkers import ValidatorRunner, check_output, inexact_integers
from judge.generate import reference_solver, solve_input
from judge.packages import PackageError, ProblemPackage, TestCase
from judge.verdicts import AC
from judge.verify.parallel import map_checks
from judge.verify.report import Progress, StepReport


def first_difference(expected: bytes, actual: bytes) -> str:
    """Where two outputs first differ, as ``line 3: '...' vs '...'`` (for a failure message)."""
    old, new = expected.split(b"\n"), actual.split(b"\n")
    for number, (a, b) in enumerate(zip(old, new), start=1):
        if a != b:
            return f"line {number}: .ans has {a[:40]!r}, the reference prints {b[:40]!r}"
    return f".ans has {len(old)} lines, the reference prints {len(new)}"


def compare_with_reference(solver: Path, test: TestCase) -> str | None:
    """None when the reference prints exactly ``test``'s ``.ans``, else the reason."""
    try:
        printed = solve_input(solver, test.input_path)
    except PackageError as exc:
        return str(exc)
    stored = test.answer_path.read_bytes()
    return None if printed == stored else first_difference(stored, printed)


def check_reference_answers(package: ProblemPackage, step: StepReport, progress: Progress) -> None:
    """Step 3: run the reference on every input and compare with the stored ``.ans``."""
    solver = reference_solver(package.root)
    progress.begin(step.title, len(package.tests))
    reasons = map_checks(lambda test: compare_with_reference(solver, test), package.tests, progress)
    step.checked = len(package.tests)
    for test, reason in zip(package.tests, reasons):
        if reason is not None:
            step.fail(test.name, f"{reason} (run `judge problem generate`)")


def check_answers_accepted(
    package: ProblemPackage, step: StepReport, progress: Progress, run_validator: ValidatorRunner
) -> None:
    """Step 4: the checker accepts every ``.ans`` as the team output (its output validator run by
    ``run_validator``).

    With the default checker and a float tolerance, also warns about each ``.ans`` holding integers
    beyond 2^53, which the tolerance compares as doubles, not exactly (``inexact_integers``).
    """
    progress.begin(step.title, len(package.tests))
    results = map_checks(
        lambda test: check_output(package, test, test.answer_path, run_validator), package.tests, progress
    )
    step.checked = len(package.tests)
    for test, result in zip(package.tests, results):
        if result.verdict != AC:
            step.fail(test.name, f"checker gave {result.verdict} on the judge answer: {result.message}")
    if package.output_validator is None:
        for test in package.tests:
            inexact = inexact_integers(test.answer_path.read_bytes(), package.validator_flags)
            if inexact:
                step.warnings.append(
                    f"{test.name}: {len(inexact)} integer(s) beyond 2^53 (first {inexact[0][:30]}) are compared as "
                    "floats by the float tolerance, so a nearby wrong integer is accepted"
                )
