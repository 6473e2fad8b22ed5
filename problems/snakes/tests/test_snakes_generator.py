"""The generator of `snakes`: two runs write the same bytes, and those bytes are the inputs
committed in data/secret (so the package data is reproducible)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_generator_is_reproducible_and_matches_the_package(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    second = generate_into(PACKAGE, tmp_path / "second")
    assert first == second
    assert len(first) >= 20 and all(name.endswith(".in") for name in first)
    committed = {path.name: path.read_bytes() for path in sorted(PACKAGE.glob("data/secret/*.in"))}
    assert first == committed
