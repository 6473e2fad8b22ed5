"""``judge problem time``: the time limit derived from the accepted submissions, as Kattis derives it.

The rule is problemtools' (``problemtools/checks/submissions.py``, 2023-07 problem format): the
slowest accepted run (CPU seconds, over every accepted submission and every test) times
``limits.time_multipliers.ac_to_time_limit`` (default 2), rounded UP to a whole multiple of
``limits.time_resolution`` (default 1 s), and at least one resolution step. Submissions are then
judged against ``limit × limits.time_multipliers.time_limit_to_tle`` (the safety margin, default 1.5):
an accepted run above the limit itself, or a ``time_limit_exceeded`` submission that is not TLE even
at that higher bound, is reported. The legacy keys ``limits.time_multiplier`` and
``limits.time_safety_margin`` are read too (with the legacy format's defaults 5 and 2 only when one
of them is present).

``--write`` puts the new ``limits.time_limit`` into ``problem.yaml``, changing only that value (or
adding the key), so comments and every other key stay as they were.
"""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from judge.config import load_settings
from judge.judging import JudgingOutcome, judge_submission
from judge.languages import NoLanguage
from judge.packages import PackageError, ProblemPackage, _read_yaml, load_package
from judge.verdicts import AC, TLE
from judge.verify.layout import submission_files
from judge.verify.submissions import submission_program
from sandbox import Sandbox

MEASURING_LIMIT_MS = 10_000  # CPU ms per test while measuring (or 3 × the current limit, if larger)


@dataclass(frozen=True)
class TimeRule:
    """The multipliers of the rule: ``ac_to_time_limit``, ``time_limit_to_tle`` (safety margin) and
    ``time_resolution`` (seconds)."""

    ac_to_time_limit: float = 2.0
    time_limit_to_tle: float = 1.5
    time_resolution: float = 1.0


@dataclass
class TimeReport:
    """What ``derive_time_limit`` measured: the slowest accepted run (ms, submission, test), the
    derived limit and the safety-margin bound (seconds), the limit in ``problem.yaml`` (seconds),
    and warnings (one line each)."""

    slowest_ms: int
    slowest_where: str
    time_limit_s: float
    tle_bound_s: float
    current_s: float
    warnings: list[str] = field(default_factory=list)


