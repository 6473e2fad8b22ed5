"""Reference solver for `lines`: move a ball along a shortest path (the wave algorithm).

Algorithm: breadth-first search from the ball `@` over free cells (`.` and `X`), the
"wave" algorithm (Lee 1961; Moore 1959), with a predecessor per cell to rebuild one
shortest path from `X` back to `@`. O(N^2) time and memory for an N x N board.

Input (stdin): `N` (2 <= N <= 40), then N lines of N characters from `.O@X`.
Output (stdout): `N` when `X` cannot be reached; otherwise `Y` and the board with every
cell of one shortest path after `@` (`X` included) replaced by `+`.
The judge also offers `input.txt`; this solver uses stdin and stdout only.
"""

import sys
from collections import deque

FREE_CELLS = ".X"
PATH_MARK = "+"
# Neighbour order fixes which of several shortest paths is printed: right, down, left, up.
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def find_cell(board, mark):
    """Return (row, column), 0-based, of the first `mark` in `board` (a list of strings).

    Raises ValueError if `mark` is absent.
    """
    for row, line in enumerate(board):
        column = line.find(mark)
        if column >= 0:
            return row, column
    raise ValueError(f"no {mark!r} on the board")


def shortest_path(board):
    """Return a shortest list of (row, column) cells from the cell after `@` to `X`, or None.

    `board` is a list of N strings of N characters from `.O@X`. The list holds k cells for
    a path of k moves (`@` excluded, `X` last); None when `X` is unreachable.
    Raises ValueError if `@` or `X` is missing.
    """
    size = len(board)
    start = find_cell(board, "@")
    target = find_cell(board, "X")
    came_from = {start: None}
    wave = deque([start])
    while wave and target not in came_from:
        row, column = wave.popleft()
        for d_row, d_column in STEPS:
            cell = (row + d_row, column + d_column)
            if (
                0 <= cell[0] < size
                and 0 <= cell[1] < size
                and cell not in came_from
                and board[cell[0]][cell[1]] in FREE_CELLS
            ):
                came_from[cell] = (row, column)
                wave.append(cell)
    if target not in came_from:
        return None
    path = []
    cell = target
    while cell != start:
        path.append(cell)
        cell = came_from[cell]
    path.reverse()
    return path


def solve(board):
    """Return the board with one shortest path drawn in `+`, or None if `X` is unreachable.

    `board`: list of N strings (N x N, characters `.O@X`); the result has the same shape.
    """
    path = shortest_path(board)
    if path is None:
        return None
    rows = [list(line) for line in board]
    for row, column in path:
        rows[row][column] = PATH_MARK
    return ["".join(cells) for cells in rows]


def format_answer(drawn_board):
    """Return the output text: `N\\n` for None, else `Y\\n` and the board lines."""
    if drawn_board is None:
        return "N\n"
    return "Y\n" + "".join(line + "\n" for line in drawn_board)


def parse_input(text):
    """Return the board (list of N strings) from the input text `N` + N lines."""
    lines = text.split()
    size = int(lines[0])
    return lines[1 : 1 + size]


def main():
    """Read the input on stdin, write the answer on stdout."""
    sys.stdout.write(format_answer(solve(parse_input(sys.stdin.read()))))


if __name__ == "__main__":
    main()
