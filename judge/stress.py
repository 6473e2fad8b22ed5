"""``judge problem stress``: find the smallest input on which a submission fails.

Modelled on Polygon's stress tests and BAPCtools' ``fuzz``: random inputs from the package's own
generator (the test plan's ``stress`` entry: ``generator ARGS... --size S --seed N``), sizes growing
from 1; each input passes the input validator, the reference solver writes the judge answer, and the
submission runs in the sandbox and is checked by the package's checker, exactly as ``judge problem
verify`` judges (``judge.judging``: one sandbox session, compiled once). On the first failure the
input is shrunk while it still fails:

1. re-generated with sizes 1, 2, ... (``SEEDS_PER_SIZE`` seeds each) up to the first size with a
   failing input, keeping the shortest failing one (in bytes);
2. generic: deleting one line, then one whitespace-separated token, keeping each deletion that the
   input validator accepts and on which the submission still fails, until none helps.

Reproducible: case ``i`` uses the size ``size_for(i)`` and a seed drawn from ``random.Random(seed)``;
shrinking tries at most ``MAX_SHRINK_RUNS`` candidates in a fixed order. The time budget bounds only
the search for a first failure (fewer cases on a slower machine, never other ones).
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from judge.config import load_settings
from judge.generate import reference_solver, solve_input
from judge.judging import compile_source, open_session, run_test
from judge.languages import Language, language_for_file
from judge.packages import PackageError, ProblemPackage, TestCase, load_package
from judge.testplan import StressPlan, read_plan, run_generator
from judge.validators import SandboxedValidators
from judge.verdicts import AC
from judge.verify.inputs import validate_input
from sandbox import Sandbox
from sandbox.session import Session

CASES_PER_SIZE = 3  # random cases tried at each size before the size grows by one
SEEDS_PER_SIZE = 16  # re-generations tried at each size while shrinking
MAX_SHRINK_RUNS = 400  # candidates judged while shrinking, at most


@dataclass(frozen=True)
class Failure:
    """One failing input: the input bytes, the reference's output (``expected``), the submission's
    output (``received``), its verdict and the checker's (or the sandbox's) message; ``size`` and
    ``seed`` of the generator run it came from (the shrunk input may be smaller still)."""

    input: bytes
    expected: bytes
    received: bytes
    verdict: str
    message: str
    size: int
    seed: int


@dataclass
class StressResult:
    """What a stress run found: ``cases`` random inputs judged, the first failure as found and the
    smallest failing input after shrinking (both None when every case passed), ``shrink_runs``
    candidates judged while shrinking."""

    cases: int = 0
    found: Failure | None = None
    smallest: Failure | None = None
    shrink_runs: int = 0


def size_for(case: int, max_size: int) -> int:
    """The generator size of random case ``case`` (0-based): 1, 1, 1, 2, 2, 2, ... up to ``max_size``."""
    return min(max_size, 1 + case // CASES_PER_SIZE)


class Judge:
    """Runs candidate inputs through validator, reference and the submission in one sandbox session.

    ``verdict_of(data)`` returns None when the input is invalid or the reference fails on it (not a
    usable test), else a Failure-shaped record whose verdict may be AC.
    """

    def __init__(self, package: ProblemPackage, session: Session, language: Language, source: str, folder: Path):
        self.package, self.session, self.language, self.source = package, session, language, source
        self.folder = folder
        self.solver = reference_solver(package.root)
        program, message = compile_source(session, language, source)
        if program is None:
            raise PackageError(f"the submission does not compile: {message.strip()[:500]}")
        self.program = program
        self.validators = SandboxedValidators(session, folder / "validators")

    def run(self, data: bytes, size: int, seed: int) -> Failure | None:
        """Judge one input; None when it is not a valid test (validator or reference refuse it)."""
        test = TestCase("stress/candidate", "secret", self.folder / "candidate.in", self.folder / "candidate.ans")
        test.input_path.write_bytes(data)
        if self.package.input_validators and validate_input(self.package, test, self.validators) is not None:
            return None
        try:
            expected = solve_input(self.solver, test.input_path)
        except PackageError:
            return None
        test.answer_path.write_bytes(expected)
        single = dataclasses.replace(self.package, tests=(test,))
        work = self.folder / "work"
        work.mkdir(exist_ok=True)
        outcome = run_test(
            self.session, single, self.language, self.source, self.program, test, 1, work, self.validators.check
        )
        team = work / "team_output"
        received = team.read_bytes() if team.is_file() and outcome.verdict != AC else b""
        return Failure(data, expected, received, outcome.verdict, outcome.message, size, seed)


def random_cases(plan: StressPlan, seed: int) -> Iterator[tuple[int, int]]:
    """(size, generator seed) of every random case, in order, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    case = 0
    while True:
        yield size_for(case, plan.max_size), rng.randrange(1 << 30)
        case += 1


