"""The ``judge`` command line (typer): serve, worker, submit, problem generate / verify / load / import / export /
unload, new / stress / time, db upgrade,
user add / import / list / password / deactivate / reactivate, class create / list / show / add / import /
remove / delete (``judge.cli_classes``), contest create / list / scoreboard / grades / unfreeze / archive / delete /
rejudge / export / import (ICPC contest packages); the jury's contest print / similarity / sources, problem
similarity and user slips are in ``judge.cli_jury``; clar list / ask / answer / announce (clarifications,
over HTTP as ``submit``: ``judge clar --user NAME ask …``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from judge.packages import PackageError
from judge.terminal import errors, out, plain, say, table, visible


def _commands(help_text: str, add_completion: bool = True) -> typer.Typer:
    """A command group whose usage errors print as click prints them: one plain ``Error: ...`` line,
    not a Rich panel wrapped at 80 columns."""
    return typer.Typer(help=help_text, no_args_is_help=True, rich_markup_mode=None, add_completion=add_completion)


app = _commands("Online judge for class contests.", add_completion=False)
problem_app = _commands("Problem packages: generate test data, verify, load, import, export, unload.")
db_app = _commands("Database schema.")
app.add_typer(problem_app, name="problem")
app.add_typer(db_app, name="db")
user_app = _commands("Accounts: add one, import a class from CSV, list, reset a password, deactivate, reactivate.")
contest_app = _commands(
    "Contests: create, list, scoreboard, grades, unfreeze, archive, delete, rejudge, export, import."
)
app.add_typer(user_app, name="user")
app.add_typer(contest_app, name="contest")
clar_app = _commands("Clarifications of a contest over HTTP: list, ask, answer, announce (--user or --token first).")
app.add_typer(clar_app, name="clar")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on stderr (as plain text: ``judge.terminal.plain``) and exit with ``code`` (non-zero)."""
    from rich.text import Text

    errors().print(Text.assemble(("error:", "red"), " ", plain(message)))
    raise typer.Exit(code)


@problem_app.command("generate")
def problem_generate(path: Path = typer.Argument(..., help="package folder, e.g. problems/lee")) -> None:
    """Run the generators and the reference solver: rewrite data/secret and every .ans."""
    from rich.markup import escape
    from rich.progress import Progress

    from judge.generate import generate

    if not path.is_dir():
        fail(f"{path}: no such package folder")
    try:
        with Progress(console=out(), transient=True) as progress:
            task = progress.add_task(escape(visible(f"generating {path.name}")), total=None)
            inputs = generate(path, progress=lambda name: progress.update(task, description=escape(visible(name))))
    except PackageError as exc:
        fail(str(exc))
    say(f"{path.name}: wrote {len(inputs)} judge answers")


@problem_app.command("new")
def problem_new(
    problem_id: str = typer.Argument(..., help="the new problem's id (a-z, 0-9, - and _), e.g. knight"),
    language: list[str] = typer.Option(["en"], "--language", help="a statement language (repeat: en, sk)"),
    checker: str = typer.Option("default", help="default (Kattis default checker with flags) or custom"),
    name: str = typer.Option("", help="the problem's title (default: from the id)"),
    problems_dir: Path = typer.Option(None, "--dir", help="the problems folder (default: JUDGE_PROBLEMS_DIR)"),
) -> None:
    """Create a complete package that verifies as it stands (see docs/authoring.md)."""
    from judge.config import load_settings
    from judge.scaffold import new_problem

    folder = problems_dir or load_settings().problems_dir
    try:
        root = new_problem(folder, problem_id, languages=tuple(language), checker=checker, name=name or None)
    except PackageError as exc:
        fail(str(exc))
    say(f"created {root} and its reference {root.parent.parent / 'reference' / (problem_id + '.py')}")
    say(f"next: write the statement, the reference, the generator and tests.yaml, then `judge problem generate {root}`")


def _package_folder(problem: str) -> Path:
    """A package folder from a path (``problems/lee``) or an id in JUDGE_PROBLEMS_DIR (``lee``)."""
    from judge.config import load_settings

    path = Path(problem)
    if path.is_dir():
        return path
    folder = load_settings().problems_dir / problem
    if "/" in problem or not folder.is_dir():
        fail(f"{problem}: no such package folder (give a folder or an id in {load_settings().problems_dir})", 2)
    return folder


SHOWN_LINES = 30


def _shown(data: bytes) -> str:
    """Up to SHOWN_LINES lines of ``data`` for the terminal, with a note of what was left out."""
    lines = data.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    note = [f"... ({len(lines) - SHOWN_LINES} more lines)"] if len(lines) > SHOWN_LINES else []
    return "\n".join([line[:200] for line in lines[:SHOWN_LINES]] + note) or "(empty)"


