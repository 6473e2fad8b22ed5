"""``judge problem new``: the skeleton verifies as it stands (every step of ``judge problem verify``,
submissions in the sandbox included), with the default checker and with the custom checker, whose
feedback.json follows the checkers' convention and is drawn by the pages' generic ``answer`` picture;
bad ids and existing packages are refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from judge.checkers import check_output
from judge.cli import app
from judge.packages import load_package
from judge.pictures import render_picture
from judge.scaffold import new_problem, shared_reading
from judge.verdicts import AC, WA
from judge.verify import verify_package
from tests.slots import slot
from tests.validator_box import needs_root, validator_box

NEW_SLOT = slot(52)


@pytest.mark.parametrize("checker", ["default", "custom"])
def test_the_skeleton_verifies_as_it_stands(tmp_path, checker):
    result = CliRunner().invoke(
        app,
        ["problem", "new", "sumup", "--language", "en", "--language", "sk", "--checker", checker]
        + ["--dir", str(tmp_path / "problems")],
    )
    assert result.exit_code == 0, result.output
    root = tmp_path / "problems" / "sumup"
    assert (tmp_path / "reference" / "sumup.py").is_file()
    assert (root / "submissions/accepted/reference.py").resolve() == (tmp_path / "reference/sumup.py").resolve()
    assert sorted(p.name for p in (root / "statement").iterdir()) == ["problem.en.md", "problem.sk.md"]
    report = verify_package(root, slot=NEW_SLOT)
    failures = [(s.title, f.test, f.reason) for s in report.steps for f in s.failures]
    assert report.ok, failures
    assert not any(s.skipped for s in report.steps)
    package = load_package(root)
    assert package.validation == checker and len(package.tests) >= 5
    assert (package.output_validator is not None) == (checker == "custom")


@needs_root
def test_the_custom_checker_writes_feedback_on_every_verdict(tmp_path):
    root = new_problem(tmp_path / "problems", "sumup", checker="custom")
    checker = root / "output_validators/check/check.py"
    assert shared_reading() in checker.read_text()
    package = load_package(root)
    test = package.tests[0]
    team = tmp_path / "team"
    with validator_box(77) as box:  # the checker runs in the sandbox, as judging runs it
        results = []
        for output in (b"6\n", b"7\n", b"\xff"):
            team.write_bytes(output)
            results.append(check_output(package, test, team, box.validators.check))
    for result, (verdict, fault) in zip(results, [(AC, None), (WA, "wrong sum"), (WA, "not an integer")]):
        assert result.verdict == verdict and result.feedback is not None
        assert (result.feedback["kind"], result.feedback["version"], result.feedback["accepted"]) == (
            "answer",
            1,
            verdict == AC,
        )
        assert (result.feedback["fault"] or {}).get("reason") == fault
        picture = render_picture(result.feedback)  # the pages draw it
        assert picture is not None and ("Accepted: 6." if verdict == AC else f"Wrong answer: {fault}") in picture
    feedback = tmp_path / "fb"
    feedback.mkdir()
    proc = subprocess.run(
        [sys.executable, str(checker), str(test.input_path), str(test.answer_path), str(feedback)], input=b""
    )
    assert proc.returncode == 43 and json.loads((feedback / "feedback.json").read_text())["fault"]["reason"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["Bad Id"], "problem id"),
        (["ok", "--checker", "fancy"], "default or custom"),
        (["ok", "--language", "english!"], "language"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason(tmp_path, args, message):
    result = CliRunner().invoke(app, ["problem", "new", *args, "--dir", str(tmp_path / "problems")])
    assert result.exit_code == 1 and message in result.output
    assert not (tmp_path / "problems").exists()


def test_an_existing_package_or_reference_is_never_overwritten(tmp_path):
    new_problem(tmp_path / "problems", "sumup")
    statement = tmp_path / "problems/sumup/statement/problem.en.md"
    statement.write_text("# mine\n")
    result = CliRunner().invoke(app, ["problem", "new", "sumup", "--dir", str(tmp_path / "problems")])
    assert result.exit_code == 1 and "exists already" in result.output
    assert statement.read_text() == "# mine\n"
    (tmp_path / "elsewhere").mkdir()
    result = CliRunner().invoke(app, ["problem", "new", "sumup", "--dir", str(tmp_path / "elsewhere")])
    assert result.exit_code == 1 and "reference" in result.output  # its reference/sumup.py is taken
    assert not (tmp_path / "elsewhere/sumup").exists()
