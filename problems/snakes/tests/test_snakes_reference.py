"""The `snakes` reference solver (BFS) against an independent Bellman-Ford relaxation on random
small boards, plus the package's accepted and wrong submissions on the same boards."""

from __future__ import annotations

import contextlib
import io
import random
import runpy
import sys
from pathlib import Path

import pytest

from reference.snakes import solve

SUBMISSIONS = Path(__file__).resolve().parents[1] / "submissions"


def random_board(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """A random valid transition list for n cells (each a once, no b is another line's a)."""
    inner = list(range(1, n - 1))
    starts = rng.sample(inner, rng.randint(0, len(inner)))
    free_ends = [cell for cell in range(n) if cell not in set(starts)]
    return [(a, rng.choice([b for b in free_ends if b != a])) for a in starts]


def relaxed_throws(n: int, transitions: list[tuple[int, int]]) -> int:
    """Least throws by Bellman-Ford: relax every (cell, throw) edge until nothing changes.

    Deliberately no queue and no layers, so it shares no logic with the BFS under test.
    """
    ends = dict(transitions)
    unknown = n + 10
    throws = [unknown] * n
    throws[0] = 0
    for _ in range(n):  # at most n - 1 rounds can still improve a shortest path
        changed = False
        for cell in range(n):
            for face in range(1, 7):
                if cell + face < n:
                    end = ends.get(cell + face, cell + face)
                    if throws[cell] + 1 < throws[end]:
                        throws[end] = throws[cell] + 1
                        changed = True
        if not changed:
            break
    return -1 if throws[n - 1] == unknown else throws[n - 1]


def random_boards(count: int, seed: int, biggest: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """`count` random boards of 2..biggest cells from a fixed seed."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        n = rng.randint(2, biggest)
        boards.append((n, random_board(rng, n)))
    return boards


def test_relaxation_agrees_with_hand_worked_boards():
    # guards the independent method itself: the seed's board, a wall of six snakes, no board
    assert relaxed_throws(9, [(4, 7), (5, 0)]) == 2
    assert relaxed_throws(12, [(2, 0), (3, 1), (4, 0), (5, 1), (6, 0), (7, 1)]) == -1
    assert relaxed_throws(13, []) == 2


def test_reference_agrees_with_relaxation_on_random_boards():
    boards = random_boards(1500, seed=31, biggest=40)
    mismatches = [(n, board) for n, board in boards if solve(n, board) != relaxed_throws(n, board)]
    assert mismatches == []
    answers = {relaxed_throws(n, board) for n, board in boards}
    assert -1 in answers and len(answers) >= 5  # the boards are varied, not all trivial


def test_reference_on_small_corner_boards():
    assert solve(2, []) == 1
    assert solve(3, [(1, 0)]) == 1  # throw 2
    assert solve(3, [(1, 2)]) == 1  # ladder straight to the end
    assert solve(7, [(c, 0) for c in range(1, 6)]) == 1  # throw 6 over five snakes
    assert solve(8, [(c, 0) for c in range(1, 7)]) == -1  # six snakes, the end 7 away


def run_submission(name: str, text: str) -> int:
    """Run a Python submission in this process on one input text; return the printed integer.

    In-process (runpy with stdin/stdout swapped) because hundreds of interpreter starts would
    dominate the test time.
    """
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("ascii")))
    stdout = io.StringIO()
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(stdout):
            runpy.run_path(str(SUBMISSIONS / name), run_name="__main__")
    finally:
        sys.stdin = saved
    return int(stdout.getvalue())


def board_text(n: int, board: list[tuple[int, int]]) -> str:
    """The input text of a board."""
    return "%d %d\n" % (n, len(board)) + "".join("%d %d\n" % pair for pair in board)


def test_overshooting_submission_is_right_on_random_boards():
    # letting a throw pass n - 1 and count as finishing never changes the least number of
    # throws (the exact throw is always available from the same cell), so it stays accepted
    boards = random_boards(400, seed=77, biggest=30)
    wrong = [
        (n, board)
        for n, board in boards
        if run_submission("accepted/overshoot_counts_as_finish.py", board_text(n, board)) != relaxed_throws(n, board)
    ]
    assert wrong == []


@pytest.mark.parametrize("test", ["13-snake-needed", "14-snake-zigzag"])
def test_forward_only_submission_fails_where_a_snake_is_needed(test):
    path = SUBMISSIONS.parent / "data" / "secret" / f"{test}.in"
    got = run_submission("wrong_answer/forward_only.py", path.read_text())
    best = int(path.with_suffix(".ans").read_text())
    # avoiding snakes can only make the route longer (or impossible), never shorter
    assert got == -1 or got > best
