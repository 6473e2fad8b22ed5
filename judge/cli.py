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


@problem_app.command("load")
def problem_load(paths: list[Path] = typer.Argument(..., help="package folders")) -> None:
    """Store packages in the database (by content hash) so every worker can judge them."""
    from judge.config import load_settings
    from judge.db import make_engine, make_sessionmaker, upgrade
    from judge.package_store import load_problem

    settings = load_settings()
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        try:
            for path in paths:
                problem = load_problem(session, path)
                console.print(f"loaded {problem.id} ({problem.package_sha256[:12]})")
            session.commit()
        except PackageError as exc:
            fail(str(exc))


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Apply the Alembic migrations to JUDGE_DATABASE_URL."""
    from judge.config import load_settings
    from judge.db import upgrade

    url = load_settings().database_url
    try:
        upgrade(url)
    except Exception as exc:  # unreachable database, bad URL
        fail(f"cannot migrate {url}: {exc}")
    console.print("database is up to date")


@app.command()
def worker(
    slot: int = typer.Option(0, help="first sandbox slot of this host (each slot has its own uid and cgroups)"),
    count: int = typer.Option(1, help="worker processes to start (slots slot … slot+count-1)"),
) -> None:
    """Start judge workers alone (they need only JUDGE_DATABASE_URL)."""
    from judge.config import load_settings
    from judge.worker import run_worker

    if count == 1:
        run_worker(load_settings(), slot)
        return
    _wait_workers(_spawn_workers(slot, count))


def _spawn_workers(first_slot: int, count: int) -> list:
    import subprocess
    import sys

    return [subprocess.Popen([sys.executable, "-m", "judge", "worker", "--slot", str(first_slot + i)])
            for i in range(count)]


def _wait_workers(processes: list) -> None:
    import signal

    def stop(*_):
        for p in processes:
            p.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    try:
        for p in processes:
            p.wait()
    except KeyboardInterrupt:
        stop()
        for p in processes:
            p.wait()


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="TCP port"),
    workers: int = typer.Option(-1, help="judge worker processes on this host (-1: one per core; 0: none)"),
    load: bool = typer.Option(True, help="load every package of JUDGE_PROBLEMS_DIR at start"),
) -> None:
    """Migrate the database, load the problem packages, start workers and serve the API."""
    import os

    import uvicorn

    from judge.api import create_app
    from judge.config import load_settings
    from judge.db import make_engine, make_sessionmaker, upgrade
    from judge.package_store import load_problems_dir

    settings = load_settings()
    try:
        upgrade(settings.database_url)
    except Exception as exc:
        fail(f"cannot migrate {settings.database_url}: {exc}")
    if load:
        with make_sessionmaker(make_engine(settings.database_url))() as session:
            try:
                loaded = load_problems_dir(session, settings.problems_dir)
            except PackageError as exc:
                fail(str(exc))
        console.print(f"problems: {', '.join(p.id for p in loaded) or 'none'}")
    count = (os.cpu_count() or 1) if workers < 0 else workers
    processes = _spawn_workers(0, count)
    console.print(f"{count} judge workers started; API on http://{host}:{port} (docs at /docs)")
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            p.wait()


@app.command()
def submit(
    file: Path = typer.Argument(..., help="source file"),
    problem: str = typer.Option(..., help="problem id, e.g. lee"),
    language: str = typer.Option("", help="language id (default: from the file extension)"),
    server: str = typer.Option("http://127.0.0.1:8000", envvar="JUDGE_SERVER", help="judge URL"),
    wait: bool = typer.Option(True, help="wait for the verdict and print the per-test table"),
    timeout: float = typer.Option(600, help="seconds to wait for the verdict"),
) -> None:
    """Submit FILE over HTTP, wait for the verdict, print the per-test table.

    Exit code: 0 accepted, 1 another verdict, 2 the submission could not be made.
    """
    import time

    import httpx
    from rich.table import Table

    from judge.languages import language_for_file

    if not file.is_file():
        fail(f"{file}: no such file", 2)
    if not language:
        guessed = language_for_file(file.name)
        if guessed is None:
            fail(f"cannot tell the language of {file.name}; pass --language", 2)
        language = guessed.id
    try:
        source = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{file}: not UTF-8 text", 2)
    try:
        with httpx.Client(base_url=server, timeout=30) as client:
            reply = client.post("/api/v1/submissions", json={"problem": problem, "language": language, "source": source})
            if reply.status_code != 202:
                fail(f"HTTP {reply.status_code}: {_detail(reply)}", 2)
            sid = reply.json()["id"]
            console.print(f"submission {sid} queued")
            if not wait:
                return
            deadline = time.monotonic() + timeout
            while True:
                state = client.get(f"/api/v1/submissions/{sid}").json()
                if state["status"] == "done" or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
    except httpx.HTTPError as exc:
        fail(f"cannot reach {server}: {exc}", 2)
    if state["status"] != "done":
        fail(f"submission {sid} still {state['status']} after {timeout:.0f} s", 2)
    table = Table(title=f"submission {sid}: {problem} ({language})")
    for column in ("#", "test", "verdict", "CPU ms", "wall ms", "memory KiB", "message"):
        table.add_column(column)
    for r in state["results"]:
        table.add_row(str(r["ordinal"]), r["test"], r["verdict"], str(r["time_ms"]), str(r["wall_ms"]),
                      str(r["memory_kib"]), r.get("message") or "")
    if state["results"]:
        console.print(table)
    if state.get("compile_message"):
        console.print(state["compile_message"], markup=False, highlight=False)
    if state.get("judge_message"):
        console.print(state["judge_message"], markup=False, highlight=False)
    console.print(f"verdict: [bold]{state['verdict']}[/bold]  ({state['tests_passed'] or 0}/{state['tests_total'] or 0} tests passed)")
    raise typer.Exit(0 if state["verdict"] == "AC" else 1)


def _detail(reply) -> str:
    try:
        detail = reply.json().get("detail")
    except ValueError:
        return reply.text[:200]
    return detail if isinstance(detail, str) else str(detail)[:500]
