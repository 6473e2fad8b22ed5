"""What ``judge problem verify`` found: one StepReport per step, one PackageReport per package.

A step passes when it has no failure. Warnings (a slow accepted run, a package without
problem-specific mutations) are shown but never fail a package. A step is *skipped* (with a note
saying why) when it checks one of this judge's own conventions the package does not follow (a
reference solver, a mutations module): it does not fail the package. A step that could *not run*
(an earlier step left nothing to check, ``--no-submissions``) fails it. Progress goes to a ``Progress``
sink so the CLI can draw rich progress bars while the library stays free of any display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from judge.vocabulary import StepStatus


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
    counts); skipped: why the step does not apply to this package (a convention of this judge the
    package does not follow), or None: the step passes; not_run: why the step could not run (an
    earlier step left nothing to check, submissions not run), or None: the step fails.
    """

    number: int
    title: str
    checked: int = 0
    failures: list[Failure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str | None = None
    not_run: str | None = None

    @property
    def ok(self) -> bool:
        """True when the step found nothing wrong: it ran, or it does not apply (skipped)."""
        return self.not_run is None and not self.failures

    @property
    def status(self) -> StepStatus:
        """One word for the summary: ``FAIL`` (failures), ``not run``, ``skipped`` or ``ok``."""
        if self.failures:
            return StepStatus.FAIL
        if self.not_run is not None:
            return StepStatus.NOT_RUN
        return StepStatus.SKIPPED if self.skipped is not None else StepStatus.OK

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

    def skipped(self) -> list[StepReport]:
        """The steps that do not apply to this package (they do not fail it)."""
        return [step for step in self.steps if step.status == StepStatus.SKIPPED]


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