@problem_app.command("stress")
def problem_stress(
    problem: str = typer.Argument(..., help="package id or folder, e.g. lee or problems/lee"),
    submission: Path = typer.Argument(..., help="the submission file to test, e.g. wrong.py"),
    budget_s: float = typer.Option(60.0, "--budget-s", min=0, help="seconds to search for a failing input"),
    seed: int = typer.Option(1, help="seed of the random cases (same seed and budget, same cases)"),
    keep: str = typer.Option("", help="add the smallest failing input to the test plan as secret test NAME"),
    slot: int = typer.Option(50, help="sandbox slot (50+: clear of workers and tests)"),
) -> None:
    """Judge a submission on random inputs of growing size; print the smallest failing input,
    the expected and received outputs and the checker's message (see docs/authoring.md)."""
    from judge.stress import stress
    from judge.testplan import keep_test

    root = _package_folder(problem)
    if not submission.is_file():
        fail(f"{submission}: no such submission file", 2)
    try:
        result = stress(root, submission, budget_s=budget_s, seed=seed, slot=slot)
    except PackageError as exc:
        fail(str(exc))
    smallest, found = result.smallest, result.found
    if smallest is None or found is None:
        say(f"{root.name}: {result.cases} random cases, all accepted (seed {seed}, {budget_s:g} s)")
        raise typer.Exit(0)
    say(
        f"{root.name}: {smallest.verdict} on random case {result.cases} (size {found.size}); shrunk from "
        f"{len(found.input)} to {len(smallest.input)} bytes in {result.shrink_runs} runs"
    )
    for title, data in (("input", smallest.input), ("expected (reference)", smallest.expected)):
        say(f"--- {title}:")
        say(_shown(data))
    say("--- received (submission):")
    say(_shown(smallest.received))
    say(f"--- {smallest.verdict}: {smallest.message or '(no message)'}")
    if keep:
        try:
            stem = keep_test(root, keep, smallest.input)
        except PackageError as exc:
            fail(str(exc))
        (root / "data" / "secret" / f"{stem}.ans").write_bytes(smallest.expected)
        say(f"kept as data/secret/{stem}.in (listed in generators/tests.yaml)")
    raise typer.Exit(1)


@problem_app.command("time")
def problem_time(
    problem: str = typer.Argument(..., help="package id or folder, e.g. lee or problems/lee"),
    write: bool = typer.Option(False, "--write", help="write the derived limit into problem.yaml"),
    slot: int = typer.Option(50, help="sandbox slot (50+: clear of workers and tests)"),
) -> None:
    """The time limit from the accepted submissions, by the Kattis rule: slowest accepted run x
    ac_to_time_limit (2), rounded up to whole seconds (see docs/authoring.md)."""
    from judge.timelimit import derive_time_limit, write_time_limit

    root = _package_folder(problem)
    try:
        report = derive_time_limit(root, slot=slot)
    except PackageError as exc:
        fail(str(exc))
    say(f"{root.name}: slowest accepted run {report.slowest_ms} ms CPU ({report.slowest_where})")
    say(
        f"time limit {report.time_limit_s:g} s (problem.yaml has {report.current_s:g} s); "
        f"safety margin {report.tle_bound_s:g} s"
    )
    for warning in report.warnings:
        say(f"warning: {warning}")
    if write:
        try:
            write_time_limit(root, report.time_limit_s)
        except PackageError as exc:
            fail(str(exc))
        say(f"wrote limits.time_limit: {report.time_limit_s:g} to {root / 'problem.yaml'}")


@problem_app.command("verify")
def problem_verify(
    path: Path = typer.Argument(None, help="package folder, e.g. problems/lee"),
    all_packages: bool = typer.Option(False, "--all", help="verify every package of JUDGE_PROBLEMS_DIR"),
    slot: int = typer.Option(50, help="sandbox slot for the submissions (50+: clear of workers and tests)"),
    submissions: bool = typer.Option(True, help="run the submissions in the sandbox (steps 6 and 7)"),
) -> None:
    """Prove packages right: layout, input validation, .ans vs reference, checker audit,
    submission verdicts in the sandbox, timing. Exit 0 only if every step passes."""
    from judge.config import load_settings
    from judge.verify import find_packages, verify_package
    from judge.verify.display import RichProgress, overall_table, print_report, progress_bars

    if all_packages == (path is not None):
        fail("give a package folder or --all (not both)", 2)
    if all_packages:
        problems_dir = load_settings().problems_dir
        roots = find_packages(problems_dir) if problems_dir.is_dir() else []
        if not roots:
            fail(f"{problems_dir}: no package folder (none holds a problem.yaml)", 2)
    elif not path.is_dir():
        fail(f"{path}: no such package folder", 2)
    else:
        roots = [path]
    reports = []
    for root in roots:
        with progress_bars(out()) as bars:
            reports.append(
                verify_package(root, slot=slot, progress=RichProgress(bars, root.name), run_submissions=submissions)
            )
        print_report(out(), reports[-1])
    if len(reports) > 1:
        out().print(overall_table(reports))
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)


def main() -> None:  # pragma: no cover - console entry
    app()


@problem_app.command("load")
def problem_load(paths: list[Path] = typer.Argument(..., help="package folders")) -> None:
    """Store packages in the database (by content hash) so every worker can judge them."""
    from judge.config import load_settings
    from judge.db import make_engine, make_sessionmaker, upgrade
    from judge.package_store import load_problem
    from judge.packages import load_package

    settings = load_settings()
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        try:
            for path in paths:
                problem = load_problem(session, path)
                say(f"loaded {problem.id} ({problem.package_sha256[:12]}), time limit {problem.time_limit_ms} ms")
                for warning in load_package(path).warnings:  # what the package gives that is not read
                    say(f"warning: {warning}")
            session.commit()
        except PackageError as exc:
            fail(str(exc))


