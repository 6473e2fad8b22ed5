"""``judge problem stress``: a planted off-by-one in a copy of a reference is found and shrunk to an input
no larger than the smallest one found by hand; a right solution passes; ``--keep`` adds the failing
input to the test plan; the generic deletions."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from judge.cli import app
from judge.generate import generate
from judge.packages import load_package
from judge.scaffold import new_problem
from judge.stress import deletions, size_for, stress
from judge.testplan import read_plan
from judge.verdicts import WA
from tests.slots import slot

REPO = Path(__file__).resolve().parents[2]
STRESS_SLOT = slot(53)
# The smallest input on which "never step into the last column" fails, found by hand: a 1x2 grid
# with the cheese in column 2 (or a 2x1 grid, where no move at all is allowed), 16 bytes.
HAND_MINIMUM = b"1 2\n0 0\n1 1\n1 2\n"


def test_a_planted_off_by_one_in_lee_is_found_and_shrunk(tmp_path):
    wrong = tmp_path / "lee_bug.py"
    source = (REPO / "reference/lee.py").read_text()
    assert source.count("and 0 <= next_col < cols\n") == 1
    wrong.write_text(source.replace("and 0 <= next_col < cols\n", "and 0 <= next_col < cols - 1\n"))
    result = stress(REPO / "problems/lee", wrong, budget_s=600, seed=1, slot=STRESS_SLOT)
    assert result.found is not None and result.smallest is not None
    smallest = result.smallest
    assert smallest.verdict == WA and len(smallest.input) <= len(HAND_MINIMUM)
    rows, cols = map(int, smallest.input.split(b"\n")[0].split())
    assert rows * cols == 2
    assert smallest.expected.split(b"\n")[0] == b"1" and smallest.received.split() == [b"-1"]
    assert "reachable" in smallest.message


def test_a_right_solution_passes_every_case(tmp_path):
    result = stress(REPO / "problems/queens", REPO / "reference/queens.py", budget_s=8, seed=3, slot=STRESS_SLOT)
    assert result.cases >= 1 and result.found is None and result.smallest is None


def test_stress_keep_adds_the_smallest_failing_input_as_a_secret_test(tmp_path):
    root = new_problem(tmp_path / "problems", "sumup")
    wrong = root / "submissions/wrong_answer/off_by_one.py"
    result = CliRunner().invoke(
        app,
        ["problem", "stress", str(root), str(wrong), "--budget-s", "300", "--seed", "2"]
        + ["--keep", "last-forgotten", "--slot", str(STRESS_SLOT)],
    )
    assert result.exit_code == 1, result.output
    assert "--- input:" in result.output and "--- WA: token 1: expected" in result.output
    plan = read_plan(root)
    assert plan is not None and plan.group("secret")[-1].name == "07-last-forgotten"
    kept = (root / "data/secret/07-last-forgotten.in").read_bytes()
    count, numbers = kept.split(b"\n")[:2]
    assert count == b"1" and numbers != b"0"  # one number, not zero: the smallest failing input
    answers = {p.name: p.read_bytes() for p in (root / "data").rglob("*.ans")}
    generate(root)
    assert {p.name: p.read_bytes() for p in (root / "data").rglob("*.ans")} == answers
    assert [t.name for t in load_package(root).tests][-1] == "secret/07-last-forgotten"


def test_stress_refuses_a_package_without_a_stress_entry_and_a_missing_file(tmp_path):
    root = new_problem(tmp_path / "problems", "sumup")
    plan = root / "generators/tests.yaml"
    plan.write_text(re.sub(r"^stress:.*\n(  .*\n)+", "", plan.read_text(), flags=re.MULTILINE))
    assert read_plan(root).stress is None  # type: ignore[union-attr]
    result = CliRunner().invoke(app, ["problem", "stress", str(root), str(REPO / "reference/queens.py")])
    assert result.exit_code == 1 and "no stress entry" in result.output
    result = CliRunner().invoke(app, ["problem", "stress", str(root), str(tmp_path / "none.py")])
    assert result.exit_code == 2 and "no such submission" in result.output


def test_sizes_grow_from_one_and_deletions_are_each_one_line_or_token_shorter():
    assert [size_for(case, 4) for case in range(14)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4]
    assert list(deletions(b"2\n1 5\n")) == [b"1 5\n", b"2\n", b"2\n5\n", b"2\n1\n"]
