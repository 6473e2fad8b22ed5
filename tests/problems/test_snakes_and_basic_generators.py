"""The generators of `snakes` and `basic`: two runs write the same bytes, and those bytes are
the inputs committed in data/secret (so the package data is reproducible)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


def generate_into(package: Path, folder: Path) -> dict[str, bytes]:
    """Run `generators/generate.py folder` of a package; return {file name: bytes}."""
    subprocess.run(
        [sys.executable, str(package / "generators" / "generate.py"), str(folder)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("problem", ["snakes", "basic"])
def test_generator_is_reproducible_and_matches_the_package(problem, tmp_path):
    package = PROBLEMS / problem
    first = generate_into(package, tmp_path / "first")
    second = generate_into(package, tmp_path / "second")
    assert first == second
    assert len(first) >= 20 and all(name.endswith(".in") for name in first)
    committed = {path.name: path.read_bytes() for path in sorted(package.glob("data/secret/*.in"))}
    assert first == committed
