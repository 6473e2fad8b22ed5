"""Steps 6 and 7: every submission gets the verdict of its folder in the real sandbox, and the
slowest accepted run is compared with the time limit.

As problemtools' verifier does (Kattis), a submission in ``submissions/<verdict folder>/`` must end
with that verdict: its first non-AC test decides, so judging stops there (a TLE submission costs one
time limit, not one per test). On a scoring problem every test runs, an ``accepted`` submission
must earn the full score and a ``partially_accepted`` one AC with less. A submission is a file, or
a folder of files judged as one program (its language and main file as the format's language
list decides them: ``judge.languages.detect_program``). Submissions run one after another in one
sandbox slot. A program in a language this judge does not have (Python 2 among them) is not
judged and is named in a warning, as problemtools passes over programs of languages it does not
know. A submission that misses its folder's verdict because a test ran out of time is judged once
more under the time limit × ``Timing.limit_to_tle`` (legacy ``time_safety_margin``) and passes
when that judging gets the verdict, as problemtools' verifier accepts either limit ("OK with extra
time").

A package with no time limit (no ``limits.time_limit``, no ``.timelimit``) gets one here, as
problemtools derives it: the accepted submissions run first under ``NO_TIME_LIMIT_MS``, the limit
is the slowest accepted test × the format's multiplier, rounded up to its time resolution
(``Timing.limit_ms``), written to the package's ``.timelimit``, and the other submissions run
under it.

The format's ``run_time_error/`` folder means "crashes for some test case" and the format has no
folder for memory: a program killed at its memory limit crashes in its words (Kattis and
problemtools report it as a run-time error), so MLE also matches ``run_time_error/``. Our own
``memory_limit_exceeded/`` folder still demands MLE.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from judge.config import load_settings
from judge.judging import JudgingOutcome, judge_submission
from judge.languages import NoLanguage, Program, detect_program
from judge.package.metadata import LEGACY
from judge.packages import TIMELIMIT_FILE, PackageError, ProblemPackage
from judge.verdicts import AC
from judge.verify.layout import VERDICT_FOLDERS, submission_files
from judge.verify.report import Progress, StepReport
from judge.vocabulary import Verdict
from sandbox import Sandbox, SandboxError
from sandbox.tree import walk_files

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
    extra_time_ms: int | None = None  # judged again under this longer limit, which gave ``outcome``


def all_submissions(package: ProblemPackage) -> list[tuple[Path, str]]:
    """(file, expected verdict) of every submission in a known verdict folder, folder by folder."""
    found: list[tuple[Path, str]] = []
    for folder, verdict in VERDICT_FOLDERS.items():
        found += [(path, verdict) for path in submission_files(package.root / "submissions" / folder)]
    return found


def read_submission(path: Path) -> dict[str, str]:
    """The files of submission ``path`` as {relative name: text}: the file itself under its name,
    or every regular file of a folder (sub-folders included, ``/``-separated, hidden files and
    folders and links left out). Raises UnicodeDecodeError for a file that is not UTF-8 text."""
    if not path.is_dir():
        return {path.name: path.read_text(encoding="utf-8")}
    found = sorted(walk_files(path))
    return {name: (path / name).read_text(encoding="utf-8") for name in found if not _hidden(name)}


def submission_program(package: ProblemPackage, path: Path) -> Program:
    """Submission ``path`` of ``package`` (a file or a folder, ``read_submission``) as one program:
    its language and main file as ``detect_program`` decides them for the package's format version.
    Raises NoLanguage (no language of this judge; Python 2) or UnicodeDecodeError (not UTF-8)."""
    legacy = package.metadata is None or package.metadata.version == LEGACY
    return detect_program(read_submission(path), legacy)


def _hidden(name: str) -> bool:
    return any(part.startswith(".") for part in name.split("/"))


def judge_one(box: Sandbox, package: ProblemPackage, path: Path, expected: str, work: Path) -> JudgedSubmission:
    """Judge submission ``path`` of ``package`` (a file, or a folder of files judged as one
    program: its language and main file as ``judge.languages.detect_program`` decides them),
    stopping at its first non-AC test."""
    name = f"{path.parent.name}/{path.name}"
    try:
        program = submission_program(package, path)
    except UnicodeDecodeError:
        return JudgedSubmission(name, expected, None, "not UTF-8 text")
    except NoLanguage as exc:
        return JudgedSubmission(name, expected, None, f"not judged: {exc} (judge/languages.py)", unsupported=True)
    outcome = judge_submission(
        box, package, program.language, program.source, work, stop_on_failure=True, others=program.others
    )
    return JudgedSubmission(name, expected, outcome)


def describe(judged: JudgedSubmission) -> str:
    """Why a submission did not get its expected verdict, in one line."""
    outcome = judged.outcome
    if outcome is None:
        return judged.problem
    if outcome.verdict == judged.expected:
        wanted = "less than the full score" if judged.name.startswith("partially_accepted/") else "the full score"
        return f"expected {judged.expected} with {wanted}, got {_score(outcome)[2:] or 'no score'}"
    where = next((t for t in outcome.tests if t.verdict != AC), None)
    detail = f" on {where.test.name}: {where.message}" if where else ""
    if not detail and outcome.compile_message:
        detail = f": {outcome.compile_message.strip().splitlines()[0][:200]}"
    return f"expected {judged.expected}, got {outcome.verdict}{detail}"


def derive_time_limit(package: ProblemPackage, judged: list[JudgedSubmission]) -> ProblemPackage | None:
    """``package`` with the time limit its accepted judgings give (``Timing.limit_ms`` of the slowest
    test of any AC in ``accepted/``), written to ``.timelimit``; None when none was accepted."""
    runs = [
        test.time_ms
        for item in judged
        if item.name.startswith("accepted/") and item.outcome is not None and item.outcome.verdict == AC
        for test in item.outcome.tests
    ]
    if not runs:
        return None
    limit_ms = package.timing.limit_ms(max(runs))
    (package.root / TIMELIMIT_FILE).write_text(f"{limit_ms / 1000:g}\n", encoding="utf-8")
    return replace(package, time_limit_ms=limit_ms, time_limit_source=TIMELIMIT_FILE)


def time_limit_from_accepted(package: ProblemPackage, slot: int | None = None) -> ProblemPackage:
    """``derive_time_limit`` for ``judge problem load``: judge ``submissions/accepted`` in sandbox
    slot ``slot`` (None: ``DEFAULT_SLOT``). Raises PackageError when there is no accepted run or no
    sandbox."""
    slot = DEFAULT_SLOT if slot is None else slot
    accepted = [(p, v) for p, v in all_submissions(package) if p.parent.name == "accepted"]
    if not accepted:
        raise PackageError(
            f"{package.root}: no time limit (limits.time_limit or .timelimit) and no accepted submission to derive it"
        )
    work = load_settings().work_dir / f"verify-slot-{slot}"
    try:
        with Sandbox(slot=slot) as box:
            judged = [judge_one(box, package, path, expected, work) for path, expected in accepted]
    except SandboxError as exc:
        raise PackageError(f"{package.root}: no time limit, and no sandbox to derive it: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    derived = derive_time_limit(package, judged)
    if derived is None:
        raise PackageError(
            f"{package.root}: no time limit (limits.time_limit or .timelimit) and no accepted submission to derive it"
        )
    return derived


def full_score(package: ProblemPackage, outcome: JudgingOutcome) -> bool:
    """Whether a judging earned the package's full score (always, for a pass-fail problem)."""
    if not package.scoring or outcome.max_score is None:
        return True
    return outcome.score is not None and outcome.score >= outcome.max_score - 1e-9


