"""The ``judge`` command line (typer): serve, worker, submit, problem generate / verify / load, db upgrade."""
from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from judge.packages import PackageError

app = typer.Typer(help="Online judge for class contests.", no_args_is_help=True, add_completion=False)
problem_app = typer.Typer(help="Problem packages: generate test data, verify, load.", no_args_is_help=True)
db_app = typer.Typer(help="Database schema.", no_args_is_help=True)
app.add_typer(problem_app, name="problem")
app.add_typer(db_app, name="db")
console = Console()
err = Console(stderr=True)


def fail(message: str, code: int = 1) -> None:
    """Print ``message`` on stderr and exit with ``code`` (non-zero)."""
    err.print(f"[red]error:[/red] {message}", highlight=False)
    raise typer.Exit(code)


@problem_app.command("generate")
def problem_generate(path: Path = typer.Argument(..., help="package folder, e.g. problems/lee")) -> None:
    """Run the generators and the reference solver: rewrite data/secret and every .ans."""
    from rich.progress import Progress

    from judge.generate import generate

    if not path.is_dir():
        fail(f"{path}: no such package folder")
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"generating {path.name}", total=None)
            inputs = generate(path, progress=lambda name: progress.update(task, description=name))
    except PackageError as exc:
        fail(str(exc))
    console.print(f"{path.name}: wrote {len(inputs)} judge answers")


def main() -> None:  # pragma: no cover - console entry
    app()