@problem_app.command("import")
def problem_import(
    file: Path = typer.Argument(..., help="a package zip (.zip or .kpp): problem.yaml at its top or in one top folder"),
    into: Path = typer.Option(None, help="folder to unpack into (default: JUDGE_PROBLEMS_DIR)"),
    replace: bool = typer.Option(False, help="replace a package folder of the same id"),
    load: bool = typer.Option(True, help="also store the package in the database"),
) -> None:
    """Unpack a package zip safely into <folder>/<id> and load it (see judge.package_zip)."""
    from judge.config import load_settings
    from judge.package_store import load_problem
    from judge.package_zip import import_zip

    settings = load_settings()
    if not file.is_file():
        fail(f"{file}: no such file")
    try:
        size = file.stat().st_size
        if size > settings.max_package_bytes:
            fail(f"{file}: {size} bytes; a package zip may have at most {settings.max_package_bytes}")
        with open(file, "rb") as data:
            root = import_zip(
                data, file.name, into or settings.problems_dir, max_bytes=settings.max_package_bytes, replace=replace
            )
    except PackageError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{file}: {exc.strerror or exc}")
    say(f"unpacked {root.name} into {root}")
    if load:
        with _db() as session:
            try:
                problem = load_problem(session, root)
            except PackageError as exc:
                fail(str(exc))
            session.commit()
            say(f"loaded {problem.id} ({problem.package_sha256[:12]})")


@problem_app.command("export")
def problem_export(
    problem: str = typer.Argument(..., help="a problem id (its folder in JUDGE_PROBLEMS_DIR) or a package folder"),
    output: Path = typer.Option(..., "-o", "--output", help="the zip file to write"),
) -> None:
    """Write a package as a zip problemtools' verifyproblem accepts (see judge.package_zip)."""
    from judge.config import load_settings
    from judge.package_zip import export_zip

    root = Path(problem) if Path(problem).is_dir() else load_settings().problems_dir / problem
    if not (root / "problem.yaml").is_file():
        fail(f"{problem}: no package folder (neither a folder with a problem.yaml nor one in JUDGE_PROBLEMS_DIR)")
    if output.exists():
        fail(f"{output}: already exists")
    try:
        with open(output, "xb") as target:
            report = export_zip(root, target)
    except PackageError as exc:
        output.unlink(missing_ok=True)
        fail(str(exc))
    except OSError as exc:
        fail(f"{output}: {exc.strerror or exc}")
    converted = f" as a {report.files}-file 2023-07-draft package" if report.converted else f" ({report.files} files)"
    say(f"wrote {report.problem_id} to {output}{converted}")
    if report.left_out:
        say(f"left out (they use file I/O, which the format has not): {', '.join(report.left_out)}")


