"""Step 1: ``problem.yaml`` and the package layout (Kattis problem package format, with this
judge's conventions of docs/conventions.md)."""

from __future__ import annotations

from pathlib import Path

from judge.generate import reference_solver
from judge.packages import PackageError, ProblemPackage, load_package
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


def check_layout(root: Path, step: StepReport) -> ProblemPackage | None:
    """Load the package in ``root`` and check what the later steps need.

    Records a failure for: an unreadable ``problem.yaml`` or package (PackageError), no English
    statement, an empty ``data/sample`` or ``data/secret``, a missing input validator, a missing output validator
    with ``validation: custom`` (``default`` uses the default checker),
    no reference solver, an empty ``submissions/accepted``, an unknown folder in ``submissions/``.
    Returns the package, or None when it cannot be loaded at all.
    """
    try:
        package = load_package(root)
    except PackageError as exc:
        step.fail("problem.yaml", str(exc))
        return None
    step.checked = 1
    step.warnings.extend(package.warnings)  # keys and files the package gives that the judge does not read
    statement = package.statements.get("en")
    if statement is None or not statement.read_text(encoding="utf-8").strip():
        step.fail("statement", "statement/problem.en.md is missing or empty")
    for group in ("sample", "secret"):
        if not any(test.name.startswith(f"{group}/") for test in package.tests):
            step.fail(f"data/{group}", f"data/{group} has no test case (.in with .ans)")
    if package.input_validator is None:
        step.fail("input_validators", "no input validator program")
    if package.output_validator is None and package.validation != "default":
        step.fail("output_validators", "no output validator program (set validation: custom)")
    try:
        reference_solver(package.root)
    except PackageError as exc:
        step.fail("reference", str(exc))
    submissions = package.root / "submissions"
    if not any(submission_files(submissions / "accepted")):
        step.fail("submissions/accepted", "no accepted submission")
    for folder in sorted(p for p in submissions.iterdir() if p.is_dir()) if submissions.is_dir() else []:
        if folder.name not in VERDICT_FOLDERS:
            step.fail(f"submissions/{folder.name}", f"unknown verdict folder; use one of {', '.join(VERDICT_FOLDERS)}")
    return package


def submission_files(folder: Path) -> list[Path]:
    """The submission files of one verdict folder, sorted (hidden files left out)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))
