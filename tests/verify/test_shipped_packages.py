"""Every package of ``problems/`` passes ``judge problem verify`` whole: all seven steps, its
submissions judged in the sandbox. This is where ``make test`` proves the shipped packages; one
test per package, so that a parallel run (pytest-xdist) spreads them over its workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.verify import find_packages, verify_package
from tests.slots import slot

REPO = Path(__file__).resolve().parents[2]
SHIPPED_SLOT = slot(50)  # a slot of its own: tests/verify's other tests take 51


@pytest.mark.parametrize("package", find_packages(REPO / "problems"), ids=lambda path: path.name)
def test_shipped_package_passes_every_verify_step(package):
    report = verify_package(package, slot=SHIPPED_SLOT)
    problems = [f"step {s.number} {s.title}: {s.not_run}" for s in report.steps if s.not_run is not None]
    problems += [f"step {s.number} {s.title}: {f.test}: {f.reason}" for s, f in report.failures()]
    assert report.ok and not problems, "\n".join(problems)