@problem_app.command("unload")
def problem_unload(
    problem: str = typer.Argument(..., help="problem id"),
    undo: bool = typer.Option(False, "--undo", help="bring it back"),
) -> None:
    """Put a problem away: left out of problem lists, hidden from students, closed to submissions;
    its past submissions and results are kept (``judge problem load`` or --undo brings it back)."""
    from judge.package_store import unload_problem

    with _db() as session:
        if unload_problem(session, problem, undo=undo) is None:
            fail(f"no problem {problem!r}")
    say(f"problem {problem} {'loaded again' if undo else 'unloaded: hidden, closed to submissions, its results kept'}")


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
    say("database is up to date")


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
    """Start ``count`` worker processes that get SIGTERM when this process dies, however it dies
    (uvicorn re-raises SIGTERM after its shutdown, so a ``finally`` here is not enough)."""
    import subprocess
    import sys

    from judge.serving import die_with_parent

    return [
        subprocess.Popen(
            [sys.executable, "-m", "judge", "worker", "--slot", str(first_slot + i)], preexec_fn=die_with_parent
        )
        for i in range(count)
    ]


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
    api_processes: int = typer.Option(
        1,
        min=1,
        help="API processes sharing the port (uvicorn workers); start-up work (migrations, packages, "
        "judge workers) is done once, by this process, before they start",
    ),
) -> None:
    """Listen on HOST:PORT, migrate the database, load the problem packages, start workers and serve
    the API. A port in use stops it at once (exit 1), before anything else.

    With --api-processes N, N processes answer HTTP on one port; every limit (submission rate, failed
    logins, open streams) and every event stream holds across them: they share the database.
    """
    import os

    from judge.config import load_settings
    from judge.db import make_engine, make_sessionmaker, upgrade
    from judge.package_store import load_problems_dir
    from judge.serving import CannotListen, listening_socket, serve_api

    settings = load_settings()
    try:  # first of all: on a port in use nothing is migrated, created or started
        sock = listening_socket(host, port)
    except CannotListen as exc:
        fail(str(exc))
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
        say(f"problems: {', '.join(p.id for p in loaded) or 'none'}")
    _first_admin(settings.database_url)
    count = (os.cpu_count() or 1) if workers < 0 else workers
    processes = _spawn_workers(0, count)
    address = f"[{host}]" if ":" in host else host
    say(
        f"{count} judge workers started; API on http://{address}:{sock.getsockname()[1]} (docs at /docs), "
        f"{api_processes} process(es)"
    )
    try:
        serve_api(settings, sock, api_processes)
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
    user: str = typer.Option("", envvar="JUDGE_USER", help="log in as this user (asks the password)"),
    password: str = typer.Option("", envvar="JUDGE_PASSWORD", help="password of --user"),
    token: str = typer.Option("", envvar="JUDGE_TOKEN", help="bearer token instead of --user"),
    contest: int | None = typer.Option(None, help="contest id; --problem is then the letter (A, B, ...)"),
) -> None:
    """Submit FILE over HTTP, wait for the verdict, print the per-test table.

    Exit code: 0 accepted, 1 another verdict, 2 the submission could not be made.
    """
    import time

    import httpx
    from rich.text import Text

    from judge.languages import NoLanguage, Python2Program, detect_program
    from judge.vocabulary import Status, Verdict

    if not file.is_file():
        fail(f"{file}: no such file", 2)
    try:
        source = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{file}: not UTF-8 text", 2)
    if not language:
        try:
            language = detect_program({file.name: source}).language.id
        except Python2Program as exc:
            fail(f"{file.name}: {exc}", 2)
        except NoLanguage:
            fail(f"cannot tell the language of {file.name}; pass --language", 2)
    password = _login_password(user, password, token)
    try:
        with httpx.Client(base_url=server, timeout=30) as client:
            _log_in(client, user, password, token)
            body = {"problem": problem, "language": language, "source": source, "contest": contest}
            reply = client.post("/api/v1/submissions", json=body)
            if reply.status_code != 202:
                fail(_refusal(reply), 2)
            sid = _reply_json(reply, "id")["id"]
            say(f"submission {sid} queued")
            if not wait:
                return
            deadline = time.monotonic() + timeout
            unchanged: dict[str, str] = {}  # If-None-Match with the last copy's ETag: 304 while nothing changed
            while True:
                reply = client.get(f"/api/v1/submissions/{sid}", headers=unchanged)
                if reply.status_code not in (200, 304):  # e.g. a proxy's 502 while the server restarts
                    fail(
                        f"submission {sid} is queued, but waiting for it failed: HTTP {reply.status_code}: "
                        f"{_detail(reply)}",
                        2,
                    )
                if reply.status_code == 200:
                    state = _reply_json(reply, "status")
                    unchanged = {"If-None-Match": reply.headers["etag"]} if "etag" in reply.headers else {}
                if state["status"] == Status.DONE or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
    except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL is no HTTPError
        fail(f"cannot reach {server}: {exc}", 2)
    if state["status"] != Status.DONE:
        fail(f"submission {sid} still {state['status']} after {timeout:.0f} s", 2)
    rows = [
        # hidden figures (secret tests) are None
        [
            r["ordinal"],
            r["test"],
            r["verdict"],
            *("-" if r.get(k) is None else r[k] for k in FIGURES),
            r.get("message") or "",
        ]
        for r in state["results"]
    ]
    if rows:
        out().print(table(f"submission {sid}: {problem} ({language})", RESULT_COLUMNS, rows))
        if any(r.get(k) is None for r in state["results"] for k in FIGURES):
            say(HIDDEN_FIGURES)
    if state.get("compile_message"):
        say(state["compile_message"])
    if state.get("judge_message"):
        say(state["judge_message"])
    passed = f"  ({state['tests_passed'] or 0}/{state['tests_total'] or 0} tests passed)"
    out().print(Text.assemble("verdict: ", plain(state["verdict"], "bold"), plain(passed)))
    raise typer.Exit(0 if state["verdict"] == Verdict.AC else 1)


def _login_password(user: str, password: str, token: str) -> str:
    """The password to log in as ``user`` with: ``password``, or asked at the prompt; none with a
    ``token``. Exits 2 when neither a user nor a token is given."""
    if not token and not user:
        fail("log in: --user NAME (and --password or the prompt), or --token / JUDGE_TOKEN", 2)
    if not token and not password:
        password = typer.prompt(f"password of {user}", hide_input=True)
    return password


def _log_in(client, user: str, password: str, token: str) -> None:
    """Make ``client`` (an ``httpx.Client``) send ``token``, or the token ``POST /api/v1/auth/token``
    gives ``user`` for ``password``; exits 2 when the login is refused."""
    if not token:
        reply = client.post("/api/v1/auth/token", data={"username": user, "password": password})
        if reply.status_code != 200:
            fail(f"cannot log in as {user}: HTTP {reply.status_code}: {_detail(reply)}", 2)
        token = _reply_json(reply, "access_token")["access_token"]
    client.headers["Authorization"] = f"Bearer {token}"


RESULT_COLUMNS = ("#", "test", "verdict", "CPU ms", "wall ms", "memory KiB", "message")
FIGURES = ("time_ms", "wall_ms", "memory_kib")
# why a secret test's figures read "-" (a program could spell out a secret input through them)
HIDDEN_FIGURES = "-: a secret test shows its verdict only; its CPU time, wall time and memory stay with the jury"


def _reply_json(reply, key: str) -> dict:
    """The JSON object of a judge ``reply`` that holds ``key``; anything else (a proxy's HTML page,
    another server) prints what came and exits 2."""
    try:
        data = reply.json()
    except ValueError:
        data = None
    if not isinstance(data, dict) or key not in data:
        fail(f"unexpected answer from the server (HTTP {reply.status_code}): {reply.text[:200]!r}", 2)
    return data


