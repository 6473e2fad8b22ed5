"""The `basic` reference solver (BFS from the goal) against facts computed here by other means:
Bellman-Ford relaxation over all 720 boards, and the permutation-parity invariant."""

from __future__ import annotations

import functools
import itertools

from reference.basic import GOAL, format_answer, solve

ALL_BOARDS = sorted("".join(p) for p in itertools.permutations(GOAL))
UNKNOWN = 10**6


def adjacent_boards(first: str, second: str) -> bool:
    """True if the boards differ by `*` swapping with a side neighbour on the 2x3 board.

    Written from coordinates, unlike the solver and the checker.
    """
    differing = [i for i in range(6) if first[i] != second[i]]
    if len(differing) != 2 or "*" not in (first[differing[0]], first[differing[1]]):
        return False
    (row_a, col_a), (row_b, col_b) = (divmod(i, 3) for i in differing)
    return abs(row_a - row_b) + abs(col_a - col_b) == 1


@functools.cache
def relaxed_distances() -> dict[str, int]:
    """{board: least moves to GOAL} by relaxing every adjacent pair until nothing changes."""
    pairs = [(a, b) for a in ALL_BOARDS for b in ALL_BOARDS if adjacent_boards(a, b)]
    distance = dict.fromkeys(ALL_BOARDS, UNKNOWN)
    distance[GOAL] = 0
    changed = True
    while changed:
        changed = False
        for a, b in pairs:
            if distance[b] + 1 < distance[a]:
                distance[a] = distance[b] + 1
                changed = True
    return distance


def tile_parity(board: str) -> int:
    """Parity (0 even, 1 odd) of the tiles' order, read row by row without `*`, against BASIC."""
    ranks = ["BASIC".index(tile) for tile in board if tile != "*"]
    return sum(a > b for a, b in itertools.combinations(ranks, 2)) % 2


def test_independent_facts_of_the_puzzle():
    distance = relaxed_distances()
    reachable = [board for board in ALL_BOARDS if distance[board] < UNKNOWN]
    assert len(ALL_BOARDS) == 720
    assert len(reachable) == 360
    assert max(distance[board] for board in reachable) == 21
    # a move never changes the tile parity, and the even boards are exactly the reachable ones
    assert {board for board in ALL_BOARDS if tile_parity(board) == 0} == set(reachable)


def test_reference_finds_the_least_number_of_moves_from_every_board():
    distance = relaxed_distances()
    for board in ALL_BOARDS:
        sequence = solve(board)
        if distance[board] == UNKNOWN:
            assert sequence is None, board
            continue
        assert len(sequence) - 1 == distance[board], board
        assert sequence[0] == board and sequence[-1] == GOAL
        assert all(adjacent_boards(a, b) for a, b in zip(sequence, sequence[1:])), board


def test_format_answer():
    assert format_answer(None) == "-1\n"
    assert format_answer([GOAL]) == "0\nBASIC*\n"
    assert format_answer(["BASI*C", GOAL]) == "1\nBASI*C\nBASIC*\n"