def generated(root: Path, plan: StressPlan, size: int, seed: int) -> bytes:
    """The generator's input for ``size`` and ``seed`` (PackageError when the generator fails)."""
    return run_generator(root, plan.generator, [*plan.args, "--size", str(size), "--seed", str(seed)])


def deletions(data: bytes) -> Iterator[bytes]:
    """Smaller inputs: each line deleted, then each whitespace-separated token of each line deleted
    (with the space before or after it), first to last."""
    lines = data.split(b"\n")
    for index in range(len(lines)):
        if lines[index] or index < len(lines) - 1:
            yield b"\n".join(lines[:index] + lines[index + 1 :])
    for index, line in enumerate(lines):
        tokens = line.split(b" ")
        if len(tokens) < 2:
            continue
        for position in range(len(tokens)):
            shorter = b" ".join(tokens[:position] + tokens[position + 1 :])
            yield b"\n".join(lines[:index] + [shorter] + lines[index + 1 :])


def shrink(judge: Judge, root: Path, plan: StressPlan, failure: Failure, result: StressResult) -> Failure:
    """The smallest failing input found from ``failure`` (see the module docstring)."""
    rng = random.Random(failure.seed)

    def budget_left() -> bool:
        return result.shrink_runs < MAX_SHRINK_RUNS

    def try_input(data: bytes, size: int, seed: int) -> Failure | None:
        result.shrink_runs += 1
        outcome = judge.run(data, size, seed)
        return outcome if outcome is not None and outcome.verdict != AC else None

    best = failure
    for size in range(1, failure.size + 1):
        failed_here = False
        for _ in range(SEEDS_PER_SIZE):
            seed = rng.randrange(1 << 30)
            data = generated(root, plan, size, seed)
            if budget_left() and len(data) < len(best.input):
                found = try_input(data, size, seed)
                if found:
                    best, failed_here = found, True
        if failed_here:
            break
    improved = True
    while improved and budget_left():
        improved = False
        for candidate in deletions(best.input):
            if not budget_left():
                break
            found = try_input(candidate, best.size, best.seed)
            if found:
                best, improved = found, True
                break
    return best


def stress(
    package_root: Path | str,
    submission: Path | str,
    *,
    budget_s: float = 60.0,
    seed: int = 1,
    slot: int = 50,
    progress: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> StressResult:
    """Judge ``submission`` on random inputs until it fails or ``budget_s`` seconds have passed,
    then shrink the failing input. Returns a StressResult.

    Raises PackageError when the package cannot be loaded, has no test plan with a ``stress`` entry,
    the submission is not a file in a judge language or does not compile, or the generator fails or
    writes an input the input validator refuses (a generator fault, not a submission's).
    """
    root = Path(package_root).resolve()
    package = load_package(root, require_tests=False)
    plan = read_plan(root)
    if plan is None or plan.stress is None:
        raise PackageError(f"{root / 'generators/tests.yaml'}: no stress entry (args for --size S --seed N)")
    path = Path(submission)
    language = language_for_file(path.name) if path.is_file() else None
    if language is None:
        raise PackageError(f"{path}: not a submission file in a judge language (by extension)")
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PackageError(f"{path}: not UTF-8 text") from exc
    result = StressResult()
    work = load_settings().work_dir / f"stress-slot-{slot}"
    deadline = clock() + budget_s
    try:
        with Sandbox(slot=slot) as box, open_session(box, language, work) as session:
            with tempfile.TemporaryDirectory(prefix="judge-stress-") as folder:
                judge = Judge(package, session, language, source, Path(folder))
                for size, case_seed in random_cases(plan.stress, seed):
                    if clock() >= deadline:
                        break
                    data = generated(root, plan.stress, size, case_seed)
                    outcome = judge.run(data, size, case_seed)
                    if outcome is None:
                        raise PackageError(
                            f"generator {plan.stress.generator} --size {size} --seed {case_seed}: "
                            "the input validator or the reference refuses its input"
                        )
                    result.cases += 1
                    if progress:
                        progress(f"case {result.cases}: size {size}, {outcome.verdict}")
                    if outcome.verdict != AC:
                        result.found = outcome
                        if progress:
                            progress("shrinking")
                        result.smallest = shrink(judge, root, plan.stress, outcome, result)
                        break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result