def _refusal(reply) -> str:
    """``HTTP <status>: <reason>`` of a refused ``reply``, with the wait its ``Retry-After`` gives
    unless the reason says it already (every 429 of this server does: ``judge.throttle.with_wait``)."""
    detail, wait = _detail(reply), reply.headers.get("retry-after")
    if wait and f"in {wait} s" not in detail:
        detail += f" (retry after {wait} s)"
    return f"HTTP {reply.status_code}: {detail}"


def _detail(reply) -> str:
    try:
        detail = reply.json().get("detail")
    except ValueError:
        return reply.text[:200]
    return detail if isinstance(detail, str) else str(detail)[:500]


# -- accounts and contests: thin commands over judge.auth, judge.contests, judge.scoreboard --
def _db():
    """A session on the migrated database of JUDGE_DATABASE_URL."""
    from judge.config import load_settings
    from judge.db import make_engine, make_sessionmaker, upgrade

    url = load_settings().database_url
    upgrade(url)
    return make_sessionmaker(make_engine(url))()


def _first_admin(url: str) -> None:
    """On an empty database, create ``admin`` and print its password once."""
    from judge.auth import ensure_admin
    from judge.db import make_engine, make_sessionmaker

    with make_sessionmaker(make_engine(url))() as session:
        password = ensure_admin(session)
    if password:
        say(f"created user admin, password {password} (shown once; `judge user password admin` sets a new one)")


def _store_accounts(session, created: list, passwords: Path | None = None) -> None:
    """Write the generated passwords of ``created`` ((user, password or None) pairs) to the new file
    ``passwords`` (if given), print them, and only then commit: a password is never lost for an
    account that exists. If the commit fails, exits 1 saying nobody was created."""
    from sqlalchemy.exc import SQLAlchemyError

    if passwords:
        _write_passwords(passwords, created)
    rows = [(user.name, user.display_name, user.role, password or "(as given)") for user, password in created]
    out().print(table("new accounts (generated passwords are shown only now)", PASSWORD_COLUMNS, rows))
    try:
        session.commit()
    except SQLAlchemyError as exc:
        fail(f"cannot store the accounts ({type(exc).__name__}); nobody was created, the passwords above are void")


PASSWORD_COLUMNS = ("user", "display name", "role", "password")


def _write_passwords(path: Path, created: list) -> None:
    """Write ``name<TAB>password`` of each account with a generated password to ``path`` (a new
    file, mode 600; not a spreadsheet file: a password may start with ``-``). Exits 1, having
    written nothing, if the file exists or cannot be written."""
    import os

    lines = "".join(f"{user.name}\t{password}\n" for user, password in created if password)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(descriptor, "w", encoding="utf-8") as file:
            file.write(lines)
    except OSError as exc:
        fail(f"{path}: cannot write the passwords ({exc.strerror}); nobody was imported")


@user_app.command("add")
def user_add(
    name: str = typer.Argument(..., help="login name (letters, digits, _ . -)"),
    role: str = typer.Option("student", help="admin, teacher or student"),
    display_name: str = typer.Option("", help="name shown on scoreboards (default: NAME)"),
    password: str = typer.Option("", help="password (default: generated and printed once)"),
) -> None:
    """Create one account."""
    from judge.auth import AccountError, create_user

    with _db() as session:
        try:
            created = create_user(session, name, role, display_name or None, password or None)
        except AccountError as exc:
            fail(str(exc))
        _store_accounts(session, [created])


@user_app.command("import")
def user_import(
    file: Path = typer.Argument(..., help="CSV: name, display name, optional password (a header row is skipped)"),
    role: str = typer.Option("student", help="role of every imported account"),
    passwords: Path = typer.Option(
        None, help="also write the generated passwords to this new file (mode 600) before anyone is imported"
    ),
) -> None:
    """Create a whole class from a CSV file, all or none; generated passwords are printed once
    (and written to --passwords first)."""
    from judge.auth import AccountError
    from judge.users import add_accounts, parse_class_csv

    if not file.is_file():
        fail(f"{file}: no such file")
    try:
        text = file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 CSV")
    try:
        accounts = parse_class_csv(text, role)
    except AccountError as exc:
        fail(f"{file}, {exc}; nobody was imported")
    with _db() as session:
        try:  # every password hashed before the write lock (judge.users.add_accounts)
            created = add_accounts(session, accounts)
        except AccountError as exc:
            fail(f"{file}, {exc}; nobody was imported")
        _store_accounts(session, created, passwords)


@user_app.command("list")
def user_list() -> None:
    """Every account: name, role, display name, and ``deactivated`` for a deactivated one."""
    from sqlalchemy import select

    from judge.models import User

    with _db() as session:
        for user in session.scalars(select(User).order_by(User.role, User.name)):
            say(f"{user.name}\t{user.role}\t{user.display_name}" + ("" if user.active else "\tdeactivated"))


@user_app.command("password")
def user_password(
    name: str = typer.Argument(...),
    password: str = typer.Option("", help="new password (default: generated and printed once)"),
) -> None:
    """Set a new password (and end the user's tokens)."""
    from sqlalchemy import select

    from judge.auth import same_name, set_password
    from judge.models import User

    with _db() as session:
        user = session.scalar(select(User).where(same_name(name)))
        if user is None:
            fail(f"no user {name!r}")
        generated = set_password(session, user, password or None)
        session.commit()
    say(f"new password of {user.name}: {generated}" if generated else f"password of {user.name} changed")


