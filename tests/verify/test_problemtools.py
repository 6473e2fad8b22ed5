"""Kattis' own verifier, problemtools' ``verifyproblem``, passes on every shipped package.

problemtools (PyPI ``problemtools``) reads two versions of the package format and neither is ours
verbatim: the legacy version refuses ``limits.time_limit`` and ``io`` in problem.yaml and wants
LaTeX statements in ``problem_statement/``; the 2023-07-draft version reads our Markdown
``statement/`` and ``limits.time_limit`` but refuses ``validation`` and ``io`` and wants the
checker in ``output_validator/``. So each package is checked as a 2023-07-draft copy made by
``kattis_2023_07_copy``, which changes only metadata and one folder name (tests, validators,
statements and submissions are the package's own files, less the submissions that need the
package's file I/O, which problemtools does not offer). ``verifyproblem`` runs ``.py`` files
with PyPy unless its languages.yaml says otherwise; ours runs them with Debian's python3 as the
judge does. Statements are built to HTML and PDF, which needs pandoc, LuaLaTeX (texlive) and tidy.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ["basic", "camels", "domination", "house", "knight", "lee", "lines", "queens", "snakes"]
VERIFYPROBLEM = Path(sys.executable).parent / "verifyproblem"
TOOLS = ("pandoc", "lualatex", "tidy", "gs")
# Only the fields of problemtools' entries that change: CPython instead of PyPy; Java without
# ``-source 21`` (Debian's OpenJDK 17 here).
LANGUAGES_YAML = """python3:
    name: 'Python 3 (CPython)'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
"""
# A fixed namespace, so a package's uuid is the same on every run (derived from its id).
UUID_NAMESPACE = uuid.UUID("5f0c7a52-2f43-4c4e-9d43-6f1a3c2b7e10")
# The pytest tests of a package's own programs: part of this repository, not of the package format.
PACKAGE_OWN_TESTS = ["tests"]


def statement_title(path: Path) -> str:
    """The first Markdown heading of a statement (its title in that language)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise ValueError(f"{path}: no '# title' line")


def uses_files(submission: Path, io: dict) -> bool:
    """True if a submission's source has one of the package's ``io`` file names as a string
    literal (``'input.txt'`` or ``"input.txt"``: opened, not only mentioned in a comment)."""
    source = submission.read_text(encoding="utf-8", errors="replace")
    return any(re.search(rf"""["']{re.escape(name)}["']""", source) for name in io.values())


def kattis_2023_07_copy(package: Path, destination: Path) -> tuple[Path, list[str]]:
    """Copy ``package`` to ``destination/<id>`` as a 2023-07-draft package.

    problem.yaml: ``problem_format_version``, a ``uuid`` derived from the id, ``name`` per
    statement language (the statement's title), a license; ``validation`` (implied by the
    folder) and ``io`` removed. ``output_validators/`` becomes ``output_validator/``; the package's
    pytest folder ``tests/`` is left out. The format
    has no file I/O (problemtools gives standard input and reads standard output), so submissions
    that open an ``io`` file are left out: our own verify judges them. Symbolic links
    (the accepted reference) are copied as files. Returns (the copy, the submissions left out).
    """
    copy = destination / package.name
    shutil.copytree(package, copy, ignore=lambda folder, names: PACKAGE_OWN_TESTS if Path(folder) == package else [])
    meta = yaml.safe_load((copy / "problem.yaml").read_text(encoding="utf-8"))
    meta.pop("validation", None)
    io = meta.pop("io", None) or {}
    left_out = sorted(p for p in (copy / "submissions").glob("*/*") if io and uses_files(p, io))
    for submission in left_out:
        submission.unlink()
    meta["problem_format_version"] = "2023-07-draft"
    meta["uuid"] = str(uuid.uuid5(UUID_NAMESPACE, package.name))
    meta["name"] = {p.name.split(".")[1]: statement_title(p) for p in sorted((copy / "statement").glob("problem.*.md"))}
    meta.setdefault("license", "cc by-sa")
    meta.setdefault("rights_owner", "the teachers of this judge")
    (copy / "problem.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True), encoding="utf-8")
    (copy / "output_validators").rename(copy / "output_validator")
    return copy, [f"{p.parent.name}/{p.name}" for p in left_out]


def missing_tools() -> list[str]:
    """What ``verifyproblem`` needs here and is not installed."""
    missing = [] if VERIFYPROBLEM.is_file() else ["problemtools (pip install problemtools)"]
    return missing + [tool for tool in TOOLS if shutil.which(tool) is None]


@pytest.fixture(scope="module")
def problemtools_config(tmp_path_factory) -> Path:
    """An XDG_CONFIG_HOME whose problemtools/languages.yaml runs Python with python3."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"cannot run problemtools' verifyproblem: missing {', '.join(missing)}")
    home = tmp_path_factory.mktemp("xdg")
    (home / "problemtools").mkdir()
    (home / "problemtools" / "languages.yaml").write_text(LANGUAGES_YAML)
    return home


def verifyproblem(package: Path, config: Path, folder: Path) -> tuple[str, int]:
    """Run ``verifyproblem`` on ``package`` with the languages of ``config`` (an XDG_CONFIG_HOME),
    in ``folder``; returns (its whole report, its exit status)."""
    proc = subprocess.run(
        [str(VERIFYPROBLEM), str(package)],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=folder,
        env={
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(folder),
            "XDG_CONFIG_HOME": str(config),
            "LANG": "C.UTF-8",
        },
    )
    return proc.stdout + proc.stderr, proc.returncode


@pytest.mark.parametrize("package_id", PACKAGES)
def test_verifyproblem_passes(package_id, problemtools_config, tmp_path):
    package = REPO / "problems" / package_id
    if not (package / "problem.yaml").is_file():
        pytest.skip(f"package {package_id} not written yet")
    copy, left_out = kattis_2023_07_copy(package, tmp_path)
    if left_out:
        print(f"{package_id}: left out of the problemtools copy (file I/O): {', '.join(left_out)}")
    report, returncode = verifyproblem(copy, problemtools_config, tmp_path)
    assert f"{package_id} tested: 0 errors" in report, report[-6000:]
    assert returncode == 0, report[-6000:]
