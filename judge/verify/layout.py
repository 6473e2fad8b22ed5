"""Step 1: ``problem.yaml`` and the package layout (Kattis problem package format, with this
judge's conventions of docs/conventions.md for the packages that follow them)."""

from __future__ import annotations

from pathlib import Path

from judge.generate import reference_solver
from judge.packages import PackageError, ProblemPackage, load_package
from judge.testplan import PLAN
from judge.verify.report import StepReport
from judge.vocabulary import Verdict

# Submission folders and the verdict every submission in them must get (Kattis / problemtools names).
VERDICT_FOLDERS = {
    "accepted": Verdict.AC,
    "partially_accepted": Verdict.AC,  # scoring problems: AC with less than the full score
    "wrong_answer": Verdict.WA,
    "time_limit_exceeded": Verdict.TLE,
    "run_time_error": Verdict.RTE,
    "memory_limit_exceeded": Verdict.MLE,
    "output_limit_exceeded": Verdict.OLE,
    "compile_error": Verdict.CE,
}


def follows_own_conventions(root: Path) -> bool:
    """True when the package in ``root`` is written to this judge's conventions (docs/conventions.md):
    it has a reference solver (``judge.generate.reference_solver``) or a test plan
    ``generators/tests.yaml`` (``judge.testplan``). Such a package must pass every step; any other package (one from a
    contest archive) has the steps that check those conventions skipped."""
    try:
        reference_solver(root)
    except PackageError:
        return (root / PLAN).is_file()
    return True


def check_layout(root: Path, step: StepReport) -> ProblemPackage | None:
    """Load the package in ``root`` and check what the later steps need.

    Records a failure for: an unreadable ``problem.yaml`` or package (PackageError), no English
    statement, an empty ``data/secret``, no input validator, an empty ``submissions/accepted``; and
    for a package that follows this judge's conventions (``follows_own_conventions``) also for an
    empty ``data/sample``, no reference solver, and a folder of ``submissions/`` that is not a
    verdict folder. For any other package those are warnings, as they are for problemtools (samples
    are optional in the format, and 2023-07 packages may name submission folders of their own).
    With ``validation: default`` the package needs no output validator program.
    Returns the package, or None when it cannot be loaded at all.
    """
    try:
        package = load_package(root)
    except PackageError as exc:
        step.fail("problem.yaml", str(exc))
        return None
    step.checked = 1
    step.warnings.extend(package.warnings)  # keys and files the package gives that the judge does not read
    own = follows_own_conventions(package.root)

    def convention(test: str, reason: str) -> None:
        """A failure for a package of this judge's conventions, a warning for any other."""
        if own:
            step.fail(test, reason)
        else:
            step.warnings.append(f"{test}: {reason}")

    statement = package.statements.get("en")
    if statement is None or not statement.read_text(encoding="utf-8").strip():
        step.fail("statement", "no English statement, or an empty one")
    if not any(test.sample for test in package.tests):
        convention("data/sample", "data/sample has no test case (.in with .ans)")
    if not any(test.name.startswith("secret/") for test in package.tests):
        step.fail("data/secret", "data/secret has no test case (.in with .ans)")
    if package.input_validator is None:
        step.fail("input_validators", "no input validator program")
    if package.validation == "custom" and package.output_validator is None:
        step.fail("output_validators", "validation is custom, but there is no output validator program")
    if own:
        try:
            reference_solver(package.root)
        except PackageError as exc:
            step.fail("reference", str(exc))
    submissions = package.root / "submissions"
    if not any(submission_files(submissions / "accepted")):
        step.fail("submissions/accepted", "no accepted submission")
    for folder in sorted(p for p in submissions.iterdir() if p.is_dir()) if submissions.is_dir() else []:
        if folder.name not in VERDICT_FOLDERS:
            known = ", ".join(VERDICT_FOLDERS)
            convention(f"submissions/{folder.name}", f"not a verdict folder, not judged; the folders: {known}")
    return package


def submission_files(folder: Path) -> list[Path]:
    """The submission files of one verdict folder, sorted (hidden files left out)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))
