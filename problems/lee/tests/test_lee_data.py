"""The `lee` test data: reproducible generator, the reference's command line, and the required
cases present with answers worked out by hand."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
SECRET = PACKAGE / "data" / "secret"
REFERENCE = Path(__file__).resolve().parents[3] / "reference" / "lee.py"


def test_generator_is_reproducible_and_matches_the_package(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    second = generate_into(PACKAGE, tmp_path / "second")
    assert first == second
    assert len(first) >= 25
    committed = {path.name: path.read_bytes() for path in sorted(SECRET.glob("*.in"))}
    assert first == committed


def test_reference_main_prints_the_answer_files():
    for name in ("01", "02", "03"):
        test = PACKAGE / "data" / "sample" / name
        run = subprocess.run(
            [sys.executable, str(REFERENCE)],
            input=Path(f"{test}.in").read_bytes(),
            capture_output=True,
            check=True,
            timeout=60,
        )
        assert run.stdout == Path(f"{test}.ans").read_bytes()


def test_samples_are_the_seed_examples():
    # The seed lesson's three mazes need 12 moves, 6 moves, and are unreachable.
    firsts = [(PACKAGE / "data" / "sample" / f"0{i}.ans").read_text().split()[0] for i in (1, 2, 3)]
    assert firsts == ["12", "6", "-1"]


# Shortest move counts derived from how each maze is built (see generators/generate.py).
HAND_ANSWERS = {
    "01-one-cell": 0,
    "02-mouse-on-cheese": 0,
    "03-mouse-on-cheese-walled-in": 0,  # walled in, but already there
    "04-two-cells": 1,
    "05-cheese-walled-in": -1,
    "06-mouse-walled-in": -1,
    "07-cheese-in-walled-corner": -1,
    "08-row-corridor": 99,
    "09-column-corridor": 99,
    "10-row-corridor-blocked": -1,
    "11-open-corner-to-corner": 99 + 99,  # no walls: the Manhattan distance
    "12-open-reverse-corners": 99 + 99,
    "13-open-centre-to-edge": (100 - 50) + (51 - 18),
    "14-serpentine-rows": 50 * 99 + 49 * 2,  # 50 free rows walked end to end, 49 two-step turns
    "15-serpentine-columns": 50 * 99 + 49 * 2,
    "17-border-ring": 4 * 99 - 2,  # the 396-cell ring minus the cut cell, walked end to end
    "18-greedy-trap": (70 - 10) + 30 + (100 - 10) + 30,  # up out of the cup, round its right side
    "19-single-gaps": 4 * 99 + 99,  # four full-width crossings, 99 rows down
    "20-split-unreachable": -1,
}


@pytest.mark.parametrize("name, moves", HAND_ANSWERS.items())
def test_structured_tests_have_the_hand_derived_answer(name, moves):
    assert int((SECRET / f"{name}.ans").read_text().split()[0]) == moves


def grid_shape(path: Path) -> tuple[int, int]:
    rows, cols = path.read_text().split("\n", 1)[0].split()
    return int(rows), int(cols)


def test_the_required_cases_are_covered():
    shapes = {path.name: grid_shape(path) for path in SECRET.glob("*.in")}
    assert {(1, 1), (1, 100), (100, 1), (100, 100)} <= set(shapes.values())
    answers = {path.name[:-4]: int(path.read_text().split()[0]) for path in SECRET.glob("*.ans")}
    assert answers["16-spiral"] > 5000
    assert any(answers[name] == -1 and shapes[name + ".in"] == (100, 100) for name in answers)
    densities = {int(re.search(r"walls-(\d+)pct", name).group(1)) for name in answers if "walls-" in name}
    assert len(densities) >= 6 and min(densities) == 10 and max(densities) == 45
