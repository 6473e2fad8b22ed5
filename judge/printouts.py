"""Printouts as PDF: a contest's problem set, and password slips to cut and hand out.

Both are HTML from our own templates (``judge/web/templates/print/``, autoescaped) laid out as A4
pages by WeasyPrint (PyPI ``weasyprint``; CSS Paged Media). A statement is the package's Markdown
(``statement/problem.<lang>.md``) through the same renderer as the problem's page
(``judge.web.render.statement_html``: markdown-it-py, raw HTML off, cleaned by nh3), so paper and
screen say the same. WeasyPrint fetches nothing: every URL a statement names (an image, a
stylesheet) is refused, so no statement can read a file of the server or reach the network.

The problem set: a cover page (contest name, window in UTC, the problems by letter), then each
problem from a new page: ``A. Title``, its limits (CPU time per test, memory, output, the files it
reads and writes), the statement in the chosen language (English, then any, where a problem lacks
it), and the package's samples (``data/sample``) that its statement does not already show.

Password slips: one per account (display name, user name, password, where to sign in), several to an
A4 page between dashed cut lines. A password is known only when it is generated, so the slips are
made from the answer that created or reset the accounts; nothing stores them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.packages import ProblemPackage


class PrintError(RuntimeError):
    """WeasyPrint could not lay out the document (its reason in the message)."""


@dataclass(frozen=True)
class PrintedProblem:
    """One problem of a problem set: its contest ``letter``, ``name`` (the title when the statement
    has none), ``package`` and the stored package's ``sha256`` (the statement cache's key)."""

    letter: str
    name: str
    package: ProblemPackage
    sha256: str


@dataclass(frozen=True)
class Slip:
    """One password slip: ``name`` (login), ``display_name`` and the ``password`` (None: the one
    given in the class file, not known here)."""

    name: str
    display_name: str
    password: str | None


def _render(template: str, **context) -> str:
    from judge.web.render import templates  # imported here: judge.web imports the API, which imports this

    return templates.get_template(template).render(**context)


def _refuse(url: str, *args, **kwargs):
    raise ValueError(f"printouts fetch nothing ({url[:80]!r})")


def pdf_bytes(html: str) -> bytes:
    """``html`` laid out by WeasyPrint as PDF bytes; every URL it names is refused (module docstring).
    Raises PrintError when WeasyPrint fails."""
    from weasyprint import HTML  # imported here: it loads Pango, which only printing needs

    try:
        return HTML(string=html, url_fetcher=_refuse).write_pdf()
    except Exception as exc:  # WeasyPrint raises many kinds; the caller answers each the same
        raise PrintError(f"the PDF could not be made: {exc}") from exc


def _samples(package: ProblemPackage, markdown: str) -> list[tuple[str, str, str]]:
    """The package's samples (name, input, answer) that the statement's text does not show."""
    shown = " ".join(markdown.split())
    out = []
    for test in package.tests:
        if test.group != "sample":
            continue
        given = test.input_path.read_text(encoding="utf-8", errors="replace")
        answer = test.answer_path.read_text(encoding="utf-8", errors="replace")
        if " ".join(given.split()) not in shown or " ".join(answer.split()) not in shown:
            out.append((test.name.split("/", 1)[-1], given, answer))
    return out


def problem_set_html(
    contest_name: str, window: tuple[datetime, datetime], problems: Sequence[PrintedProblem], language: str
) -> str:
    """The problem set as one HTML document (layout in the module docstring); ``window``: the
    contest's start and end (UTC), ``language``: the statements' language code (``en``, ``ro``)."""
    from judge.web.render import statement_html  # as in _render

    entries = []
    for problem in problems:
        shown = language if language in problem.package.statements else "en"
        markdown = problem.package.statement(shown)
        path = problem.package.statement_path(shown)
        title, body = statement_html(problem.sha256, shown, problem.package.id, path) if path else (None, "")
        entries.append(
            {
                "letter": problem.letter,
                "title": title or problem.name,
                "language": shown if shown in problem.package.statements else "en",
                "statement": body,
                "package": problem.package,
                "samples": _samples(problem.package, markdown),
            }
        )
    return _render(
        "print/problemset.html",
        contest_name=contest_name,
        start=window[0],
        end=window[1],
        problems=entries,
        language=language,
    )


def problem_set_pdf(
    contest_name: str, window: tuple[datetime, datetime], problems: Sequence[PrintedProblem], language: str
) -> bytes:
    """``problem_set_html`` as PDF bytes (``pdf_bytes``; raises PrintError)."""
    return pdf_bytes(problem_set_html(contest_name, window, problems, language))


def slips_pdf(slips: Sequence[Slip], sign_in_url: str) -> bytes:
    """Password slips, one per account, as PDF bytes (``pdf_bytes``; raises PrintError)."""
    return pdf_bytes(_render("print/slips.html", slips=slips, sign_in_url=sign_in_url))
