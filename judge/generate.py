"""``judge problem generate``: make a package's secret inputs and every judge answer.

Steps: run ``generators/generate.py OUTDIR`` (deterministic, fixed seeds), replace
``data/secret/*.in`` with what it wrote, then run the reference solver on every ``.in`` of
``data/sample`` and ``data/secret`` and write its standard output as the ``.ans``. The same package
gives the same bytes on every run (``tests/judge/test_packages_generate.py`` proves it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from judge.config import REPO_ROOT
from judge.packages import PackageError, load_package

GENERATOR = Path("generators") / "generate.py"
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


def generate(package_root: Path | str, progress: Callable[[str], None] | None = None) -> list[Path]:
    """Regenerate the secret inputs (when the package has a generator) and every ``.ans``.

    Returns the ``.in`` files solved, in order. Raises PackageError when the generator or the
    reference fails; the data folder is only rewritten once the generator has succeeded.
    """
    root = Path(package_root).resolve()
    load_package(root, require_tests=False)  # the package must parse before anything is written
    secret = root / "data" / "secret"
    generator = root / GENERATOR
    if generator.is_file():
        with tempfile.TemporaryDirectory(prefix="judge-gen-") as tmp:
            _run([sys.executable, str(generator), tmp], cwd=generator.parent, what=str(generator))
            made = sorted(Path(tmp).glob("*.in"))
            if not made:
                raise PackageError(f"{generator}: wrote no .in file")
            secret.mkdir(parents=True, exist_ok=True)
            for old in [*secret.glob("*.in"), *secret.glob("*.ans")]:
                old.unlink()
            for path in made:
                shutil.copyfile(path, secret / path.name)
    solver = reference_solver(root)
    inputs = sorted((root / "data" / "sample").glob("*.in")) + sorted(secret.glob("*.in"))
    for input_path in inputs:
        if progress:
            progress(f"{input_path.parent.name}/{input_path.name}")
        input_path.with_suffix(".ans").write_bytes(solve_input(solver, input_path))
    return inputs
