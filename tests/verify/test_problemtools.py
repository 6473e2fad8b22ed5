"""Kattis' own verifier, problemtools' ``verifyproblem``, passes on every shipped package as
``judge problem export`` writes it.

problemtools (PyPI ``problemtools``) reads two versions of the package format and neither is ours
verbatim: the legacy version refuses ``limits.time_limit`` and ``io`` in problem.yaml and wants
LaTeX statements in ``problem_statement/``; the 2023-07-draft version reads our Markdown
``statement/`` and ``limits.time_limit`` but refuses ``validation`` and ``io`` and wants the
checker in ``output_validator/``. So ``judge.package_zip.export_zip`` writes each package as a
2023-07-draft zip that changes only metadata and one folder name (tests, validators, statements and
submissions are the package's own files, less the submissions that need the package's file I/O,
which problemtools does not offer); the test unzips it and runs ``verifyproblem`` on the folder.
``verifyproblem`` runs ``.py`` files with PyPy unless its languages.yaml says otherwise; ours runs
them with Debian's python3 as the judge does. Statements are built to HTML and PDF, which needs
pandoc, LuaLaTeX (texlive) and tidy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from judge.package_zip import export_zip

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


def exported_copy(package: Path, destination: Path) -> tuple[Path, list[str]]:
    """Export ``package`` as ``judge problem export`` does and unzip it into ``destination``;
    returns (the package folder, the submissions left out of the export)."""
    destination.mkdir(parents=True, exist_ok=True)
    target = destination / f"{package.name}.zip"
    report = export_zip(package, target)
    with zipfile.ZipFile(target) as archive:
        archive.extractall(destination)
    return destination / report.problem_id, report.left_out


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
    copy, left_out = exported_copy(package, tmp_path / "export")
    if left_out:
        print(f"{package_id}: left out of the export (file I/O): {', '.join(left_out)}")
    report, returncode = verifyproblem(copy, problemtools_config, tmp_path)
    assert f"{package_id} tested: 0 errors" in report, report[-6000:]
    assert returncode == 0, report[-6000:]


# Fixture packages written as a contest archive would (no reference solver, no generator): problemtools
# must pass them as they are, as our verify does with its convention steps skipped (tests/verify/test_foreign.py).
FOREIGN_FIXTURES = ["archivesum"]


@pytest.mark.parametrize("fixture", FOREIGN_FIXTURES)
def test_verifyproblem_passes_the_foreign_fixtures_as_they_are(fixture, problemtools_config, tmp_path):
    copy = Path(shutil.copytree(REPO / "tests" / "fixtures" / "packages" / fixture, tmp_path / fixture))
    report, code = verifyproblem(copy, problemtools_config, tmp_path)
    assert f"{fixture} tested: 0 errors" in report, report[-6000:]
    assert code == 0, report[-6000:]
