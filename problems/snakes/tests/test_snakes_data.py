"""The `snakes` test data: the reference's command line, and the traps the package promises
(checked on the inputs, not taken from the answers alone)."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

from reference.snakes import parse_input

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "problems" / "snakes"
SECRET = PACKAGE / "data" / "secret"


@functools.cache
def secret_boards() -> dict[str, tuple[int, list[tuple[int, int]], int]]:
    """Return {test name: (n, transitions, judge answer)} for every secret test."""
    boards = {}
    for path in sorted(SECRET.glob("*.in")):
        n, transitions = parse_input(path.read_text())
        boards[path.stem] = (n, transitions, int(path.with_suffix(".ans").read_text()))
    return boards


def forward_only_throws(n: int, transitions: list[tuple[int, int]]) -> int:
    """Least throws if snakes may never be used (landing on a snake is forbidden), or -1.

    Every allowed move goes up, so one pass over the cells in increasing order settles them.
    """
    ends = dict(transitions)
    best: list[int | None] = [None] * n
    best[0] = 0
    for cell in range(n):
        here = best[cell]
        if here is None or ends.get(cell, cell) != cell:
            continue
        for landed in range(cell + 1, min(cell + 6, n - 1) + 1):
            end = ends.get(landed, landed)
            there = best[end]
            if end > cell and (there is None or there > here + 1):
                best[end] = here + 1
    last = best[n - 1]
    return -1 if last is None else last


def test_reference_command_line_prints_the_sample_answer():
    sample = PACKAGE / "data" / "sample" / "01.in"
    run = subprocess.run(
        [sys.executable, str(ROOT / "reference" / "snakes.py")],
        stdin=sample.open("rb"),
        capture_output=True,
        timeout=60,
        check=True,
    )
    # the seed's board: throw 4 (ladder 4 -> 7), then throw 1
    assert run.stdout == b"2\n"


def test_sample_answers_worked_out_by_hand():
    answers = [int(path.read_text()) for path in sorted(PACKAGE.glob("data/sample/*.ans"))]
    # 1: ladder 4->7 then one throw; 2: ladder 1->10, snake 16->8, ladder 9->39; 3: wall of six
    assert answers == [2, 3, -1]


def test_boards_that_need_a_snake():
    boards = secret_boards()
    needing = [
        name
        for name, (n, transitions, answer) in boards.items()
        if answer != -1 and forward_only_throws(n, transitions) != answer
    ]
    # a snake-free route is always at least as long; strictly longer means every optimal
    # route slides down at least one snake
    assert {"13-snake-needed", "14-snake-zigzag", "25-large-snake-needed"} <= set(needing)
    assert any(boards[name][0] == 100000 for name in needing)


def test_six_consecutive_snakes_block_the_board():
    n, transitions, answer = secret_boards()["08-six-snakes-wall"]
    snakes = {a for a, b in transitions if b < a}
    assert answer == -1
    assert any(all(cell in snakes for cell in range(first, first + 6)) for first in range(1, n - 6))


def test_the_edge_and_large_cases_are_present():
    boards = secret_boards()
    sizes = [(n, len(transitions)) for n, transitions, _ in boards.values()]
    assert (2, 0) in sizes  # n = 2 (t = 0 = n - 2 as well)
    assert any(t == 0 and n > 2 for n, t in sizes)  # t = 0
    assert sum(t == n - 2 and n > 3 for n, t in sizes) >= 3  # t = n - 2
    large = [transitions for n, transitions, _ in boards.values() if n == 100000]
    assert len(large) >= 5
    ladders = [sum(b > a for a, b in board) for board in large]
    snakes = [sum(b < a for a, b in board) for board in large]
    assert [] in large  # none
    assert max(ladders) >= 30000 and max(snakes) >= 30000  # many of each
    answers = [answer for _, _, answer in boards.values()]
    assert -1 in answers and max(answers) > 1000
