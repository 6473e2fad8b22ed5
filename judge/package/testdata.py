"""The test data of a package as a tree of test groups, and the grading of one judging on it.

Source: the Kattis problem package format, "Test data groups" and "Graders" (legacy), as problemtools
reads them for legacy and 2023-07 (``testdata.yaml`` in any folder of ``data/``, inherited by the
folders below it), and "Test data configuration" / "Result aggregation" of 2025-09
(``test_group.yaml`` in ``data/sample``, ``data/secret`` and each group of ``data/secret``).

Two grading rules, one per family of versions:

- **graders** (legacy, 2023-07): every folder of ``data/`` is a group. A test case scores
  ``accept_score`` (1) when accepted (or the validator's ``score.txt`` with ``validation: custom
  score``), else ``reject_score`` (0). A group takes its children (test cases and sub-groups, in file
  name order) up to the first rejected one when ``on_reject: break`` (the default), all of them with
  ``continue``, and aggregates them as problemtools' default grader does with ``grader_flags``:
  verdict ``worst_error`` (default), ``first_error`` or ``always_accept``, plus
  ``accept_if_any_accepted``; score ``sum`` (default), ``avg``, ``min`` or ``max``; ``ignore_sample``
  at the root. The root ``data/`` gives the submission's verdict and score. ``grading: custom``
  (a grader program) is refused at load.
- **max_score** (2025-09): only ``secret`` and its groups score. A group (or ``secret``) has a
  ``max_score`` (``secret``: 100; a group: ``unbounded``) and a ``score_aggregation``: ``pass-fail``
  (all tests accepted: the whole max_score, else 0), ``sum`` (each test case is worth max_score / N)
  or ``min``; ``require_pass`` names groups (or ``sample``) that must pass first, else the group
  scores 0. A failed test case scores 0; ``score.txt`` gives an accepted one's score and
  ``score_multiplier.txt`` a fraction of its maximum.

For a pass-fail problem the verdict is the first rejected test's (samples first) and the score is
the fraction of tests passed × 1 (this judge's class-contest rule, ``judge.scoring``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.package.metadata import LEGACY, V2023, V2025, Metadata, PackageError, read_config, shown
from judge.verdicts import AC, JE

GRADER_DEFAULTS: dict[str, Any] = {
    "on_reject": "break",
    "grading": "default",
    "grader_flags": "",
    "accept_score": 1.0,
    "reject_score": 0.0,
    "range": "-inf +inf",
    "input_validator_flags": "",
    "output_validator_flags": "",
}
GRADER_KEYS = set(GRADER_DEFAULTS)
SCORING_KEYS_2023 = {"scoring"}  # 2023-07 drafts: scoring: {score, aggregation, require_pass}
GROUP_KEYS_2025 = {"max_score", "score_aggregation", "static_validation_score", "require_pass", "args"}
GROUP_KEYS_2025 |= {"input_validator_args", "static_validator_args", "output_validator_args"}
GROUP_KEYS_2025 |= {"input_visualizer_args", "output_visualizer_args", "full_feedback"}
VERDICT_FLAGS = ("worst_error", "no_errors", "first_error", "always_accept")
SCORE_FLAGS = ("sum", "avg", "min", "max")
WORST_FIRST = ("JE", "IF", "RTE", "MLE", "TLE", "OLE", "WA", "PE", AC)  # problemtools' default grader order
GROUP_NAME_BYTES = 200  # TestResult.test_group
NOT_INHERITED = ("max_score", "score_aggregation", "require_pass")  # 2025-09: each group's own


def is_sample_group(group: str) -> bool:
    """Whether test group ``group`` (``sample``, ``sample/extra``, ``secret/g1``) holds samples, whose
    data the statement shows."""
    return group == "sample" or group.startswith("sample/")


@dataclass(frozen=True)
class TestCase:
    """One test case: ``name`` like ``sample/01`` or ``secret/group1/07-corridor`` (its path under
    ``data/`` without ``.in``), ``group`` the folder it is in (``sample``, ``secret``,
    ``secret/group1``), input and judge answer paths, and the flags its group gives the output
    and input validators."""

    __test__ = False  # not a pytest test class, despite its name
    name: str
    group: str
    input_path: Path
    answer_path: Path
    output_validator_flags: tuple[str, ...] = ()
    input_validator_flags: tuple[str, ...] = ()

    @property
    def sample(self) -> bool:
        """Whether this is a sample (in ``data/sample`` or a group below it)."""
        return is_sample_group(self.group)


@dataclass(frozen=True)
class TestGroup:
    """A folder of ``data/``: its ``name`` (``data``, ``sample``, ``secret/group1``), its merged
    configuration (the version's defaults, then the ancestors', then its own file) and its items
    (test cases and sub-groups, in file name order)."""

    name: str
    config: dict[str, Any]
    items: tuple[TestCase | TestGroup, ...] = ()

    def test_cases(self) -> list[TestCase]:
        """Every test case in this group and below, in judging order."""
        found: list[TestCase] = []
        for item in self.items:
            found.extend(item.test_cases() if isinstance(item, TestGroup) else [item])
        return found

    def groups(self) -> list[TestGroup]:
        """This group and every group below it."""
        return [self] + [g for item in self.items if isinstance(item, TestGroup) for g in item.groups()]


@dataclass(frozen=True)
class TestScore:
    """One test case's outcome as grading sees it: verdict and the validator's ``score.txt`` /
    ``score_multiplier.txt`` value (None when it wrote none)."""

    __test__ = False  # not a pytest test class, despite its name
    verdict: str
    score: float | None = None
    multiplier: float | None = None


@dataclass(frozen=True)
class Grade:
    """A judging's result: ``verdict``, ``score`` and ``max_score`` (``score / max_score`` is the
    fraction of the problem earned; max_score is None when the package bounds no score), and the
    score of each group by name (``groups``)."""

    verdict: str
    score: float
    max_score: float | None
    groups: dict[str, float] = field(default_factory=dict)

    @property
    def fraction(self) -> float:
        """The share of the problem earned, 0 … 1 (0 without a bounded maximum)."""
        if not self.max_score or not math.isfinite(self.max_score):
            return 0.0
        return min(1.0, max(0.0, self.score / self.max_score))


def _read_config(path: Path) -> dict[str, Any]:
    return read_config(path) if path.is_file() else {}


def _words(value: Any, what: str, path: Path) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    raise PackageError(f"{path}: {what} must be a string or a list of strings, not {shown(value)}")


def _range(text: Any, path: Path) -> tuple[float, float]:
    try:
        low, high = (float(x) for x in str(text).split())
    except ValueError:
        raise PackageError(f"{path}: range must be two numbers ('0 100', '-inf +inf'), not {shown(text)}") from None
    return low, high


def _check_grader_config(own: dict, metadata: Metadata, path: Path, warnings: list[str]) -> None:
    for key in sorted(set(own) - GRADER_KEYS - SCORING_KEYS_2023):
        warnings.append(f"{path}: {key} is not a key of testdata.yaml; ignored")
    if own.get("grading", "default") != "default":
        raise PackageError(f"{path}: grading: {own['grading']} (a grader program) is not supported; use grader_flags")
    if own.get("on_reject", "break") not in ("break", "continue"):
        raise PackageError(f"{path}: on_reject must be break or continue, not {shown(own['on_reject'])}")
    flags = _words(own.get("grader_flags"), "grader_flags", path)
    unknown = [f for f in flags if f not in (*VERDICT_FLAGS, *SCORE_FLAGS, "ignore_sample", "accept_if_any_accepted")]
    if unknown:
        raise PackageError(f"{path}: grader_flags: unknown flag {shown(unknown[0])}")
    for key in ("accept_score", "reject_score"):
        if key in own and (isinstance(own[key], bool) or not isinstance(own[key], (int, float))):
            raise PackageError(f"{path}: {key} must be a number, not {shown(own[key])}")
    if "range" in own:
        _range(own["range"], path)
    scored = [k for k in ("accept_score", "reject_score", "range") if k in own]
    if scored and not metadata.scoring:
        raise PackageError(f"{path}: {scored[0]} is only for scoring problems (type: scoring)")


def _scoring_2023(own: dict, path: Path) -> dict:
    """The 2023-07 drafts' ``scoring: {score, aggregation, require_pass}`` as 2025-09 keys."""
    scoring = own.get("scoring")
    if scoring is None:
        return {}
    if not isinstance(scoring, dict) or set(scoring) - {"score", "aggregation", "require_pass"}:
        raise PackageError(f"{path}: scoring must be a mapping of score, aggregation, require_pass")
    renamed = {"score": "max_score", "aggregation": "score_aggregation", "require_pass": "require_pass"}
    return {renamed[k]: v for k, v in scoring.items()}


