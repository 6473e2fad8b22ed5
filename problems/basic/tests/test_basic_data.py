"""The `basic` test data: the reference's command line, and the positions the package promises
(goal, 21 moves, unreachable, every distance)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "problems" / "basic"
SECRET = PACKAGE / "data" / "secret"


def judge_moves(path: Path) -> int:
    """The k (or -1) of a test's judge answer."""
    return int(path.with_suffix(".ans").read_text().split()[0])


def test_reference_command_line_prints_the_sample_answer():
    run = subprocess.run(
        [sys.executable, str(ROOT / "reference" / "basic.py")],
        input=b"BASI*C\n",
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert run.stdout == b"1\nBASI*C\nBASIC*\n"


def test_samples():
    samples = sorted(PACKAGE.glob("data/sample/*.in"))
    # one move; a moderate distance; two tiles swapped (an odd permutation: unreachable)
    assert [path.read_text() for path in samples] == ["BASI*C\n", "CIA*BS\n", "ABSIC*\n"]
    assert [judge_moves(path) for path in samples] == [1, 8, -1]


def test_secret_positions_cover_the_required_cases():
    moves = {path.read_text().strip(): judge_moves(path) for path in SECRET.glob("*.in")}
    assert moves["BASIC*"] == 0
    assert moves["IC*BAS"] == 21  # the farthest position (checked in test_basic_reference)
    assert sum(k == -1 for k in moves.values()) >= 5
    assert set(range(22)) <= set(moves.values())  # every distance from 0 to 21
