"""``judge problem verify``: prove a problem package right before a class sees it.

Seven steps, one module each (modelled on problemtools' ``verifyproblem``):

1. ``layout``         problem.yaml and the package layout
2. ``inputs``         every input passes the input validator
3. ``answers``        every ``.ans`` is byte for byte the reference solver's output
4. ``answers``        the checker accepts every ``.ans``
5. ``checker_audit``  wrong answers rejected, other valid answers accepted
6. ``submissions``    every submission gets its folder's verdict in the real sandbox
7. ``submissions``    the slowest accepted run against the time limit

Steps 3 and 5 check conventions of this judge (a reference solver, ``generators/mutations.py``):
a package from elsewhere (a contest archive in the Kattis format) that lacks them has them
*skipped* with a note, and passes on the other five steps. A package that follows the conventions
(``layout.follows_own_conventions``) runs all seven.

``verify_package`` returns a PackageReport; ``summary`` renders it with rich.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from judge.config import load_settings
from judge.packages import ProblemPackage
from judge.validators import ValidatorBox
from judge.verify.answers import check_answers_accepted, check_reference_answers
from judge.verify.checker_audit import MUTATIONS, check_audit
from judge.verify.inputs import check_inputs
from judge.verify.layout import check_layout, follows_own_conventions
from judge.verify.report import NoProgress, PackageReport, Progress, StepReport
from judge.verify.submissions import DEFAULT_SLOT, check_submissions, check_timing
from sandbox import SandboxError

STEP_TITLES = (
    "layout and problem.yaml",
    "inputs pass the input validator",
    ".ans equal the reference output",
    "checker accepts every .ans",
    "checker audit",
    "submissions get their verdicts",
    "slowest accepted run",
)


def find_packages(problems_dir: Path) -> list[Path]:
    """Package folders (those holding a ``problem.yaml``) directly in ``problems_dir``, sorted."""
    return sorted(p for p in Path(problems_dir).iterdir() if (p / "problem.yaml").is_file())


def _run_step(step: StepReport, action: Callable[[], None]) -> None:
    """Run one step; a crash of the verifier itself becomes a failure of that step, so the
    other steps still run and the package never passes by accident."""
    try:
        action()
    except Exception as exc:
        step.fail("verifier", f"step crashed: {type(exc).__name__}: {exc}")


def _check_with_validators(
    package: ProblemPackage, steps: list[StepReport], progress: Progress, slot: int, own: bool
) -> None:
    """Steps 2, 4 and 5, whose validators run in the sandbox (``judge.validators.ValidatorBox``
    on ``slot``, free until step 6 opens it). A validator that does not build fails the step
    that needs it, with the build's message. ``own``: the package follows this judge's conventions
    (``follows_own_conventions``); else the checker audit runs only with ``generators/mutations.py``."""
    work = load_settings().work_dir
    try:
        box = ValidatorBox(slot, work / f"verify-validators-{slot}", work / "validators")
    except SandboxError as exc:
        for step in steps[1], steps[3], steps[4]:
            step.fail("sandbox", f"cannot run validators in sandbox slot {slot}: {exc}")
        return
    with box:
        if not package.input_validators:
            steps[1].not_run = "no input validator"
        else:
            _run_step(steps[1], lambda: check_inputs(package, steps[1], progress, box.validators))
        if package.interactive:
            steps[3].skipped = steps[4].skipped = "interactive problem: the interactor judges a conversation"
            return
        _run_step(steps[3], lambda: check_answers_accepted(package, steps[3], progress, box.validators.check))
        if not own and not (package.root / MUTATIONS).is_file():
            steps[4].skipped = f"no {MUTATIONS} and no reference solver: the audit checks this judge's conventions"
        else:
            _run_step(steps[4], lambda: check_audit(package, steps[4], progress, box.validators.check))


def verify_package(
    root: Path | str, *, slot: int = DEFAULT_SLOT, progress: Progress | None = None, run_submissions: bool = True
) -> PackageReport:
    """Run the seven steps on the package in folder ``root``.

    slot: the sandbox slot for step 6 (50+ keeps clear of servers and the test suite);
    run_submissions: False leaves steps 6 and 7 out (marked not run, so the package does not pass).
    Never raises for a broken package: every problem is a failure in the report.
    """
    progress = progress or NoProgress()
    root = Path(root)
    report = PackageReport(root.name)
    steps = [StepReport(number, title) for number, title in enumerate(STEP_TITLES, start=1)]
    report.steps = steps
    package: ProblemPackage | None = None

    def load() -> None:
        nonlocal package
        package = check_layout(root, steps[0])

    _run_step(steps[0], load)
    if package is None:
        for step in steps[1:]:
            step.not_run = "the package could not be loaded"
        return report
    own = follows_own_conventions(package.root)
    if package.interactive:
        steps[2].skipped = "interactive problem: its .ans is for the interactor, not an output"
    elif not own:
        steps[2].skipped = "no reference solver (this judge's convention): the .ans files are the package's own"
    elif any(f.test == "reference" for f in steps[0].failures):
        steps[2].not_run = "no reference solver"
    else:
        _run_step(steps[2], lambda: check_reference_answers(package, steps[2], progress))
    _check_with_validators(package, steps, progress, slot, own)
    if not run_submissions:
        steps[5].not_run = steps[6].not_run = "submissions not run (--no-submissions)"
        return report
    judged = []
    timed = [package]  # the package with its time limit derived, when it gave none

    def judge_all() -> None:
        found, timed[0] = check_submissions(package, steps[5], progress, slot)
        judged.extend(found)

    _run_step(steps[5], judge_all)
    _run_step(steps[6], lambda: check_timing(timed[0], judged, steps[6]))
    return report