@contest_app.command("create")
def contest_create(
    name: str = typer.Argument(..., help="contest name"),
    problems: str = typer.Option(..., help="problem ids in letter order, id:points for IOI points: lee,snakes:50"),
    start: str = typer.Option("now", help="now, +10m, +1h, or ISO 8601 (local time unless a zone is given)"),
    duration: int = typer.Option(120, min=1, help="length in minutes"),
    freeze: int = typer.Option(
        0, min=0, help="freeze the public scoreboard this many minutes before the end (0: never)"
    ),
    scoring: str = typer.Option("icpc", help="icpc or ioi"),
    participants: str = typer.Option("", help="user names, comma-separated (default: every student)"),
    classes: str = typer.Option("", help="class ids, comma-separated: their students take part (judge class list)"),
    scoreboard: str = typer.Option("participants", help="who sees the scoreboard: public, participants, jury"),
    details: bool = typer.Option(False, help="students see names, times and memory of secret tests"),
    penalty: int = typer.Option(
        20,
        min=0,
        max=1000,  # judge.schemas.MAX_PENALTY_MINUTES, unimported: CLI start-up
        help="ICPC penalty minutes per rejected attempt",
    ),
    owner: str = typer.Option("", help="teacher who runs it (default: admins only)"),
) -> None:
    """Create a contest and print its id."""
    from datetime import timedelta

    from judge.contests import ContestRuleError, ContestSpec, LocalTimeError, create_contest, letters_for, parse_when
    from judge.models import utcnow
    from judge.schemas import MAX_POINTS, utc_in_range

    try:
        start_at = utc_in_range(parse_when(start, utcnow()))
    except LocalTimeError as exc:  # skipped or repeated by a daylight-saving change
        fail(f"--start {start!r}: {exc}")
    except (ValueError, OverflowError):  # +99999999d overflows, 1969 is out of range
        fail(f"--start {start!r}: now, +10m, +2h, or an ISO 8601 time between 1970 and 3000")
    try:
        end_at = utc_in_range(start_at + timedelta(minutes=duration))
    except (ValueError, OverflowError):
        fail(f"--duration {duration}: the contest would end after the year 3000")
    with _db() as session:
        try:
            entries = letters_for(problems.split(","))
            if any(e.points is not None and e.points > MAX_POINTS for e in entries):
                fail(f"--problems {problems!r}: at most {MAX_POINTS} points per problem")
            spec = ContestSpec(
                name=name,
                start_at=start_at,
                end_at=end_at,
                problems=entries,
                freeze_at=end_at - timedelta(minutes=freeze) if freeze else None,
                scoring=scoring,
                participants=[p.strip() for p in participants.split(",") if p.strip()] or None,
                classes=_ids(classes),
                scoreboard_visibility=scoreboard,
                show_test_details=details,
                penalty_minutes=penalty,
                owner=owner or None,
            )
            contest = create_contest(session, spec)
        except ContestRuleError as exc:
            fail(exc.message)
        letters = ", ".join(f"{p.letter}={p.problem_id}" for p in contest.problems)
    say(
        f"contest {contest.id}: {name} ({scoring}; {letters}); {start_at:%Y-%m-%d %H:%M} to {end_at:%Y-%m-%d %H:%M} UTC"
    )


def _ids(text: str) -> list[int]:
    """Class ids typed comma-separated; exits 1 for anything but whole numbers."""
    from judge.schemas import whole_number

    ids = [whole_number(p.strip()) for p in text.split(",") if p.strip()]
    if any(i is None for i in ids):
        fail(f"--classes {text!r}: class ids separated by commas, e.g. 1,2")
    return [i for i in ids if i is not None]


def _contest(session, contest_id: int):
    from judge.models import Contest
    from judge.schemas import MAX_ROW_ID

    contest = session.get(Contest, contest_id) if 1 <= contest_id <= MAX_ROW_ID else None  # no overflow
    if contest is None:
        fail(f"no contest {contest_id}")
    return contest


@contest_app.command("list")
def contest_list() -> None:
    """Every contest: id, name, scoring, window (UTC), and whether it is unfrozen or archived."""
    from sqlalchemy import select

    from judge.models import Contest

    with _db() as session:
        for c in session.scalars(select(Contest).order_by(Contest.id)):
            say(
                f"{c.id}\t{c.name}\t{c.scoring}\t{c.start_at:%Y-%m-%d %H:%M} - {c.end_at:%Y-%m-%d %H:%M} UTC"
                + ("\tunfrozen" if c.unfrozen else "")
                + ("\tarchived" if c.archived else "")
            )


@contest_app.command("scoreboard")
def contest_scoreboard(
    contest_id: int = typer.Argument(...),
    public: bool = typer.Option(False, help="the public (frozen) view instead of the live one"),
    as_csv: bool = typer.Option(False, "--csv", help="print CSV"),
) -> None:
    """Print the scoreboard (live, as the jury sees it, unless --public)."""
    from judge.exports import scoreboard_csv, scoreboard_rows
    from judge.scoreboard import compute_scoreboard
    from judge.vocabulary import ScoreboardView

    with _db() as session:
        board = compute_scoreboard(
            session, _contest(session, contest_id), ScoreboardView.PUBLIC if public else ScoreboardView.JURY
        )
    if as_csv:
        _echo_data(scoreboard_csv(board))
        return
    header, *rows = scoreboard_rows(board)
    title = f"{board.contest_name}{' (frozen)' if board.frozen else ''}"
    out().print(table(title, map(str, header), ([" " if v is None else v for v in row] for row in rows)))


