"""Step 5: the checker audit. For each test, wrong answers must be rejected (WA, exit 43) and
other valid answers accepted (AC, exit 42).

Wrong answers come from ``judge.audit`` (generic: cut short, extended, garbage tokens, empty) and
from the package's ``generators/mutations.py``, a standard-library module with two functions:

- ``wrong_answers(input_text, answer_text) -> list[tuple[str, str]]``: (kind, output) pairs, each
  wrong for that test (e.g. a path one step longer, a diagonal move, a wrong count);
- ``alternative_answers(input_text, answer_text) -> list[str]``: other valid answers, built
  independently of the reference (another tie-breaking), where the problem has several.

Valid outputs are those alternatives plus the judge answer re-formatted (``judge.audit``).
"""

from __future__ import annotations

import importlib.util
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from judge.audit import AuditOutput, reformatted_outputs, wrong_outputs
from judge.checkers import ValidatorRunner, check_output
from judge.packages import ProblemPackage, TestCase
from judge.verdicts import AC, WA
from judge.verify.parallel import map_checks
from judge.verify.report import Progress, StepReport

MUTATIONS = Path("generators") / "mutations.py"
MAX_ALTERNATIVES = 4  # per test: more only repeats what a few different answers already prove


@dataclass
class TestAudit:
    """What the audit of one test tried and found: counts of outputs fed to the checker and the
    reasons of the failures (one line each)."""

    generic_wrong: int = 0
    specific_wrong: int = 0
    reformatted: int = 0
    alternatives: int = 0
    failures: list[str] = field(default_factory=list)


def load_mutations(package: ProblemPackage) -> ModuleType | None:
    """Import the package's ``generators/mutations.py`` (None when it has none).

    Raises whatever the module raises on import (the caller reports it as a failure).
    """
    path = package.root / MUTATIONS
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"judge_verify_mutations_{package.id}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not importable as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def specific_outputs(
    mutations: ModuleType | None,
    input_text: str,
    answer_text: str,
) -> tuple[list[AuditOutput], list[AuditOutput]]:
    """(wrong, alternative) outputs of the package's mutations module for one test.

    Alternatives equal to the judge answer token for token are left out (they prove nothing), and
    at most MAX_ALTERNATIVES are kept.
    Raises TypeError when the module returns something else than the documented shapes.
    """
    if mutations is None:
        return [], []
    wrong = []
    for pair in mutations.wrong_answers(input_text, answer_text):
        kind, output = pair
        if not isinstance(kind, str) or not isinstance(output, str):
            raise TypeError(f"wrong_answers must give (str, str) pairs, not {pair!r:.80}")
        wrong.append(AuditOutput(kind, output.encode()))
    alternatives = []
    for number, output in enumerate(mutations.alternative_answers(input_text, answer_text), start=1):
        if not isinstance(output, str):
            raise TypeError(f"alternative_answers must give str, not {type(output).__name__}")
        if output.split() != answer_text.split():
            alternatives.append(AuditOutput(f"alternative answer {number}", output.encode()))
    return wrong, alternatives[:MAX_ALTERNATIVES]


def _feed(
    package: ProblemPackage,
    test: TestCase,
    outputs: list[AuditOutput],
    expected: str,
    folder: Path,
    audit: TestAudit,
    run_validator: ValidatorRunner,
) -> None:
    """Give each output to the checker and record a failure unless it says ``expected``."""
    team_output = folder / "team_output"
    for item in outputs:
        team_output.write_bytes(item.output)
        result = check_output(package, test, team_output, run_validator)
        if result.verdict == expected:
            continue
        if expected == WA and result.verdict == AC:
            audit.failures.append(f"checker accepted a wrong answer ({item.kind})")
        elif expected == AC and result.verdict == WA:
            audit.failures.append(f"checker rejected a valid answer ({item.kind}): {result.message}")
        else:
            audit.failures.append(f"checker gave {result.verdict} on {item.kind}: {result.message}")


def audit_test(
    package: ProblemPackage, test: TestCase, mutations: ModuleType | None, run_validator: ValidatorRunner
) -> TestAudit:
    """Feed one test's wrong and valid outputs to the checker (its output validator run by
    ``run_validator``); never raises for a faulty mutations module (its error becomes a failure
    of this test)."""
    audit = TestAudit()
    answer = test.answer_path.read_bytes()
    try:
        specific_wrong, alternatives = specific_outputs(
            mutations, test.input_path.read_text(encoding="utf-8"), answer.decode("utf-8")
        )
    except Exception as exc:  # a bug in the package's mutations module, reported per test
        audit.failures.append(f"{MUTATIONS} raised {type(exc).__name__}: {exc}")
        specific_wrong, alternatives = [], []
    generic_wrong, reformatted = wrong_outputs(answer), reformatted_outputs(answer)
    audit.generic_wrong, audit.specific_wrong = len(generic_wrong), len(specific_wrong)
    audit.reformatted, audit.alternatives = len(reformatted), len(alternatives)
    with tempfile.TemporaryDirectory(prefix="judge-audit-") as folder:
        _feed(package, test, generic_wrong + specific_wrong, WA, Path(folder), audit, run_validator)
        _feed(package, test, reformatted + alternatives, AC, Path(folder), audit, run_validator)
    return audit


def check_audit(package: ProblemPackage, step: StepReport, progress: Progress, run_validator: ValidatorRunner) -> None:
    """Audit the checker on every test of ``package`` (its output validator run by
    ``run_validator``); notes give how many outputs were tried."""
    try:
        mutations = load_mutations(package)
    except Exception as exc:
        step.fail(str(MUTATIONS), f"cannot import: {type(exc).__name__}: {exc}")
        return
    if mutations is None:
        step.warnings.append(f"no {MUTATIONS}: only generic mutations, no alternative answers")
    progress.begin(step.title, len(package.tests))
    audits = map_checks(lambda test: audit_test(package, test, mutations, run_validator), package.tests, progress)
    for test, audit in zip(package.tests, audits):
        for reason in audit.failures:
            step.fail(test.name, reason)
    wrong = sum(a.generic_wrong + a.specific_wrong for a in audits)
    specific = sum(a.specific_wrong for a in audits)
    valid = sum(a.reformatted + a.alternatives for a in audits)
    alternatives = sum(a.alternatives for a in audits)
    step.checked = wrong + valid
    step.notes.append(
        f"tried {wrong} wrong answers ({specific} problem-specific) and {valid} valid "
        f"outputs ({alternatives} alternative answers on "
        f"{sum(a.alternatives > 0 for a in audits)} tests)"
    )
