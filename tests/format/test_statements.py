"""Statements: found in problem_statement/ and statement/, every language, LaTeX through pandoc with
MathML and pictures, titles from \\problemname, nothing unsafe through, pictures only from the
statement's own folder."""

from __future__ import annotations

import os

import pytest

from judge.package.statements import find_statements, statement_file, statement_html, statement_title
from judge.packages import PackageError, load_package
from tests.format.conftest import FIXTURES, write_package


def url(name: str) -> str:
    return f"/pictures/{name}"


def test_latex_statement_becomes_html_with_math_and_its_picture():
    path = load_package(FIXTURES / "oldtimer").statements["en"]
    html = statement_html(path, url)
    assert "<h2" in html and "Input</h2>" in html  # \section* one level below the page's title
    assert "<math" in html and "<mi>a</mi>" in html  # $a+b$ as MathML
    assert '<img src="/pictures/stairs.png"' in html
    assert "Stair Sum" not in html  # the title is the page's own heading
    assert statement_title(path) == "Stair Sum"


def test_each_language_has_its_own_statement_and_title():
    package = load_package(FIXTURES / "oldtimer")
    assert statement_title(package.statements["ro"]) == "Suma scărilor"
    assert "Date de intrare" in statement_html(package.statements["ro"], url)


def test_plainproblemname_gives_the_title_when_the_name_holds_markup(tmp_path):
    root = write_package(
        tmp_path / "sq",
        "name: Squares\nlimits: {time_limit: 1}\n",
        {"problem_statement/problem.tex": "%% plainproblemname: x^2 + y^2\n\\problemname{$x^2+y^2$}\nText.\n"},
    )
    package = load_package(root)
    assert list(package.statements) == ["en"]  # problem.tex without a language is English
    assert statement_title(package.statements["en"]) == "x^2 + y^2"


def test_nothing_unsafe_passes_and_pictures_outside_the_folder_are_dropped(tmp_path):
    root = write_package(
        tmp_path / "evil",
        "problem_format_version: 2023-07\nname: Evil\nlimits: {time_limit: 1}\n",
        {
            "statement/problem.en.md": "Hi <script>alert(1)</script>\n\n![a](../../etc/passwd.png) ![b](ok.png)"
            " [x](javascript:alert(1))\n",
            "statement/problem.de.tex": "\\problemname{Böse}\n\\includegraphics{/etc/x.png}\n"
            "\\href{javascript:alert(1)}{klick}\n",
        },
    )
    package = load_package(root)
    md = statement_html(package.statements["en"], url)
    assert "<script" not in md and "&lt;script&gt;" in md and 'href="javascript' not in md
    assert 'src="/pictures/ok.png"' in md and "passwd" not in md
    tex = statement_html(package.statements["de"], url)
    assert "/etc/x.png" not in tex and "javascript:" not in tex and "klick" in tex


def test_a_pdf_statement_is_warned_about_and_a_second_one_in_a_language_too(tmp_path):
    root = write_package(
        tmp_path / "pdf",
        "name: P\nlimits: {time_limit: 1}\n",
        {
            "problem_statement/problem.fr.pdf": "%PDF",
            "statement/problem.en.md": "# P\n",
            "problem_statement/problem.en.tex": "x",
        },
    )
    found, warnings = find_statements(root, "problem_statement")
    assert found["en"].suffix == ".tex" and "fr" not in found
    assert any("PDF statement" in w for w in warnings) and any("second statement in en" in w for w in warnings)


def test_latex_pandoc_cannot_read_is_a_package_error(tmp_path):
    root = write_package(
        tmp_path / "broken",
        "name: B\nlimits: {time_limit: 1}\n",
        {"problem_statement/problem.en.tex": "\\begin{itemize}\n\\item never closed\n\\end{enumerate}}}\n"},
    )
    with pytest.raises(PackageError, match="pandoc"):
        statement_html(load_package(root).statements["en"], url)


def test_only_regular_pictures_of_the_statement_folder_are_served(tmp_path):
    statement = load_package(FIXTURES / "oldtimer").statements["en"]
    assert statement_file(statement, "stairs.png") == statement.parent / "stairs.png"
    for name in ("../problem.yaml", "problem.en.tex", ".hidden.png", "missing.png", "a/b.png"):
        assert statement_file(statement, name) is None
    folder = tmp_path / "problem_statement"
    folder.mkdir()
    (folder / "problem.tex").write_text("x")
    os.symlink("/etc/hostname", folder / "link.png")
    assert statement_file(folder / "problem.tex", "link.png") is None


def test_a_latex_statement_reads_no_file_of_the_server(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SERVER-SECRET-7731\n")
    (tmp_path / "other.tex").write_text("SERVER-SECRET-7732\n")
    root = write_package(
        tmp_path / "nosy",
        "name: Nosy\nlimits: {time_limit: 1}\n",
        {
            "problem_statement/problem.tex": f"\\problemname{{Nosy}}\nText.\n\n\\lstinputlisting{{{secret}}}\n\n"
            f"\\verbatiminput{{{secret}}}\n\n\\inputminted{{text}}{{{secret}}}\n\n\\input{{{tmp_path / 'other'}}}\n"
            f"\\include{{{tmp_path / 'other'}}}\n",
        },
    )
    html = statement_html(load_package(root).statements["en"], url)
    assert "Text." in html and "SERVER-SECRET" not in html