def _as_expected(package: ProblemPackage, item: JudgedSubmission) -> bool:
    outcome = item.outcome
    if outcome is None or not verdict_matches(item.expected, outcome.verdict):
        return False
    folder = item.name.split("/")[0]
    if folder == "partially_accepted":
        return package.scoring and not full_score(package, outcome)
    return folder != "accepted" or full_score(package, outcome)


def check_submissions(
    package: ProblemPackage, step: StepReport, progress: Progress, slot: int = DEFAULT_SLOT
) -> tuple[list[JudgedSubmission], ProblemPackage]:
    """Judge every submission of ``package`` in sandbox slot ``slot``; a failure for each one whose
    verdict (and score) is not its folder's. Returns the judgings (for step 7) and the package,
    with its derived time limit when it had none."""
    submissions = all_submissions(package)
    progress.begin(step.title, len(submissions))
    work = load_settings().work_dir / f"verify-slot-{slot}"
    judged: list[JudgedSubmission] = []
    try:
        with Sandbox(slot=slot) as box:
            if not package.time_limit_source:
                first = [(p, v) for p, v in submissions if p.parent.name == "accepted"]
                submissions = [s for s in submissions if s not in first]
                for path, expected in first:
                    judged.append(judge_one(box, package, path, expected, work))
                    progress.advance()
                derived = derive_time_limit(package, judged)
                if derived is None:
                    step.fail("time limit", "no time limit given and no accepted run to derive it from")
                else:
                    package = derived
                    step.notes.append(f"time limit derived from the slowest accepted run: {package.time_limit_ms} ms")
            for path, expected in submissions:
                item = judge_one(box, package, path, expected, work)
                judged.append(with_extra_time(box, package, item, path, work))
                progress.advance()
    except SandboxError as exc:
        step.fail("sandbox", f"cannot judge in sandbox slot {slot}: {exc}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    step.checked = sum(not item.unsupported for item in judged)
    for item in judged:
        if item.unsupported:
            step.warnings.append(f"{item.name}: {item.problem}")
        elif item.outcome is None or not _as_expected(package, item):
            step.fail(item.name, describe(item))
        else:
            outcome = item.outcome
            extra = f" (with extra time: {item.extra_time_ms} ms)" if item.extra_time_ms else ""
            step.notes.append(
                f"{item.name}: {outcome.verdict}{decided_on(outcome)}{_score(outcome, package.scoring)}{extra}"
            )
    return judged, package


def with_extra_time(
    box: Sandbox, package: ProblemPackage, item: JudgedSubmission, path: Path, work: Path
) -> JudgedSubmission:
    """``item``, or, when it did not get its folder's verdict and some test ran out of time, the
    submission judged again under the time limit × ``Timing.limit_to_tle`` if that judging does
    get it. problemtools' verifier does the same ("OK with extra time"): a submission passes when
    either limit gives its folder's verdict, so a run near the limit does not decide a package."""
    outcome = item.outcome
    if outcome is None or _as_expected(package, item) or not any(t.verdict == Verdict.TLE for t in outcome.tests):
        return item
    high_ms = int(round(package.time_limit_ms * package.timing.limit_to_tle))
    if high_ms <= package.time_limit_ms:
        return item
    again = judge_one(box, replace(package, time_limit_ms=high_ms), path, item.expected, work)
    if again.outcome is None or not _as_expected(package, again):
        return item
    return replace(again, extra_time_ms=high_ms)


def _score(outcome: JudgingOutcome | None, scoring: bool = True) -> str:
    if not scoring or outcome is None or outcome.score is None or outcome.max_score is None:
        return ""
    return f", score {outcome.score:g} of {outcome.max_score:g}"


def decided_on(outcome: JudgingOutcome) -> str:
    """`` on <test>`` for the test that decided a non-AC verdict, else empty."""
    where = next((t for t in outcome.tests if t.verdict != AC), None) if outcome.verdict != AC else None
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