def _number(value, default: float, what: str, path: Path, minimum: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum or value <= 0:
        raise PackageError(f"{path}: {what} must be a positive number of at least {minimum:g}, not {value!r}")
    return float(value)


def read_rule(package_root: Path) -> TimeRule:
    """The rule's numbers from ``problem.yaml`` (2023-07 keys, else legacy keys, else defaults).

    Raises PackageError for a value that is not a number in range.
    """
    path = Path(package_root) / "problem.yaml"
    limits = _read_yaml(path).get("limits") or {}
    if not isinstance(limits, dict):
        raise PackageError(f"{path}: limits must be a mapping")
    multipliers = limits.get("time_multipliers") or {}
    if not isinstance(multipliers, dict):
        raise PackageError(f"{path}: limits.time_multipliers must be a mapping")
    legacy = "time_multiplier" in limits or "time_safety_margin" in limits
    ac = multipliers.get("ac_to_time_limit", limits.get("time_multiplier"))
    tle = multipliers.get("time_limit_to_tle", limits.get("time_safety_margin"))
    return TimeRule(
        _number(ac, 5.0 if legacy else 2.0, "the multiplier ac_to_time_limit", path, 1),
        _number(tle, 2.0 if legacy else 1.5, "the safety margin time_limit_to_tle", path, 1),
        _number(limits.get("time_resolution"), 1.0, "limits.time_resolution", path, 0),
    )


def time_limit_from(slowest_s: float, rule: TimeRule) -> float:
    """The time limit (seconds): ``max(1, ceil(slowest × ac_to_time_limit / resolution)) × resolution``."""
    steps = max(1, math.ceil(round(slowest_s * rule.ac_to_time_limit / rule.time_resolution, 9)))
    return steps * rule.time_resolution


def _judge_folder(box: Sandbox, package: ProblemPackage, folder: str, work: Path) -> list[tuple[str, JudgingOutcome]]:
    """(name, outcome) of every submission of ``submissions/<folder>`` in a language of this judge
    (``judge.verify.submissions.submission_program``) judged on every test."""
    judged = []
    for path in submission_files(package.root / "submissions" / folder):
        try:
            program = submission_program(package, path)  # a file, or a folder of files
        except (NoLanguage, UnicodeDecodeError):
            continue
        outcome = judge_submission(box, package, program.language, program.source, work, others=program.others)
        judged.append((f"{folder}/{path.name}", outcome))
    return judged


def derive_time_limit(package_root: Path | str, *, slot: int = 50) -> TimeReport:
    """Judge the accepted submissions on every test with a generous limit, derive the time limit,
    then judge the ``time_limit_exceeded`` submissions at the safety-margin bound.

    Raises PackageError when the package cannot be loaded, has no accepted submission in a judge
    language, or one of them is not accepted.
    """
    root = Path(package_root).resolve()
    package = load_package(root)
    rule = read_rule(root)
    measuring = dataclasses.replace(package, time_limit_ms=max(MEASURING_LIMIT_MS, 3 * package.time_limit_ms))
    work = load_settings().work_dir / f"time-slot-{slot}"
    try:
        with Sandbox(slot=slot) as box:
            accepted = _judge_folder(box, measuring, "accepted", work)
            if not accepted:
                raise PackageError(f"{root}/submissions/accepted: no submission in a judge language")
            runs = []
            for name, outcome in accepted:
                if outcome.verdict != AC:
                    raise PackageError(f"{name} is not accepted ({outcome.verdict}): fix it before timing")
                runs += [(t.time_ms, name, t.test.name) for t in outcome.tests]
            slowest_ms, name, test = max(runs)
            limit_s = time_limit_from(slowest_ms / 1000, rule)
            bound_s = limit_s * rule.time_limit_to_tle
            report = TimeReport(slowest_ms, f"{name} on {test}", limit_s, bound_s, package.time_limit_ms / 1000)
            at_bound = dataclasses.replace(package, time_limit_ms=int(math.ceil(bound_s * 1000)))
            for name, outcome in _judge_folder(box, at_bound, "time_limit_exceeded", work):
                if outcome.verdict != TLE:
                    report.warnings.append(
                        f"{name} gets {outcome.verdict} (not TLE) at {bound_s:g} s: "
                        "the limit does not separate it from the accepted ones"
                    )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report


LIMIT_LINE = re.compile(r"^(?P<indent>[ \t]+)time_limit:[ \t]*(?P<value>[^#\n]*?)(?P<rest>[ \t]*(#.*)?)$", re.MULTILINE)


def write_time_limit(package_root: Path | str, limit_s: float) -> None:
    """Set ``limits.time_limit`` in ``problem.yaml`` to ``limit_s`` seconds, keeping the rest of the file.

    Replaces the value of the ``time_limit:`` line under ``limits:`` (its comment kept), or adds the
    key. Raises PackageError when the file does not read back with the new value (then it is left
    as it was).
    """
    path = Path(package_root) / "problem.yaml"
    original = path.read_text(encoding="utf-8")
    value = f"{limit_s:g}"
    if LIMIT_LINE.search(original):
        text = LIMIT_LINE.sub(lambda m: f"{m['indent']}time_limit: {value}{m['rest']}", original, count=1)
    elif re.search(r"^limits:[ \t]*$", original, re.MULTILINE):
        text = re.sub(r"^limits:[ \t]*$", f"limits:\n  time_limit: {value}", original, count=1, flags=re.MULTILINE)
    else:
        text = original.rstrip("\n") + f"\nlimits:\n  time_limit: {value}\n"
    path.write_text(text, encoding="utf-8")
    try:
        limits = _read_yaml(path).get("limits") or {}
        ok = isinstance(limits, dict) and limits.get("time_limit") == limit_s
    except PackageError:
        ok = False
    if not ok:
        path.write_text(original, encoding="utf-8")
        raise PackageError(f"{path}: could not set limits.time_limit (write it by hand: {value})")