def _check_group_2025(own: dict, name: str, metadata: Metadata, path: Path, warnings: list[str]) -> None:
    for key in sorted(set(own) - GROUP_KEYS_2025):
        warnings.append(f"{path}: {key} is not a key of test_group.yaml; ignored")
    for key in ("args", "static_validation_score", "static_validator_args"):
        if key in own:
            raise PackageError(f"{path}: {key} is not supported by this judge")
    scored = [k for k in ("max_score", "score_aggregation", "require_pass") if k in own]
    if scored and (not metadata.scoring or name == "sample"):
        raise PackageError(f"{path}: {scored[0]} is only for the secret groups of scoring problems")
    if own.get("score_aggregation", "sum") not in ("pass-fail", "sum", "min"):
        raise PackageError(
            f"{path}: score_aggregation must be pass-fail, sum or min, not {shown(own['score_aggregation'])}"
        )
    bound = own.get("max_score", 0)
    if bound != "unbounded" and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
        raise PackageError(f"{path}: max_score must be a non-negative integer or unbounded, not {shown(bound)}")


def _config_file(metadata: Metadata) -> str:
    return "test_group.yaml" if metadata.version == V2025 else "testdata.yaml"


def _own_config(folder: Path, name: str, metadata: Metadata, warnings: list[str]) -> dict:
    path = folder / _config_file(metadata)
    own = _read_config(path)
    if metadata.version in (LEGACY, V2023) and not (metadata.version == V2023 and "scoring" in own):
        _check_grader_config(own, metadata, path, warnings)
        return own
    own = {**own, **_scoring_2023(own, path)}
    own.pop("scoring", None)
    if "output_validator_flags" in own:  # 2023-07's name for output_validator_args
        own["output_validator_args"] = own.pop("output_validator_flags")
    if "input_validator_flags" in own:
        own["input_validator_args"] = own.pop("input_validator_flags")
    _check_group_2025(own, name, metadata, path, warnings)
    return own


