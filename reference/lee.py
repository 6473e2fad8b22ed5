"""Reference solver for `lee`: the mouse and the cheese.

Algorithm: Lee's wave algorithm (C. Y. Lee, "An Algorithm for Path Connections and Its
Applications", IRE Trans. Electronic Computers, 1961), i.e. breadth-first search over the free
cells of the maze with a FIFO queue. Each free cell is queued at most once, so the run is
O(n*m) time and memory.

Tie-breaking (fixed, so the judge answers are byte-identical on every run): neighbours are tried
in the order up, down, left, right, and each cell keeps as predecessor the first cell that reached
it (the earliest one taken from the queue). The printed path is that predecessor chain, from the
mouse to the cheese.

Input (stdin): `n m`, n rows of m values 0/1, `ls cs`, `lb cb` (1-based).
Output (stdout): `-1` if the cheese is unreachable, else `k` then k+1 lines `i j` (1-based).
"""

import sys
from collections import deque

# Order of the four moves as (row delta, column delta): up, down, left, right.
MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def solve(grid, start, goal):
    """Find a shortest 4-neighbour path through free cells.

    grid: list of n rows, each a list of m ints (0 free, 1 wall).
    start, goal: (row, col) 0-based, both free cells.
    Returns the path as a list of (row, col) 0-based cells from start to goal inclusive
    (length k+1 for k moves), or None if goal cannot be reached. Raises nothing on valid input.
    """
    rows, cols = len(grid), len(grid[0])
    # predecessor[r][c]: cell the wave came from; start points at itself; None = not reached.
    predecessor = [[None] * cols for _ in range(rows)]
    predecessor[start[0]][start[1]] = start
    queue = deque([start])
    while queue:
        row, col = queue.popleft()
        if (row, col) == goal:
            break
        for d_row, d_col in MOVES:
            next_row, next_col = row + d_row, col + d_col
            if (
                0 <= next_row < rows
                and 0 <= next_col < cols
                and grid[next_row][next_col] == 0
                # mark on enqueue, so no cell enters the queue twice
                and predecessor[next_row][next_col] is None
            ):
                predecessor[next_row][next_col] = (row, col)
                queue.append((next_row, next_col))
    if predecessor[goal[0]][goal[1]] is None:
        return None
    path = [goal]
    while path[-1] != start:
        cell = path[-1]
        path.append(predecessor[cell[0]][cell[1]])
    path.reverse()
    return path


def parse_input(text):
    """Parse the problem input into (grid, start, goal) with 0-based cells.

    text: the whole input as a str. Raises ValueError/IndexError on malformed input
    (the judge's input validator guarantees it never happens on real tests).
    """
    values = [int(token) for token in text.split()]
    rows, cols = values[0], values[1]
    cells = values[2 : 2 + rows * cols]
    grid = [cells[r * cols : (r + 1) * cols] for r in range(rows)]
    mouse_row, mouse_col, cheese_row, cheese_col = values[2 + rows * cols : 6 + rows * cols]
    return grid, (mouse_row - 1, mouse_col - 1), (cheese_row - 1, cheese_col - 1)


def format_answer(path):
    """Format a path (list of 0-based cells, or None) as the expected output text.

    Returns "-1\\n" for None, else "k\\n" followed by k+1 lines "i j\\n" with 1-based cells.
    """
    if path is None:
        return "-1\n"
    lines = [str(len(path) - 1)]
    lines.extend(f"{row + 1} {col + 1}" for row, col in path)
    return "\n".join(lines) + "\n"


def main():
    """Read the input from stdin and write the answer to stdout."""
    grid, start, goal = parse_input(sys.stdin.read())
    sys.stdout.write(format_answer(solve(grid, start, goal)))


if __name__ == "__main__":
    main()
