"""``judge problem generate``: make a package's inputs from its test plan and every judge answer.

Steps: read ``generators/tests.yaml`` (``judge.testplan``), run the generator of every generated
test (deterministic: fixed arguments and seeds), write the inputs to ``data/<group>/<name>.in``, then
run the reference solver on every input of the plan and write its standard output as the ``.ans``.
The same package gives the same bytes on every run (``tests/judge/test_packages_generate.py`` proves
it for every shipped package against the committed data).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from judge.config import REPO_ROOT
from judge.packages import TEST_GROUPS, PackageError, load_package
from judge.testplan import DEFAULT_GENERATOR, PLAN, PlannedTest, TestPlan, planned_input, read_plan

REFERENCE_TIMEOUT_S = 60


def reference_solver(package_root: Path) -> Path:
    """The reference solver of a package: ``submissions/accepted/reference.py`` (a link to
    ``reference/<id>.py``) or else ``reference/<id>.py`` of this repository.

    Raises PackageError when neither exists.
    """
    linked = package_root / "submissions" / "accepted" / "reference.py"
    if linked.is_file():
        return linked.resolve()
    own = REPO_ROOT / "reference" / f"{package_root.name}.py"
    if own.is_file():
        return own
    raise PackageError(f"{package_root}: no reference solver (submissions/accepted/reference.py or {own})")


def _run(argv: list[str], *, stdin: Path | None = None, cwd: Path, what: str) -> bytes:
    with open(stdin, "rb") if stdin else open("/dev/null", "rb") as infile:
        try:
            proc = subprocess.run(argv, stdin=infile, capture_output=True, cwd=cwd, timeout=REFERENCE_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise PackageError(f"{what}: still running after {REFERENCE_TIMEOUT_S} s") from exc
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise PackageError(f"{what}: exit code {proc.returncode}: {' / '.join(tail)}")
    return proc.stdout


def solve_input(solver: Path, input_path: Path) -> bytes:
    """The reference solver's output (bytes) on ``input_path``; PackageError if it fails."""
    return _run(
        [sys.executable, str(solver)],
        stdin=input_path,
        cwd=solver.parent,
        what=f"reference {solver.name} on {input_path.name}",
    )


def implicit_plan(root: Path) -> TestPlan:
    """The plan of a package without ``generators/tests.yaml``: every input in ``data/`` is hand-written.

    Raises PackageError when the package has a ``generators/`` program but no plan (its tests would
    silently not be made).
    """
    programs = sorted((root / "generators").glob("*.py"))
    if [p for p in programs if p.name != "mutations.py"]:
        raise PackageError(f"{root / PLAN}: missing; list the tests the generator makes there (docs/authoring.md)")
    tests = [
        PlannedTest(group, path.stem, DEFAULT_GENERATOR, (), None)
        for group in TEST_GROUPS
        for path in sorted((root / "data" / group).glob("*.in"))
    ]
    return TestPlan(root / PLAN, tuple(tests), None)


def generate(package_root: Path | str, progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write every input of the package's test plan (``generators/tests.yaml``) and every ``.ans``.

    Without a plan, every input already in ``data/`` is a hand-written test (``implicit_plan``).
    Generated inputs are written to ``data/<group>/<name>.in``; hand-written ones (no args) must be
    there already. A secret ``.in``/``.ans`` the plan does not list is removed (secret data is
    generated, never edited by hand); a sample ``.in`` it does not list is refused, so no hand-written
    sample is lost. Returns the ``.in`` files solved, in judging order. Raises PackageError when the
    plan is malformed (or missing beside a generator), or a generator or the reference fails; nothing under ``data/`` is
    written until every generator has succeeded.
    """
    root = Path(package_root).resolve()
    load_package(root, require_tests=False)  # the package must parse before anything is written
    plan = read_plan(root) or implicit_plan(root)
    made: dict[Path, bytes] = {}
    for test in plan.tests:
        path = root / "data" / test.group / f"{test.name}.in"
        if test.hand_written:
            if not path.is_file():
                raise PackageError(f"{path}: hand-written input of the test plan is missing")
            continue
        if progress:
            progress(f"generating {test.group}/{test.name}")
        made[path] = planned_input(root, test)
    for group in TEST_GROUPS:
        folder = root / "data" / group
        listed = {t.name for t in plan.group(group)}
        for old in sorted(folder.glob("*.in")) + sorted(folder.glob("*.ans")):
            if old.stem in listed:
                continue
            if group == "secret":
                old.unlink()
            elif old.suffix == ".in":
                raise PackageError(f"{old}: not in the test plan {PLAN}; add it to {group} or delete it")
    for path, data in made.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    solver = reference_solver(root)
    inputs = [root / "data" / t.group / f"{t.name}.in" for t in plan.tests]
    for input_path in inputs:
        if progress:
            progress(f"solving {input_path.parent.name}/{input_path.name}")
        input_path.with_suffix(".ans").write_bytes(solve_input(solver, input_path))
    return inputs
