"""Fixtures of the packages' own tests (`problems/<id>/tests/`): run a package's Kattis programs.

`input_validator(package, data)` -> (exit code, stderr text);
`output_validator(package, input_path, answer_path, team_output)` -> (exit code, judgemessage text);
`check_test(package, test, team_output)` -> the same on the package's test `test` (e.g. "sample/01"),
team output as str or bytes;
`generate_into(package, folder)` -> {file name: bytes}: every generated secret input of the package's
test plan (`generators/tests.yaml`), also written into `folder`.
Exit codes follow the Kattis problem package format: 42 valid/accepted, 43 invalid/wrong answer.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def input_validator():
    """A callable running `input_validators/*/<script>.py < data` for a package folder."""

    def run(package: Path, data: bytes) -> tuple[int, str]:
        (script,) = package.glob("input_validators/*/*.py")
        proc = subprocess.run([sys.executable, str(script)], input=data, capture_output=True, timeout=60)
        return proc.returncode, proc.stderr.decode(errors="replace")

    return run


@pytest.fixture
def output_validator(tmp_path_factory):
    """A callable running `output_validators/*/<script>.py input answer feedback_dir < team_output`.

    Each call gets a fresh feedback directory; the returned message is "" if none was written.
    """

    def run(package: Path, input_path: Path, answer_path: Path, team_output: bytes) -> tuple[int, str]:
        (script,) = package.glob("output_validators/*/*.py")
        feedback = tmp_path_factory.mktemp("feedback")
        proc = subprocess.run(
            [sys.executable, str(script), str(input_path), str(answer_path), str(feedback)],
            input=team_output,
            capture_output=True,
            timeout=60,
        )
        message_file = feedback / "judgemessage.txt"
        return proc.returncode, message_file.read_text() if message_file.exists() else ""

    return run


@pytest.fixture
def check_test(output_validator):
    """A callable running the package's output validator on its test `test` ("sample/01",
    "secret/03-path": data/<test>.in and .ans) and a team output (str or bytes)."""

    def run(package: Path, test: str, team_output: str | bytes) -> tuple[int, str]:
        path = package / "data" / test
        data = team_output.encode() if isinstance(team_output, str) else team_output
        return output_validator(package, path.with_suffix(".in"), path.with_suffix(".ans"), data)

    return run


@pytest.fixture
def generate_into():
    """A callable running the generator of every generated secret test of a package's test plan;
    writes `folder/<name>.in` and returns {file name: bytes}."""
    from judge.testplan import planned_input, read_plan

    def run(package: Path, folder: Path) -> dict[str, bytes]:
        folder.mkdir(parents=True, exist_ok=True)
        plan = read_plan(package)
        assert plan is not None, f"{package}: no generators/tests.yaml"
        for test in plan.group("secret"):
            if not test.hand_written:
                (folder / f"{test.name}.in").write_bytes(planned_input(package, test))
        return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}

    return run
