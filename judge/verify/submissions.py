"""Steps 6 and 7: every submission gets the verdict of its folder in the real sandbox, and the
slowest accepted run is compared with the time limit.

As problemtools' verifier does (Kattis), a submission in ``submissions/<verdict folder>/`` must end
with that verdict: its first non-AC test decides, so judging stops there (a TLE submission costs one
time limit, not one per test). Submissions run one after another in one sandbox slot. A file in a
language this judge does not have (by extension, ``judge.languages``), or a folder, is not judged and
is named in a warning, as problemtools passes over programs of languages it does not know.

The format's ``run_time_error/`` folder means "crashes for some test case" and the format has no
folder for memory: a program killed at its memory limit crashes in its words (Kattis and
problemtools report it as a run-time error), so MLE also matches ``run_time_error/``. Our own
``memory_limit_exceeded/`` folder still demands MLE.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from judge.config import load_settings
from judge.judging import JudgingOutcome, judge_submission
from judge.languages import language_for_file
from judge.packages import ProblemPackage
from judge.verdicts import AC
from judge.verify.layout import VERDICT_FOLDERS, submission_files
from judge.verify.report import Progress, StepReport
from judge.vocabulary import Verdict
from sandbox import Sandbox, SandboxError

# Verdicts a folder accepts besides its own (see the module): the format's words for the folder.
ALSO_MATCHES = {Verdict.RTE: frozenset({Verdict.MLE})}


def verdict_matches(expected: str, got: str) -> bool:
    """True when a submission of the folder expecting ``expected`` may end with verdict ``got``."""
    return got == expected or got in ALSO_MATCHES.get(Verdict(expected), frozenset())


# Sandbox slots 50 and up: apart from a running server's workers (0 …) and the test suite's (40 …).
DEFAULT_SLOT = 50
SLOW_FRACTION = 0.5  # warn when an accepted run takes more than this share of the time limit


@dataclass(frozen=True)
class JudgedSubmission:
    """One submission's judging: ``name`` like ``accepted/bfs.cpp``, the verdict its folder
    expects, and the outcome (None when it could not be judged; ``problem`` says why;
    ``unsupported``: not a single file in a language of this judge, so not judged at all)."""

    name: str
    expected: str
    outcome: JudgingOutcome | None
    problem: str = ""
    unsupported: bool = False


def all_submissions(package: ProblemPackage) -> list[tuple[Path, str]]:
    """(file, expected verdict) of every submission in a known verdict folder, folder by folder."""
    found: list[tuple[Path, str]] = []
    for folder, verdict in VERDICT_FOLDERS.items():
        found += [(path, verdict) for path in submission_files(package.root / "submissions" / folder)]
    return found


def judge_one(box: Sandbox, package: ProblemPackage, path: Path, expected: str, work: Path) -> JudgedSubmission:
    """Judge the submission file ``path`` of ``package``, stopping at its first non-AC test."""
    name = f"{path.parent.name}/{path.name}"
    language = language_for_file(path.name) if path.is_file() else None
    if language is None:
        what = "a folder" if path.is_dir() else f"no language of this judge has the extension of {path.name}"
        return JudgedSubmission(name, expected, None, f"not judged: {what} (judge/languages.py)", unsupported=True)
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return JudgedSubmission(name, expected, None, "not UTF-8 text")
    outcome = judge_submission(box, package, language, source, work, stop_on_failure=True)
    return JudgedSubmission(name, expected, outcome)


def describe(judged: JudgedSubmission) -> str:
    """Why a submission did not get its expected verdict, in one line."""
    outcome = judged.outcome
    if outcome is None:
        return judged.problem
    where = next((t for t in outcome.tests if t.verdict != AC), None)
    detail = f" on {where.test.name}: {where.message}" if where else ""
    if not detail and outcome.compile_message:
        detail = f": {outcome.compile_message.strip().splitlines()[0][:200]}"
    return f"expected {judged.expected}, got {outcome.verdict}{detail}"


def check_submissions(
    package: ProblemPackage, step: StepReport, progress: Progress, slot: int = DEFAULT_SLOT
) -> list[JudgedSubmission]:
    """Judge every submission of ``package`` in sandbox slot ``slot``; a failure for each one whose
    verdict is not its folder's. Returns the judgings (for step 7)."""
    submissions = all_submissions(package)
    progress.begin(step.title, len(submissions))
    work = load_settings().work_dir / f"verify-slot-{slot}"
    judged: list[JudgedSubmission] = []
    try:
        with Sandbox(slot=slot) as box:
            for path, expected in submissions:
                judged.append(judge_one(box, package, path, expected, work))
                progress.advance()
    except SandboxError as exc:
        step.fail("sandbox", f"cannot judge in sandbox slot {slot}: {exc}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    step.checked = sum(not item.unsupported for item in judged)
    for item in judged:
        if item.unsupported:
            step.warnings.append(f"{item.name}: {item.problem}")
        elif item.outcome is None or not verdict_matches(item.expected, item.outcome.verdict):
            step.fail(item.name, describe(item))
        else:
            step.notes.append(f"{item.name}: {item.outcome.verdict}{decided_on(item.outcome)}")
    return judged


def decided_on(outcome: JudgingOutcome) -> str:
    """`` on <test>`` for the test that decided a non-AC verdict, else empty."""
    where = next((t for t in outcome.tests if t.verdict != AC), None)
    return f" on {where.test.name}" if where else ""


def check_timing(package: ProblemPackage, judged: list[JudgedSubmission], step: StepReport) -> None:
    """Step 7: report the slowest test of any accepted submission against the time limit; warn
    when it is above ``SLOW_FRACTION`` of the limit (too little margin for a slower language)."""
    runs = [
        (test.time_ms, item.name, test.test.name)
        for item in judged
        if item.expected == AC and item.outcome is not None
        for test in item.outcome.tests
    ]
    step.checked = len(runs)
    if not runs:
        step.not_run = "no accepted run to time"
        return
    time_ms, name, test = max(runs)
    limit = package.time_limit_ms
    step.notes.append(
        f"slowest accepted run: {name} on {test}, {time_ms} ms CPU of the {limit} ms limit "
        f"({100 * time_ms / limit:.0f}%)"
    )
    if time_ms > SLOW_FRACTION * limit:
        step.warnings.append(f"{name} uses {time_ms} ms on {test}: more than half of the {limit} ms limit")
