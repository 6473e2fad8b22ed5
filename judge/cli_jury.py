"""The jury's reading and printing commands of the ``judge`` CLI: ``contest print`` (the problem set as
PDF), ``contest similarity`` and ``problem similarity`` (who handed in the same program),
``contest sources`` (every source as one zip) and ``user slips`` (password slips as PDF). They run on
the server against ``JUDGE_DATABASE_URL``, with the functions the API and the teacher's pages use
(``judge.api.similarity``, ``judge.api.downloads``); a refusal there is printed as the CLI's own error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import typer
from fastapi import HTTPException

from judge.cli import _contest, _db, contest_app, fail, problem_app, user_app
from judge.terminal import out, say, table

T = TypeVar("T")


def _refused(action: Callable[[], T]) -> T:
    """``action()``, with an API refusal (HTTPException) turned into ``fail`` and its reason."""
    try:
        return action()
    except HTTPException as exc:
        fail(str(exc.detail))


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")
    say(f"wrote {path} ({len(data)} bytes)")


def _work_dir() -> Path:
    from judge.config import load_settings

    return load_settings().work_dir


def _print_pairs(report) -> None:
    title = f"{report.problem}{f' (problem {report.letter})' if report.letter else ''}: {report.sources} sources"
    columns = ("score", "family", "first", "second", "in first", "in second")
    rows = [
        (
            f"{p.score:.0%}",
            p.family,
            f"{p.first.user} #{p.first.submission} {p.first.verdict or '-'}",
            f"{p.second.user} #{p.second.submission} {p.second.verdict or '-'}",
            f"{p.similarity_first:.0%}",
            f"{p.similarity_second:.0%}",
        )
        for p in report.pairs
    ]
    out().print(table(title, columns, rows))


@contest_app.command("print")
def contest_print(
    contest_id: int = typer.Argument(...),
    language: str = typer.Option("en", help="statement language (English where a problem lacks it)"),
    output: Path = typer.Option(..., "-o", help="the PDF file to write"),
) -> None:
    """Write the contest's problem set as one PDF: a cover, then each problem by letter with its
    limits, statement and samples."""
    from judge.api.downloads import problem_set

    with _db() as session:
        contest = _contest(session, contest_id)
        data = _refused(lambda: problem_set(session, contest, language, _work_dir()))
    _write(output, data)


@contest_app.command("similarity")
def contest_similarity(
    contest_id: int = typer.Argument(...),
    problem: str = typer.Option(..., help="the problem's letter (or id) in the contest"),
    limit: int = typer.Option(20, min=1, max=1000, help="pairs shown, most similar first"),
) -> None:
    """Rank the pairs of students' sources of one contest problem by similarity (copydetect)."""
    from judge.api.similarity import contest_similarity as ranked

    with _db() as session:
        contest = _contest(session, contest_id)
        _print_pairs(_refused(lambda: ranked(session, contest, problem, _work_dir(), limit)))


@problem_app.command("similarity")
def problem_similarity(
    problem_id: str = typer.Argument(..., help="problem id, e.g. lee"),
    users: str = typer.Option("", help="comma-separated user names (default: every student)"),
    limit: int = typer.Option(20, min=1, max=1000, help="pairs shown, most similar first"),
) -> None:
    """Rank the pairs of the students' sources of any problem (practice and contests) by similarity."""
    from judge.api.similarity import problem_similarity as ranked

    names = [n.strip() for n in users.split(",") if n.strip()]
    with _db() as session:
        _print_pairs(_refused(lambda: ranked(session, problem_id, names, _work_dir(), limit)))


@contest_app.command("sources")
def contest_sources(
    contest_id: int = typer.Argument(...),
    output: Path = typer.Option(..., "-o", help="the zip file to write"),
) -> None:
    """Write every source of the contest to one zip: a folder per student, files named by problem
    letter, submission, verdict and time."""
    from judge.source_archive import contest_sources_zip

    with _db() as session:
        data = contest_sources_zip(session, _contest(session, contest_id))
    _write(output, data)


@user_app.command("slips")
def user_slips(
    passwords: Path = typer.Argument(..., help="name<TAB>password lines, as `judge user import --passwords` writes"),
    output: Path = typer.Option(..., "-o", help="the PDF file to write"),
    url: str = typer.Option("http://127.0.0.1:8000/login", help="the sign-in address printed on each slip"),
) -> None:
    """Print password slips as one PDF, one per account, to cut apart."""
    from judge.api.downloads import slips

    try:
        lines = passwords.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{passwords}: cannot read it ({exc})")
    accounts = [tuple(line.split("\t", 1)) for line in lines if line.strip()]
    if not accounts or any(len(a) != 2 for a in accounts):
        fail(f"{passwords}: expected name<TAB>password on every line")
    with _db() as session:  # the server's operator: any account
        data = _refused(lambda: slips(session, None, [(a[0], a[1]) for a in accounts], url))
    _write(output, data)
