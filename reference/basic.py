"""Reference solver for `basic`: the 2x3 sliding puzzle that must reach `BASIC*`.

Algorithm: breadth-first search over the positions (Moore 1959), started from the goal `BASIC*`
rather than from the given position: a move (swap `*` with a side neighbour) is its own inverse,
so the BFS tree rooted at the goal gives, for every position, the next position on a shortest
way to the goal. Only 360 of the 6! = 720 positions are in that tree (the other half has the odd
tile permutation and can never reach the goal), and the farthest of them needs 21 moves.

Tie-breaking (fixed, so the judge answers are byte-identical on every run): from each position the
blank is tried with its neighbour above, below, left, right, in that order, and each position keeps
the first position that reached it.

Input (stdin): one line, a permutation of `BASIC*` (the 2x3 board row by row).
Output (stdout): `-1`, or k then k+1 lines: the positions from the given one to `BASIC*`.
"""

import sys
from collections import deque

GOAL = "BASIC*"
ROWS, COLS = 2, 3
BLANK = "*"


def neighbours(position):
    """Return the positions one move away from `position`, in the order up, down, left, right.

    position: a 6-character str, the 2x3 board row by row with `*` for the empty cell.
    """
    blank = position.index(BLANK)
    row, col = divmod(blank, COLS)
    cells = list(position)
    result = []
    for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        other_row, other_col = row + d_row, col + d_col
        if 0 <= other_row < ROWS and 0 <= other_col < COLS:
            other = other_row * COLS + other_col
            cells[blank], cells[other] = cells[other], cells[blank]
            result.append("".join(cells))
            cells[blank], cells[other] = cells[other], cells[blank]
    return result


def next_towards_goal():
    """BFS from GOAL; return a dict position -> the next position on a shortest way to GOAL.

    GOAL maps to None. Positions that cannot reach GOAL are absent (360 keys in all).
    """
    towards = {GOAL: None}
    queue = deque([GOAL])
    while queue:
        position = queue.popleft()
        for other in neighbours(position):
            if other not in towards:
                towards[other] = position
                queue.append(other)
    return towards


def solve(start):
    """Return a shortest list of positions from `start` to GOAL (both included), or None.

    start: a permutation of `BASIC*`. The list has k+1 entries for k moves; None means
    GOAL cannot be reached. Raises nothing for any 6-character string.
    """
    towards = next_towards_goal()
    if start not in towards:
        return None
    sequence = [start]
    while sequence[-1] != GOAL:
        sequence.append(towards[sequence[-1]])
    return sequence


def format_answer(sequence):
    """Format a sequence (list of positions, or None) as output: `-1`, or k and k+1 lines."""
    if sequence is None:
        return "-1\n"
    return "%d\n%s\n" % (len(sequence) - 1, "\n".join(sequence))


def main():
    """Read a position from stdin and print a shortest sequence of moves to `BASIC*`."""
    start = sys.stdin.buffer.read().decode("ascii").strip()
    sys.stdout.write(format_answer(solve(start)))


if __name__ == "__main__":
    main()
