"""Fixtures of the language tests: a shared Sandbox on a slot of their own, work folders the slot's
uid can reach, and trimmed copies of problem packages (samples + a few secret tests) to keep
the real judgings quick.

Slots: 70 for the direct ``judge_submission`` tests, 71 for the worker behind the API (the sandbox
tests use 900+, the end-to-end tests 40, the fault tests 60-63, ``judge problem verify`` 50-51).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sandbox import Sandbox
from tests.sandbox.conftest import needs_root, work_root  # noqa: F401  (work_root: a fixture, folders the slot's uid can reach)
from tests.slots import slot

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = Path(__file__).resolve().parent / "solutions"
BOX_SLOT = slot(70)
WORKER_SLOT = slot(71)
# secret tests kept in the trimmed lee: a single cell, mouse on the cheese, an unreachable cheese,
# a long spiral path and a 100 x 100 maze
LEE_SECRETS = ("01-one-cell", "02-mouse-on-cheese", "05-cheese-walled-in", "16-spiral", "29-random-far-walls-30pct")


@pytest.fixture(scope="session")
def box():
    """A Sandbox on slot 70, shared by the session as a judge worker shares its own."""
    with Sandbox(slot=BOX_SLOT) as sandbox:
        yield sandbox


def trimmed_package(problem: str, destination: Path, keep_secret: tuple[str, ...] | int) -> Path:
    """Copy ``problems/<problem>`` to ``destination/<problem>`` without its submissions, keeping the
    samples and only the secret tests named in ``keep_secret`` (or the first ``keep_secret`` of
    them). Returns the copy's root."""
    root = destination / problem
    shutil.copytree(REPO / "problems" / problem, root, symlinks=True, ignore=shutil.ignore_patterns("submissions"))
    secret = sorted((root / "data" / "secret").glob("*.in"))
    keep = set(keep_secret) if isinstance(keep_secret, tuple) else {p.stem for p in secret[:keep_secret]}
    for path in secret:
        if path.stem not in keep:
            path.unlink()
            path.with_suffix(".ans").unlink()
    return root


@pytest.fixture(scope="session")
def short_lee(tmp_path_factory) -> Path:
    """A trimmed copy of the ``lee`` package: 3 samples and the 5 secret tests of LEE_SECRETS."""
    return trimmed_package("lee", tmp_path_factory.mktemp("packages"), LEE_SECRETS)


def make_sum_package(root: Path, time_limit_s: int, memory_mib: int) -> Path:
    """A one-sample package ``root/sum`` (default token checker): input ``20 22``, answer ``42``."""
    package = root / "sum"
    (package / "data" / "sample").mkdir(parents=True)
    (package / "problem.yaml").write_text(f"name: sum\nlimits:\n  time_limit: {time_limit_s}\n  memory: {memory_mib}\n")
    (package / "data" / "sample" / "01.in").write_text("20 22\n")
    (package / "data" / "sample" / "01.ans").write_text("42\n")
    return package