@contest_app.command("grades")
def contest_grades(
    contest_id: int = typer.Argument(...),
    output: Path = typer.Option(None, "-o", help="write to this file instead of stdout"),
) -> None:
    """Grades CSV: one row per student, per-problem result and total (live results)."""
    from judge.exports import grades_csv
    from judge.scoreboard import compute_scoreboard
    from judge.vocabulary import ScoreboardView

    with _db() as session:
        text = grades_csv(compute_scoreboard(session, _contest(session, contest_id), ScoreboardView.JURY))
    if output:
        try:
            output.write_text(text, encoding="utf-8", newline="")
        except OSError as exc:
            fail(f"{output}: {exc.strerror}")
        say(f"wrote {output}")
    else:
        _echo_data(text)


def _echo_data(text: str) -> None:
    """Write data (CSV) to standard output as it is; on a terminal, control characters shown."""
    import sys

    typer.echo(visible(text.replace("\r\n", "\n")) if sys.stdout.isatty() else text, nl=False)


@contest_app.command("unfreeze")
def contest_unfreeze(
    contest_id: int = typer.Argument(...),
    undo: bool = typer.Option(False, "--undo", help="freeze the public scoreboard again"),
) -> None:
    """Reveal the frozen verdicts on the public scoreboard, once the contest is over (or hide them again)."""
    from judge.clock import utcnow
    from judge.contests import ContestRuleError, edit_contest

    with _db() as session:
        try:
            edit_contest(session, _contest(session, contest_id), {"unfrozen": not undo}, utcnow())
        except ContestRuleError as exc:
            fail(exc.message)
    say(f"contest {contest_id} {'frozen again' if undo else 'unfrozen'}")


@contest_app.command("archive")
def contest_archive(
    contest_id: int = typer.Argument(...),
    undo: bool = typer.Option(False, "--undo", help="bring it back"),
) -> None:
    """Hide a contest from everyone but its jury and close it to submissions, keeping it whole."""
    from judge.clock import utcnow
    from judge.contests import edit_contest

    with _db() as session:
        edit_contest(session, _contest(session, contest_id), {"archived": not undo}, utcnow())
    say(f"contest {contest_id} {'restored' if undo else 'archived'}")


@contest_app.command("delete")
def contest_delete(contest_id: int = typer.Argument(...)) -> None:
    """Delete a contest that has no submissions (one that has: archive it)."""
    from judge.contests import ContestRuleError, delete_contest

    with _db() as session:
        try:
            delete_contest(session, _contest(session, contest_id))
        except ContestRuleError as exc:
            fail(exc.message)
    say(f"contest {contest_id} deleted")


@contest_app.command("rejudge")
def contest_rejudge(
    contest_id: int = typer.Argument(...),
    problem: str = typer.Option("", help="only this problem (letter)"),
    submission: int = typer.Option(0, help="only this submission id"),
    only_non_ac: bool = typer.Option(False, help="skip submissions that were AC"),
) -> None:
    """Put the contest's submissions (or one problem's, or one) back in the judging queue."""
    from judge.contests import contest_problem
    from judge.lifecycle import rejudge
    from judge.schemas import MAX_ROW_ID

    with _db() as session:
        contest = _contest(session, contest_id)
        entry = contest_problem(contest, problem) if problem else None
        if problem and entry is None:
            fail(f"contest {contest_id} has no problem {problem!r}")
        if submission < 0 or submission > MAX_ROW_ID:
            fail(f"no submission {submission}")
        ids = rejudge(
            session,
            contest_id=contest.id,
            problem_id=entry.problem_id if entry else None,
            submission_id=submission or None,
            only_non_ac=only_non_ac,
        )
    say(f"{len(ids)} submissions queued again" + (f": {', '.join(map(str, ids))}" if len(ids) <= 20 else ""))


