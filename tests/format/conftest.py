"""Helpers for the package format tests: the fixture packages of ``tests/fixtures/packages`` (each
written here for one feature: ``oldtimer`` a legacy layout with a LaTeX statement and
``.timelimit``, ``doubling`` a scoring problem with two test groups and a partially accepted
submission, ``greeting`` a 2023-07 ``problem.yaml`` with a name map) and small packages written into
a test's own folder."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from tests.contests.conftest import db  # noqa: F401  (the fixture: a session on SQLite and PostgreSQL)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "packages"


def write_package(root: Path, problem_yaml: str, files: dict[str, str] | None = None) -> Path:
    """A package in ``root`` with ``problem_yaml`` and ``files`` (path → text), plus one sample and
    one secret test unless ``files`` gives data of its own."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "problem.yaml").write_text(textwrap.dedent(problem_yaml), encoding="utf-8")
    files = files or {}
    if not any(name.startswith("data/") for name in files):
        files = {**files, "data/sample/1.in": "1\n", "data/sample/1.ans": "1\n"}
        files |= {"data/secret/1.in": "2\n", "data/secret/1.ans": "2\n"}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture
def fixture_copy(tmp_path):
    """``fixture_copy(name)``: a copy of fixture package ``name`` in the test's folder (verify may
    write a derived ``.timelimit`` into it)."""

    def copy(name: str) -> Path:
        return Path(shutil.copytree(FIXTURES / name, tmp_path / name))

    return copy
