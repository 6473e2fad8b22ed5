"""``judge problem load`` on a foreign package: it says the time limit and every warning, and
refuses a LaTeX statement pandoc cannot read, naming the file."""

from __future__ import annotations

from typer.testing import CliRunner

from judge.cli import app
from tests.format.conftest import write_package


def test_load_prints_the_time_limit_and_the_packages_warnings(fixture_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'judge.db'}")
    root = fixture_copy("oldtimer")
    (root / "problem.yaml").write_text((root / "problem.yaml").read_text() + "libraries: gmp\n")
    result = CliRunner().invoke(app, ["problem", "load", str(root)])
    assert result.exit_code == 0, result.output
    assert "time limit 1500 ms" in result.output
    assert "warning:" in result.output and "libraries is not a key of version legacy" in result.output


def test_load_refuses_latex_pandoc_cannot_read(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'judge.db'}")
    root = write_package(
        tmp_path / "badtex",
        "name: B\nlimits: {time_limit: 1}\n",
        {"problem_statement/problem.en.tex": "\\begin{itemize}\n\\item open\n\\end{enumerate}}}\n"},
    )
    result = CliRunner().invoke(app, ["problem", "load", str(root)])
    assert result.exit_code != 0
    assert "problem.en.tex" in result.output and "pandoc" in result.output