def _legacy_overrides(metadata: Metadata) -> dict[str, Any]:
    """problem.yaml's ``grading`` keys that predate testdata.yaml, applied to every group (problemtools)."""
    grading = metadata.grading
    found: dict[str, Any] = {k: grading[k] for k in ("accept_score", "reject_score", "range") if k in grading}
    if grading.get("on_reject") == "first_error":
        found["on_reject"] = "break"
    elif grading.get("on_reject") == "grade":
        found["on_reject"] = "continue"
    return found


def _walk(folder: Path, data: Path, parent: dict, metadata: Metadata, warnings: list[str]) -> TestGroup:
    name = "data" if folder == data else folder.relative_to(data).as_posix()
    if len(name.encode()) > GROUP_NAME_BYTES:
        raise PackageError(f"{folder}: test group name longer than {GROUP_NAME_BYTES} bytes")
    own = _own_config(folder, name, metadata, warnings)
    config = {**parent, **own, **_legacy_overrides(metadata)}
    out_flags = _words(
        config.get("output_validator_flags", config.get("output_validator_args")), "output flags", folder
    )
    in_flags = config.get("input_validator_flags", config.get("input_validator_args"))
    in_words = _words(in_flags, "input validator flags", folder) if not isinstance(in_flags, dict) else ()
    items: list[TestCase | TestGroup] = []
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and not entry.name.startswith("."):
            inherited = {k: v for k, v in config.items() if k not in NOT_INHERITED}
            child = _walk(entry, data, inherited, metadata, warnings)
            if child.test_cases():
                items.append(child)
        elif entry.suffix == ".in" and entry.is_file():
            answer = entry.with_suffix(".ans")
            if not answer.is_file():
                raise PackageError(f"{entry}: no judge answer {answer.name}")
            test_name = entry.relative_to(data).with_suffix("").as_posix()
            items.append(TestCase(test_name, name, entry, answer, out_flags, in_words))
    return TestGroup(name, config, tuple(items))


