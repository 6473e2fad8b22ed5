"""Showing ``judge problem verify`` on a terminal: rich progress bars while steps run, then one
summary table per package and every failure with its test and reason. Package, test and
submission names and reasons are plain text (``judge.terminal.plain``)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from judge.terminal import plain, visible
from judge.verify.report import PackageReport, StepReport
from judge.vocabulary import StepStatus


class RichProgress:
    """A ``judge.verify.report.Progress`` drawing one bar per step of package ``package``."""

    def __init__(self, progress: Progress, package: str):
        self.progress, self.package = progress, package
        self.task: TaskID | None = None

    def begin(self, title: str, total: int) -> None:
        """Start the bar of a new step of ``total`` items."""
        self.task = self.progress.add_task(visible(f"{self.package}: {title}"), total=total)

    def advance(self) -> None:
        """One item of the current step done."""
        if self.task is not None:
            self.progress.advance(self.task)


def progress_bars(console: Console) -> Progress:
    """The rich Progress used by the CLI (bars vanish when done; the summary stays)."""
    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def _status(step: StepReport) -> Text:
    status = step.status
    if status == StepStatus.FAIL:
        return Text(f"FAIL ({len(step.failures)})", "red")
    if status == StepStatus.NOT_RUN:
        return Text(status, "red")
    if status == StepStatus.SKIPPED:
        return Text(status, "cyan")
    return Text("ok", "green") if not step.warnings else Text("ok, warning", "yellow")


def _verdict(report: PackageReport) -> Text:
    if not report.ok:
        return Text("NOT verified", "red")
    skipped = report.skipped()
    if not skipped:
        return Text("verified", "green")
    numbers = ", ".join(str(step.number) for step in skipped)
    return Text.assemble(("verified", "green"), f" (steps {numbers} skipped: not this judge's conventions)")


def package_table(report: PackageReport) -> Table:
    """One row per step: number, title, items checked, status, notes / warnings / skip reason."""
    table = Table(title=Text.assemble(plain(f"{report.package}: "), _verdict(report)), title_justify="left")
    for column in ("#", "step", "checked", "result"):
        table.add_column(column)
    table.add_column("details", overflow="fold")  # test names must stay whole, even when narrow
    for step in report.steps:
        details = [*step.notes, *(f"warning: {w}" for w in step.warnings)]
        details += [reason for reason in (step.skipped, step.not_run) if reason]
        table.add_row(
            plain(step.number), plain(step.title), plain(step.checked), _status(step), plain("\n".join(details))
        )
    return table


def print_report(console: Console, report: PackageReport) -> None:
    """Print the summary table, then each failure as ``package step N test: reason``."""
    console.print(package_table(report))
    for step, failure in report.failures():
        line = plain(f" {report.package} step {step.number} {failure.test}: {failure.reason}")
        console.print(Text.assemble(("FAIL", "red"), line), highlight=False, soft_wrap=True)


def overall_table(reports: list[PackageReport]) -> Table:
    """One row per package (for ``--all``): verified or not, failures per step, steps skipped."""
    table = Table(title="all packages", title_justify="left")
    for column in ("package", "result", "failures by step", "skipped"):
        table.add_column(column)
    for report in reports:
        failing = ", ".join(f"{s.number}: {len(s.failures)}" for s in report.steps if s.failures)
        skipped = ", ".join(str(s.number) for s in report.skipped())
        table.add_row(plain(report.package), _verdict(report), failing or "-", skipped or "-")
    return table
