"""A package's test plan, ``generators/tests.yaml``: which tests exist, how each input is made.

Our own small shape, modelled on BAPCtools' ``generators/generators.yaml`` (where a test is a
generator command with its arguments and a ``{seed}``), without its nested groups, directories and
inline solutions. The whole format is in docs/authoring.md; in short::

    generator: generate.py        # default program in generators/ for every test below
    stress:                       # what `judge problem stress` runs, adding --size S --seed N
      args: [random]
      max_size: 100
    sample:                       # data/sample/<name>.in, in judging order
      - name: "01"                # no args: a hand-written input, kept as it is
    secret:                       # data/secret/<name>.in, in judging order
      - name: 01-one-cell
        args: [one-cell]
      - name: 02-random-walls
        args: [maze, 100, 100, 0.10]
        seed: 1010

A generated test's input is the standard output of ``python3 generators/<generator> ARGS...
[--seed SEED]`` run in ``generators/``; the same plan gives the same bytes on every run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from judge.packages import TEST_GROUPS, PackageError, _read_yaml

PLAN = Path("generators") / "tests.yaml"
DEFAULT_GENERATOR = "generate.py"
TEST_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
GENERATOR_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}\.py$")
GENERATOR_TIMEOUT_S = 60
DEFAULT_MAX_SIZE = 100


@dataclass(frozen=True)
class PlannedTest:
    """One test of the plan: ``group`` (``sample`` or ``secret``), file stem ``name``; ``args``
    empty for a hand-written input (kept in ``data/<group>/<name>.in``), else the generator's
    arguments; ``seed`` given to the generator as ``--seed SEED`` (None: no seed argument)."""

    group: str
    name: str
    generator: str
    args: tuple[str, ...]
    seed: int | None

    @property
    def hand_written(self) -> bool:
        """True when the input is written by hand, not by a generator."""
        return not self.args

    def argv(self) -> list[str]:
        """The generator's arguments: ``ARGS... [--seed SEED]``."""
        return [*self.args, *(["--seed", str(self.seed)] if self.seed is not None else [])]


@dataclass(frozen=True)
class StressPlan:
    """How ``judge problem stress`` draws random inputs: ``generator ARGS... --size S --seed N``
    for sizes 1 .. ``max_size`` (the generator decides what a size means: cells, elements, N)."""

    generator: str
    args: tuple[str, ...]
    max_size: int


@dataclass(frozen=True)
class TestPlan:
    """A parsed ``generators/tests.yaml``: ``path`` of the file, ``tests`` samples first then
    secret, each in the plan's order; ``stress`` None when the plan has no ``stress`` entry."""

    path: Path
    tests: tuple[PlannedTest, ...]
    stress: StressPlan | None

    def group(self, group: str) -> list[PlannedTest]:
        """The tests of ``group`` in plan order."""
        return [t for t in self.tests if t.group == group]


def _scalar_args(value, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or any(isinstance(a, (dict, list)) or a is None for a in value):
        raise PackageError(f"{where}: args must be a list of words or numbers")
    return tuple(str(a).lower() if isinstance(a, bool) else str(a) for a in value)


def _generator(value, default: str, where: str) -> str:
    name = default if value is None else value
    if not isinstance(name, str) or not GENERATOR_NAME.match(name):
        raise PackageError(f"{where}: generator must be a .py file name in generators/, not {name!r}")
    return name


def _planned(entry, group: str, default: str, where: str) -> PlannedTest:
    if not isinstance(entry, dict):
        raise PackageError(f"{where}: each test is a mapping with name, and args / seed / generator")
    unknown = set(entry) - {"name", "args", "seed", "generator"}
    if unknown:
        raise PackageError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    name = entry.get("name")
    if not isinstance(name, str) or not TEST_NAME.match(name):
        raise PackageError(f"{where}: name must be a file stem (letters, digits, - _ .), not {name!r}")
    seed = entry.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise PackageError(f"{where} ({name}): seed must be a whole number >= 0, not {seed!r}")
    args = _scalar_args(entry.get("args"), f"{where} ({name})")
    if not args and (seed is not None or entry.get("generator") is not None):
        raise PackageError(f"{where} ({name}): a seed or generator needs args (no args: a hand-written input)")
    return PlannedTest(group, name, _generator(entry.get("generator"), default, where), args, seed)


def _stress(value, default: str, path: Path) -> StressPlan | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"args", "generator", "max_size"}:
        raise PackageError(f"{path}: stress is a mapping of args, generator and max_size")
    max_size = value.get("max_size", DEFAULT_MAX_SIZE)
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
        raise PackageError(f"{path}: stress.max_size must be a whole number >= 1, not {max_size!r}")
    args = _scalar_args(value.get("args"), f"{path}: stress")
    return StressPlan(_generator(value.get("generator"), default, f"{path}: stress"), args, max_size)