def read_test_data(root: Path, metadata: Metadata) -> tuple[TestGroup, tuple[str, ...]]:
    """The test data of the package at ``root``: the root group ``data`` (holding ``sample`` then
    ``secret``; other folders directly in ``data/`` are left out with a warning) and warnings.

    Raises PackageError for an input without its ``.ans``, a malformed ``testdata.yaml`` /
    ``test_group.yaml`` or a key this judge cannot honour (a grader program, static validation).
    """
    data = root / "data"
    warnings: list[str] = []
    if not data.is_dir():
        return TestGroup("data", dict(GRADER_DEFAULTS)), ()
    root_own = _own_config(data, "data", metadata, warnings) if metadata.version != V2025 else {}
    config = {**GRADER_DEFAULTS, **root_own, **_legacy_overrides(metadata)}
    items: list[TestCase | TestGroup] = []
    for entry in sorted(data.iterdir()):
        if entry.is_dir() and entry.name in ("sample", "secret"):
            items.append(_walk(entry, data, config, metadata, warnings))
        elif entry.is_dir() or entry.suffix in (".in", ".ans"):
            warnings.append(f"{entry}: only data/sample and data/secret hold test data; ignored")
    if metadata.version == V2025:
        _check_secret_2025(items, metadata, data)
    return TestGroup("data", config, tuple(items)), tuple(warnings)


def _check_secret_2025(items: list, metadata: Metadata, data: Path) -> None:
    secret = next((g for g in items if isinstance(g, TestGroup) and g.name == "secret"), None)
    if secret is None or not metadata.scoring:
        return
    groups = [g for g in secret.items if isinstance(g, TestGroup)]
    if groups and any(isinstance(i, TestCase) for i in secret.items):
        raise PackageError(f"{data / 'secret'}: holds both test groups and test cases; keep one or the other")


# -- grading ----------------------------------------------------------------------------------------------
def grade(metadata: Metadata, root: TestGroup, results: Mapping[str, TestScore]) -> Grade:
    """The verdict and score of one judging from ``results`` (test case name → TestScore; a test
    missing from it was not run and counts as rejected with no verdict of its own), by the rules of
    the module docstring. Raises nothing: a malformed score makes the verdict JE."""
    tests = root.test_cases()
    ordered = [results.get(t.name) for t in tests]
    verdict = next((r.verdict for r in ordered if r is not None and r.verdict != AC), None)
    if verdict is None and any(r is None for r in ordered):
        verdict = JE  # a test was not run, yet none failed: the judging is incomplete
    if not metadata.scoring:
        passed = sum(1 for r in ordered if r is not None and r.verdict == AC)
        return Grade(verdict or AC, float(passed), float(len(tests)) if tests else None)
    if metadata.version == V2025 or any(
        "max_score" in g.config or "score_aggregation" in g.config for g in root.groups()
    ):
        return _grade_max_score(root, results, verdict or AC)
    verdict_, score, groups = _grade_graders(root, results)
    _, high = _range(root.config.get("range", "-inf +inf"), Path("data"))
    if not math.isfinite(high):  # no range: the most is what accepting every test earns
        high = _grade_graders(root, {t.name: TestScore(AC) for t in tests})[1]
    return Grade(verdict_, score, high if math.isfinite(high) and high > 0 else None, groups)


def _grade_graders(group: TestGroup, results: Mapping[str, TestScore]) -> tuple[str, float, dict[str, float]]:
    config, groups = group.config, {}
    children: list[tuple[str, float]] = []
    for item in group.items:
        if isinstance(item, TestGroup):
            verdict, score, below = _grade_graders(item, results)
            groups.update(below)
        else:
            result = results.get(item.name, TestScore("JE"))
            verdict = result.verdict
            default = config["accept_score"] if verdict == AC else config["reject_score"]
            score = result.score if verdict == AC and result.score is not None else float(default or 0)
        children.append((verdict, score))
        if verdict != AC and config.get("on_reject") == "break":
            break
    verdict, score = default_grader(children, _words(config.get("grader_flags"), "grader_flags", Path(group.name)))
    groups[group.name] = score
    return verdict, score, groups


