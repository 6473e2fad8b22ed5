"""What ``judge problem verify`` found: one StepReport per step, one PackageReport per package.

A step passes when it has no failure. Warnings (a slow accepted run, a package without
problem-specific mutations) are shown but never fail a package. Progress goes to a ``Progress``
sink so the CLI can draw rich progress bars while the library stays free of any display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Failure:
    """One failed check: ``test`` names what failed (``secret/07-maze``, ``wrong_answer/dfs.py``,
    ``problem.yaml``), ``reason`` says why in one line."""

    test: str
    reason: str


@dataclass
class StepReport:
    """The outcome of one verification step.

    number: 1 … 7; title: short name; checked: how many items the step looked at (tests, outputs,
    submissions); failures / warnings / notes: what it found (notes are facts such as mutation
    counts); skipped: why the step did not run (an earlier step left nothing to check), or None.
    """

    number: int
    title: str
    checked: int = 0
    failures: list[Failure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str | None = None

    @property
    def ok(self) -> bool:
        """True when the step ran and found nothing wrong."""
        return self.skipped is None and not self.failures

    def fail(self, test: str, reason: str) -> None:
        """Record a failure of ``test`` with a one-line ``reason``."""
        self.failures.append(Failure(test, " ".join(reason.split())))


@dataclass
class PackageReport:
    """All steps run on one package (``package``: its folder name)."""

    package: str
    steps: list[StepReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every step passed: the only outcome for which the CLI exits 0."""
        return bool(self.steps) and all(step.ok for step in self.steps)

    def failures(self) -> list[tuple[StepReport, Failure]]:
        """Every failure with the step it belongs to, in step order."""
        return [(step, failure) for step in self.steps for failure in step.failures]


class Progress(Protocol):
    """Where steps report progress: ``begin`` a step of ``total`` items, ``advance`` by one."""

    def begin(self, title: str, total: int) -> None: ...

    def advance(self) -> None: ...


class NoProgress:
    """A Progress that shows nothing (library use and tests)."""

    def begin(self, title: str, total: int) -> None:
        """Ignore the start of a step."""

    def advance(self) -> None:
        """Ignore one item done."""
