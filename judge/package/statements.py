"""Problem statements of a package: found in every language, titled, and turned into HTML.

Source: the Kattis problem package format, "Problem statements": ``problem_statement/`` (legacy) or
``statement/`` (2023-07 and later), one ``problem.<language>.<md|tex>`` per language
(``problem.tex`` / ``problem.md`` is English), pictures beside them. A LaTeX statement names the
problem with ``\\problemname{…}`` (or, when that holds markup, a ``%% plainproblemname: …`` comment).

LaTeX goes through pandoc (Debian's, a maintained converter) to HTML with the math as MathML, in
pandoc's ``--sandbox`` mode (it reads no file but the statement: ``\\input``, ``\\lstinputlisting``
or ``\\verbatiminput`` of a server file comes out empty), after a preamble that gives problemtools'
statement macros (``\\problemname``, ``\\illustration``, ``\\sampleinput``…) their meaning;
Markdown goes through markdown-it-py with raw HTML off. Either is then cleaned by nh3 (the ammonia
allow-list, plus MathML) and every picture is pointed at ``image_url(file name)``: only files of
the statement folder itself are ever served (``statement_file``).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import nh3
from markdown_it import MarkdownIt

from judge.package.metadata import PackageError

STATEMENT_DIRS = ("statement", "problem_statement")
STATEMENT_FILE = re.compile(r"^problem(?:\.([a-z]{2,3}(?:-[A-Za-z]{2})?))?\.(md|tex|pdf)$")
PICTURE_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\.(png|jpg|jpeg|gif|svg)$")
PANDOC_TIMEOUT_S = 30
PREAMBLE = r"""
\newcommand{\problemname}[1]{}
\newcommand{\illustration}[3]{\begin{figure}\includegraphics{#2}\caption{#3}\end{figure}}
\newcommand{\sampleinput}[1]{}
\newcommand{\sampleoutput}[1]{}
\newcommand{\nextsample}{}
\newcommand{\remainingsamples}{}
"""
PROBLEM_NAME = re.compile(r"\\problemname\{((?:[^{}]|\{[^{}]*\})*)\}")
PLAIN_NAME = re.compile(r"^%%\s*plainproblemname:\s*(.+)$", re.MULTILINE)
MATHML_TAGS = {"math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup"}
MATHML_TAGS |= {"msub", "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr"}
MATHML_TAGS |= {"mtd", "mstyle", "mpadded", "mphantom", "menclose"}
MATHML_ATTRIBUTES = {"display", "encoding", "mathvariant", "stretchy", "fence", "separator", "accent", "form"}
MATHML_ATTRIBUTES |= {"columnalign", "rowspacing", "columnspacing", "displaystyle", "scriptlevel", "width", "lspace"}
MATHML_ATTRIBUTES |= {"rspace", "linethickness"}
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def find_statements(root: Path, version_dir: str) -> tuple[dict[str, Path], list[str]]:
    """The statement file of each language (``en`` → path), looking in ``version_dir`` first, then
    in the other statement folder; and warnings (PDF statements, which cannot be shown as HTML,
    and a language given twice)."""
    found: dict[str, Path] = {}
    warnings: list[str] = []
    for folder in (version_dir, *(d for d in STATEMENT_DIRS if d != version_dir)):
        for path in sorted((root / folder).glob("problem*")) if (root / folder).is_dir() else []:
            match = STATEMENT_FILE.match(path.name)
            if match is None or not path.is_file():
                continue
            language = match.group(1) or "en"
            if match.group(2) == "pdf":
                warnings.append(f"{path}: a PDF statement is not shown; give a .tex or .md statement")
            elif language in found:
                warnings.append(f"{path}: a second statement in {language}; {found[language].name} is used")
            else:
                found[language] = path
    return found, warnings


def statement_title(path: Path) -> str | None:
    """The problem name a statement gives: ``%% plainproblemname``, ``\\problemname{…}`` (LaTeX),
    or a leading ``# heading`` (Markdown); None without one."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".tex":
        plain = PLAIN_NAME.search(text)
        name = plain or PROBLEM_NAME.search(text)
        return " ".join(name.group(1).split()) if name else None
    first = text.lstrip().partition("\n")[0]
    return first[2:].strip() if first.startswith("# ") else None


def _latex_html(path: Path) -> str:
    source = path.read_text(encoding="utf-8", errors="replace")
    try:
        proc = subprocess.run(
            ["pandoc", "--sandbox", "--from=latex", "--to=html", "--mathml", "--shift-heading-level-by=1"],
            input=(PREAMBLE + source).encode(),
            capture_output=True,
            timeout=PANDOC_TIMEOUT_S,
            cwd=path.parent,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PackageError(f"{path}: cannot be turned into HTML by pandoc: {exc}") from exc
    if proc.returncode != 0:
        reason = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise PackageError(f"{path}: pandoc cannot read this LaTeX: {reason[0][:300]}")
    return proc.stdout.decode("utf-8", errors="replace")


def _markdown_html(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    first, _, rest = text.lstrip().partition("\n")
    return _markdown.render(rest if first.startswith("# ") else text)


def statement_html(path: Path, image_url: Callable[[str], str | None]) -> str:
    """The statement in file ``path`` (``.tex`` or ``.md``) as sanitised HTML, without its title.

    ``image_url(name)`` gives the address of a picture of the statement folder (None drops the
    picture). Raises PackageError when pandoc cannot read the LaTeX.
    """
    html = _latex_html(path) if path.suffix == ".tex" else _markdown_html(path)

    def attribute(tag: str, name: str, value: str) -> str | None:
        if tag == "img" and name == "src":
            return image_url(value) if PICTURE_FILE.match(value) else None
        return value

    return nh3.clean(
        html,
        tags=nh3.ALLOWED_TAGS | {"figure", "figcaption"} | MATHML_TAGS,
        attributes={
            **nh3.ALLOWED_ATTRIBUTES,
            "img": {"src", "alt", "width", "height"},
            **{tag: MATHML_ATTRIBUTES for tag in MATHML_TAGS},
        },
        attribute_filter=attribute,
        url_schemes={"http", "https"},
    )


def statement_file(statement: Path, name: str) -> Path | None:
    """The picture ``name`` of the statement folder holding ``statement``, or None when there is
    no such regular file there (a name with a folder, a dot file or a link is never served)."""
    if not PICTURE_FILE.match(name):
        return None
    path = statement.parent / name
    if path.is_symlink() or not path.is_file():
        return None
    return path
