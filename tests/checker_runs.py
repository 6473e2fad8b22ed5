"""Runs of the packages' own output validators on one team output, for the tests of their
feedback.json (``problems/test_checker_feedback.py``) and of the pictures drawn from it
(``tests/judge/test_pictures.py``). Wrong answers come from each package's ``generators/mutations.py``,
right ones from the reference solvers' judge answers."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBLEMS = REPO / "problems"
FEEDBACK_LIMIT = 256 * 1024


def mutations(problem: str):
    """The package's mutations module."""
    spec = importlib.util.spec_from_file_location(
        f"{problem}_mutations", PROBLEMS / problem / "generators" / "mutations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(problem: str, test: str, team_output: str, tmp_path: Path) -> tuple[int, str, dict | None]:
    """(exit code, judge message, feedback or None) of the package's checker on one output."""
    input_path = PROBLEMS / problem / "data" / f"{test}.in"
    feedback_dir = tmp_path / f"feedback-{len(list(tmp_path.iterdir()))}"
    feedback_dir.mkdir()
    (script,) = (PROBLEMS / problem).glob("output_validators/*/*.py")
    proc = subprocess.run(
        [sys.executable, str(script), str(input_path), str(input_path.with_suffix(".ans")), str(feedback_dir) + "/"],
        input=team_output.encode(),
        capture_output=True,
        timeout=60,
    )
    message_file, feedback_file = feedback_dir / "judgemessage.txt", feedback_dir / "feedback.json"
    assert not feedback_file.exists() or feedback_file.stat().st_size <= FEEDBACK_LIMIT
    return (
        proc.returncode,
        message_file.read_text().strip() if message_file.exists() else "",
        json.loads(feedback_file.read_text()) if feedback_file.exists() else None,
    )


def wrong(problem: str, test: str) -> dict[str, str]:
    """{mutation kind: output} for one test."""
    data = PROBLEMS / problem / "data" / test
    return dict(
        mutations(problem).wrong_answers(data.with_suffix(".in").read_text(), data.with_suffix(".ans").read_text())
    )


def answer(problem: str, test: str) -> str:
    """The judge answer of one test."""
    return (PROBLEMS / problem / "data" / f"{test}.ans").read_text()