def read_plan(package_root: Path | str) -> TestPlan | None:
    """The test plan of the package in ``package_root``, or None when it has no ``generators/tests.yaml``.

    Raises PackageError for a file that is not YAML, an unknown key, a bad name, seed, generator
    or argument list, or a name used twice in one group.
    """
    path = Path(package_root) / PLAN
    if not path.is_file():
        return None
    data = _read_yaml(path)
    unknown = set(data) - {"generator", "stress", *TEST_GROUPS}
    if unknown:
        raise PackageError(f"{path}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    default = _generator(data.get("generator"), DEFAULT_GENERATOR, str(path))
    tests: list[PlannedTest] = []
    for group in TEST_GROUPS:
        entries = data.get(group) or []
        if not isinstance(entries, list):
            raise PackageError(f"{path}: {group} must be a list of tests")
        names: set[str] = set()
        for number, entry in enumerate(entries, start=1):
            test = _planned(entry, group, default, f"{path}: {group} test {number}")
            if test.name in names:
                raise PackageError(f"{path}: {group} test {test.name!r} is listed twice")
            names.add(test.name)
            tests.append(test)
    return TestPlan(path, tuple(tests), _stress(data.get("stress"), default, path))


def run_generator(package_root: Path, generator: str, argv: list[str]) -> bytes:
    """Standard output of ``python3 generators/<generator> ARGV...`` run in ``generators/``.

    Raises PackageError when the program is missing, fails, runs over GENERATOR_TIMEOUT_S seconds
    or prints nothing.
    """
    program = Path(package_root) / "generators" / generator
    what = f"generators/{generator} {' '.join(argv)}"
    if not program.is_file():
        raise PackageError(f"{what}: no such generator")
    try:
        proc = subprocess.run(
            [sys.executable, program.name, *argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            cwd=program.parent,
            timeout=GENERATOR_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as exc:
        raise PackageError(f"{what}: still running after {GENERATOR_TIMEOUT_S} s") from exc
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise PackageError(f"{what}: exit code {proc.returncode}: {' / '.join(tail)}")
    if not proc.stdout:
        raise PackageError(f"{what}: printed no input")
    return proc.stdout


def planned_input(package_root: Path, test: PlannedTest) -> bytes:
    """The input bytes of a generated test (PackageError from ``run_generator``)."""
    return run_generator(package_root, test.generator, test.argv())


def keep_test(package_root: Path, name: str, input_bytes: bytes) -> str:
    """Add a hand-written secret test to the plan: ``data/secret/<NN-name>.in`` with ``input_bytes``
    and an entry ``- name: NN-name`` at the end of the plan's ``secret`` list (NN the next number,
    so it is judged last). Returns the stem ``NN-name``.

    The plan's ``secret`` list must be its last key (as ``judge problem new`` writes it): the entry is
    appended as text so the file's comments stay. Raises PackageError when there is no plan, the
    name is not a file stem, it is taken, or the appended plan does not read back with the test last.
    """
    root = Path(package_root)
    plan = read_plan(root)
    if plan is None:
        raise PackageError(f"{root / PLAN}: missing (run `judge problem new` or write one)")
    if not TEST_NAME.match(name):
        raise PackageError(f"--keep {name!r}: a test name is letters, digits, - _ . (at most 64)")
    secret = plan.group("secret")
    numbers = [int(m.group(1)) for t in secret if (m := re.match(r"^(\d+)-", t.name))]
    stem = f"{max(numbers, default=0) + 1:02d}-{name}"
    if any(re.sub(r"^\d+-", "", t.name) == name for t in secret):
        raise PackageError(f"{plan.path}: a secret test {name!r} exists")
    original = plan.path.read_text(encoding="utf-8")
    text = original
    if not re.search(r"^secret:", text, re.MULTILINE):
        text = text.rstrip("\n") + "\nsecret:\n"
    text = re.sub(r"^secret:\s*\[\]\s*$", "secret:", text, flags=re.MULTILINE)
    plan.path.write_text(text.rstrip("\n") + f"\n  - name: {stem}  # kept by judge problem stress\n", encoding="utf-8")
    try:
        reread = read_plan(root)
    except PackageError:
        reread = None
    last = reread.group("secret")[-1:] if reread else []
    if [(t.name, t.hand_written) for t in last] != [(stem, True)]:
        plan.path.write_text(original, encoding="utf-8")
        raise PackageError(f"{plan.path}: secret must be the plan's last key to add a test to it")
    target = root / "data" / "secret" / f"{stem}.in"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(input_bytes)
    return stem