def default_grader(children: list[tuple[str, float]], flags: tuple[str, ...]) -> tuple[str, float]:
    """problemtools' default grader on (verdict, score) sub-results with ``grader_flags`` (the last
    of conflicting modes wins): (AC, 0) for no sub-results; JE when a sub-result is JE."""
    if not children:
        return AC, 0.0
    if any(v == JE for v, _ in children):
        return JE, 0.0
    verdict_mode = next((f for f in reversed(flags) if f in VERDICT_FLAGS), "worst_error")
    score_mode = next((f for f in reversed(flags) if f in SCORE_FLAGS), "sum")
    if "ignore_sample" in flags:
        children = children[-1:]
    verdicts = [str(v) for v, _ in children]
    scores = [s for _, s in children]
    verdict: str = AC
    if "accept_if_any_accepted" in flags and AC in verdicts or verdict_mode == "always_accept":
        verdict = AC
    elif verdict_mode == "first_error":
        verdict = next((v for v in verdicts if v != AC), AC)
    else:
        verdict = min([*verdicts, AC], key=lambda v: WORST_FIRST.index(v) if v in WORST_FIRST else 0)
    return verdict, _aggregate(score_mode, scores)


def _aggregate(mode: str, scores: list[float]) -> float:
    if mode == "min":
        return min(scores)
    if mode == "max":
        return max(scores)
    return sum(scores) / len(scores) if mode == "avg" else float(sum(scores))


def _bound(config: dict, default: Any) -> float:
    value = config.get("max_score", default)
    return math.inf if value == "unbounded" else float(value)


def _passed(group: TestGroup, results: Mapping[str, TestScore]) -> bool:
    return all((r := results.get(t.name)) is not None and r.verdict == AC for t in group.test_cases())


def _grade_max_score(root: TestGroup, results: Mapping[str, TestScore], verdict: str) -> Grade:
    by_name = {g.name: g for g in root.groups()}
    secret = by_name.get("secret")
    if secret is None:
        return Grade(verdict, 0.0, None)
    max_score = _bound(secret.config, 100)
    groups: dict[str, float] = {}
    subgroups = [g for g in secret.items if isinstance(g, TestGroup)]
    aggregation = secret.config.get("score_aggregation", "sum")
    if subgroups:
        for group in subgroups:
            groups[group.name] = _group_score(group, _bound(group.config, "unbounded"), results, by_name)
        parts = list(groups.values())
        if aggregation == "pass-fail":
            score = max_score if _passed(secret, results) else 0.0
        else:
            score = (sum(parts) if aggregation == "sum" else min(parts)) if parts else 0.0
    else:
        score = _group_score(secret, max_score, results, by_name)
    if not _required(secret, by_name, results):
        score = 0.0
    groups["secret"] = score
    if score > max_score + 1e-9:
        return Grade(JE, 0.0, max_score, groups)
    return Grade(verdict, score, None if math.isinf(max_score) else max_score, groups)


def _required(group: TestGroup, by_name: dict[str, TestGroup], results: Mapping[str, TestScore]) -> bool:
    names = _words(group.config.get("require_pass"), "require_pass", Path(group.name))
    return all(name in by_name and _passed(by_name[name], results) for name in names)


def _group_score(group: TestGroup, bound: float, results: Mapping[str, TestScore], by_name: dict) -> float:
    if not _required(group, by_name, results):
        return 0.0
    aggregation = group.config.get("score_aggregation", "pass-fail" if group.name != "secret" else "sum")
    tests = group.test_cases()
    if aggregation == "pass-fail":
        return bound if _passed(group, results) and math.isfinite(bound) else 0.0
    each = bound / len(tests) if aggregation == "sum" and tests else bound
    scores = []
    for test in tests:
        result = results.get(test.name)
        if result is None or result.verdict != AC:
            scores.append(0.0)
        elif result.score is not None:
            scores.append(result.score)
        elif result.multiplier is not None:
            scores.append(result.multiplier * each)
        else:
            scores.append(each if math.isfinite(each) else 0.0)
    if not scores:
        return 0.0
    return sum(scores) if aggregation == "sum" else min(scores)