@contest_app.command("export")
def contest_export(
    contest_id: int = typer.Argument(...),
    target: Path = typer.Argument(..., help="a new folder, or a file ending in .zip"),
) -> None:
    """Write the contest as an ICPC contest package (CCS specification 2023-06), as its jury sees it."""
    from judge.ccs.package import ContestPackageError, export_files, write_package
    from judge.config import load_settings
    from judge.packages import PackageError

    with _db() as session:
        try:
            files = export_files(session, _contest(session, contest_id), load_settings().work_dir / "packages")
            write_package(files, target)
        except (ContestPackageError, PackageError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{target}: {exc.strerror}")
    say(f"wrote contest {contest_id} to {target} ({len(files)} files)")


@contest_app.command("import")
def contest_import(
    source: Path = typer.Argument(..., help="a contest package: folder or .zip"),
    passwords: Path = typer.Option(None, help="also write the new accounts' passwords to this new file (mode 600)"),
) -> None:
    """Create a contest from an ICPC contest package: its problems, teams (as students) and judged
    submissions; prints the new contest's id and the generated passwords of new accounts."""
    from judge.ccs.package import ContestPackageError, import_contest, read_package
    from judge.config import load_settings

    if not source.exists():
        fail(f"{source}: no such file or folder")
    if passwords and passwords.exists():
        fail(f"{passwords}: already exists; nothing was imported")
    with _db() as session:
        try:
            imported = import_contest(session, read_package(source), load_settings().work_dir / "packages")
        except ContestPackageError as exc:
            fail(str(exc))
        if imported.created:
            _store_accounts(session, imported.created, passwords)
        contest = imported.contest
        say(f"contest {contest.id}: {contest.name} imported ({len(imported.created)} new accounts)")


# -- clarifications: a client of /api/v1 (judge.api.clarifications), like ``submit`` ------------------
Letter = Annotated[str, typer.Option("--problem", help="the problem's letter (default: the contest in general)")]
CLARIFICATION_COLUMNS = ("id", "asked (UTC)", "problem", "from", "question", "answer", "to")


@clar_app.callback()
def clar_login(
    ctx: typer.Context,
    server: str = typer.Option("http://127.0.0.1:8000", envvar="JUDGE_SERVER", help="judge URL"),
    user: str = typer.Option("", envvar="JUDGE_USER", help="log in as this user (asks the password)"),
    password: str = typer.Option("", envvar="JUDGE_PASSWORD", help="password of --user"),
    token: str = typer.Option("", envvar="JUDGE_TOKEN", help="bearer token instead of --user"),
) -> None:
    """Clarifications of a contest over HTTP, as --user (or --token) before the command:
    ``judge clar --user ana ask 3 "Is n >= 1?" --problem A``."""
    ctx.obj = (server, user, password, token)


def _clar_call(ctx: typer.Context, method: str, path: str, ok: int, **request) -> Any:
    """Log in (the ``clar_login`` options in ``ctx``) and send one request to ``path`` of the API;
    its JSON when the status is ``ok``, else exit 1 with the server's reason (2 when the server
    cannot be reached or the login is refused)."""
    import httpx

    server, user, password, token = ctx.obj
    password = _login_password(user, password, token)
    try:
        with httpx.Client(base_url=server, timeout=30) as client:
            _log_in(client, user, password, token)
            reply = client.request(method, path, **request)
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        fail(f"cannot reach {server}: {exc}", 2)
    if reply.status_code != ok:
        fail(_refusal(reply))
    try:
        return reply.json()
    except ValueError:
        fail(f"unexpected answer from the server (HTTP {reply.status_code}): {reply.text[:200]!r}", 2)


def _clar_row(c: dict) -> list:
    """One clarification (the API's JSON) as a row of ``CLARIFICATION_COLUMNS``."""
    asker = "jury" if c["kind"] == "announcement" else c.get("asker") or ("you" if c.get("mine") else "a student")
    to = "" if c.get("answer") is None else "everyone" if c.get("public") else "asker"
    answer = c.get("answer") if c.get("answer") is not None else "(waiting)"
    asked = str(c["asked_at"])[:19].replace("T", " ")
    return [c["id"], asked, c.get("problem") or "-", asker, c.get("question") or "", answer, to]


@clar_app.command("list")
def clar_list(
    ctx: typer.Context,
    contest_id: int = typer.Argument(...),
    waiting: bool = typer.Option(False, help="only questions without an answer yet"),
    as_csv: bool = typer.Option(False, "--csv", help="print CSV"),
) -> None:
    """The contest's clarifications you may see, newest first: all for its jury; your own questions,
    the public answers and the announcements for a student."""
    from judge.exports import clarifications_csv

    path = f"/api/v1/contests/{contest_id}/clarifications"
    rows = _clar_call(ctx, "GET", path, 200, params={"waiting": waiting})
    if as_csv:
        _echo_data(clarifications_csv(rows))
        return
    out().print(table(f"clarifications of contest {contest_id}", CLARIFICATION_COLUMNS, map(_clar_row, rows)))


@clar_app.command("ask")
def clar_ask(
    ctx: typer.Context,
    contest_id: int = typer.Argument(...),
    text: str = typer.Argument(..., help="the question"),
    problem: Letter = "",
) -> None:
    """Ask the jury of a running contest you take part in."""
    body = {"text": text, "problem": problem or None}
    row = _clar_call(ctx, "POST", f"/api/v1/contests/{contest_id}/clarifications", 201, json=body)
    say(f"question {row['id']} sent to the jury of contest {contest_id}")


@clar_app.command("answer")
def clar_answer(
    ctx: typer.Context,
    clarification_id: int = typer.Argument(...),
    text: str = typer.Argument(..., help="the answer"),
    public: bool = typer.Option(False, "--public", help="answer everyone in the contest, not only the asker"),
) -> None:
    """Answer a question (the contest's jury); answering again replaces the answer."""
    body = {"text": text, "public": public}
    _clar_call(ctx, "POST", f"/api/v1/clarifications/{clarification_id}/answer", 200, json=body)
    say(f"question {clarification_id} answered {'to everyone' if public else 'to its asker'}")


@clar_app.command("announce")
def clar_announce(
    ctx: typer.Context,
    contest_id: int = typer.Argument(...),
    text: str = typer.Argument(..., help="the announcement"),
    problem: Letter = "",
) -> None:
    """Announce to everyone in the contest (its jury)."""
    body = {"text": text, "problem": problem or None}
    row = _clar_call(ctx, "POST", f"/api/v1/contests/{contest_id}/announcements", 201, json=body)
    say(f"announcement {row['id']} sent to contest {contest_id}")


# the class and account-care commands; the jury's print, similarity and sources commands
from judge import cli_classes, cli_jury  # noqa: E402, F401
