"""Run problemtools' ``verifyproblem`` and our ``judge problem verify`` side by side on every
package folder of a folder, and print one Markdown table: package, problemtools' result, ours, the
verdicts its submissions get over a running judge's HTTP API (``tools/api_verdicts.py``), and the
first reasons of each.

Usage (from the repository, after ``make problemtools``)::

    .venv/bin/python tools/compare_verifiers.py FOLDER [--slot 60] [--timeout 900] [--only a,b] [--no-api]

FOLDER holds package folders (each with a ``problem.yaml``; the folder name is the problem id).
Each package is copied to a temporary folder for each tool, so neither tool writes into FOLDER.
``verifyproblem`` runs ``.py`` files with python3, as ``tests/verify/test_problemtools.py`` has it
do, and compiles Java for the JDK installed here (``LANGUAGES_YAML``); ours judges submissions in
sandbox slot ``--slot`` (plus ``JUDGE_TEST_SLOT_OFFSET``, so two checkouts do not share slots), and
the API's judge in the next two slots. Exit code 0 when every package that problemtools passes
passes ours.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

VERIFYPROBLEM = Path(sys.executable).parent / "verifyproblem"
# problemtools' own entries, changed where this machine differs: Python 3 with CPython (not PyPy),
# and Java without ``-source 21`` (Debian 12's JDK is 17, whose javac refuses that option).
LANGUAGES_YAML = """python3:
    name: 'Python 3 (CPython)'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
java:
    name: 'Java'
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
    run: 'java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -Xss64m -Xms{memlim}m -Xmx{memlim}m -cp {path} {mainclass}'
"""
TESTED = re.compile(r"tested: (\d+) errors?, (\d+) warnings?")
REASONS = 3  # reasons shown per tool and package


@dataclass
class Outcome:
    """One tool on one package: passed or not, a short result and its first reasons."""

    passed: bool
    result: str
    reasons: list[str]


def run_problemtools(package: Path, work: Path, timeout_s: float) -> Outcome:
    """problemtools' ``verifyproblem`` on a copy of ``package``."""
    copy = Path(shutil.copytree(package, work / "pt" / package.name, symlinks=False))
    config = work / "xdg" / "problemtools"
    config.mkdir(parents=True, exist_ok=True)
    (config / "languages.yaml").write_text(LANGUAGES_YAML)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(work), "XDG_CONFIG_HOME": str(config.parent)}
    try:
        proc = subprocess.run(
            [str(VERIFYPROBLEM), str(copy)],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            cwd=work,
            env=env | {"LANG": "C.UTF-8"},
        )
    except subprocess.TimeoutExpired:
        return Outcome(False, f"timeout {timeout_s:.0f} s", [])
    report = proc.stdout + proc.stderr
    errors = [line.strip() for line in report.splitlines() if line.startswith("ERROR")]
    counts = TESTED.search(report)
    if counts is None:
        last = report.strip().splitlines()[-1:] or ["no output"]
        return Outcome(False, f"crashed (exit {proc.returncode})", errors[:REASONS] + last)
    passed = counts.group(1) == "0" and proc.returncode == 0
    result = f"{'pass' if passed else 'FAIL'}: {counts.group(1)} errors, {counts.group(2)} warnings"
    return Outcome(passed, result, errors[:REASONS])


def run_ours(package: Path, work: Path, slot: int) -> Outcome:
    """Our ``judge problem verify`` (the library call behind it) on a copy of ``package``."""
    from judge.verify import verify_package
    from judge.vocabulary import StepStatus

    copy = Path(shutil.copytree(package, work / "ours" / package.name, symlinks=False))
    try:
        report = verify_package(copy, slot=slot)
    except Exception as exc:  # the verifier must not crash; if it does, that is the result
        return Outcome(False, f"crashed: {type(exc).__name__}", [str(exc)[:200]])
    reasons = [f"step {step.number} {failure.test}: {failure.reason}" for step, failure in report.failures()]
    reasons += [f"step {s.number} not run: {s.not_run}" for s in report.steps if s.status == StepStatus.NOT_RUN]
    skipped = ", ".join(str(step.number) for step in report.skipped())
    if report.ok:
        return Outcome(True, "pass" + (f" (steps {skipped} skipped)" if skipped else ""), [])
    failing = ", ".join(str(step.number) for step in report.steps if step.failures)
    return Outcome(False, f"FAIL (steps {failing or '-'})", reasons[:REASONS])


def run_api(package: Path, slot: int) -> str:
    """The submissions of ``package`` over a throw-away judge's API: matches, then what did not match."""
    from tools.api_verdicts import api_verdicts

    try:
        outcome = api_verdicts(package.resolve(), slot)
    except Exception as exc:  # the tool must not stop the table; a crash is the result
        return f"crashed: {type(exc).__name__}: {str(exc)[:200]}"
    return "; ".join([outcome.summary(), *outcome.mismatches[:REASONS]])


def cell(text: str) -> str:
    """Text for one Markdown table cell: no pipe, no line break."""
    return " ".join(text.replace("|", "\\|").split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder of package folders")
    parser.add_argument("--slot", type=int, default=60, help="sandbox slot for our verify's submissions")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per package for verifyproblem")
    parser.add_argument("--no-api", action="store_true", help="leave out the submissions over the API")
    parser.add_argument("--only", default="", help="comma-separated package names to run (default: all)")
    args = parser.parse_args()
    if not VERIFYPROBLEM.is_file():
        print(f"no {VERIFYPROBLEM}: run `make problemtools` first", file=sys.stderr)
        return 2
    only = {name for name in args.only.split(",") if name}
    packages = sorted(
        p for p in args.folder.iterdir() if (p / "problem.yaml").is_file() and (not only or p.name in only)
    )
    slot = args.slot + int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))
    print("| package | problemtools | ours | API verdicts | problemtools' first errors | our first failures |")
    print("|---|---|---|---|---|---|")
    disagree = 0
    for package in packages:
        with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
            theirs = run_problemtools(package, Path(tmp), args.timeout)
            ours = run_ours(package, Path(tmp), slot)
        api = "-" if args.no_api else run_api(package, slot + 1)
        disagree += theirs.passed and not ours.passed
        print(
            f"| {cell(package.name)} | {cell(theirs.result)} | {cell(ours.result)} | {cell(api)} "
            f"| {cell('; '.join(theirs.reasons) or '-')} | {cell('; '.join(ours.reasons) or '-')} |",
            flush=True,
        )
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
