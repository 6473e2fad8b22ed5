"""Test input generator of `lines`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input on standard output; the tests it makes are listed in generators/tests.yaml (the
test plan read by `judge problem generate`). Every random choice comes from `random.Random(seed)`,
so the same arguments write the same bytes. Input format: `N` then N lines of N characters from
`.O@X` (2 <= N <= 40), exactly one `@` and one `X`. The kinds are the keys of KINDS (cells
0-based); `random --size S --seed N` (for `judge problem stress`) draws a board of 2 .. S + 1 rows.
"""

import argparse
import random
import sys

MAX_SIZE = 40


def blank(size, fill="."):
    """Return a size x size grid (list of lists of characters) filled with `fill`."""
    return [[fill] * size for _ in range(size)]


def with_ends(grid, start, target):
    """Put `@` at `start` and `X` at `target` ((row, column), 0-based) and return `grid`."""
    grid[start[0]][start[1]] = "@"
    grid[target[0]][target[1]] = "X"
    return grid


def random_board(rng, size, density, ends=None):
    """Return a board with each cell a ball with probability `density`.

    `ends` is ((row, column) of @, (row, column) of X), 0-based; None puts both at random cells.
    """
    grid = [["O" if rng.random() < density else "." for _ in range(size)] for _ in range(size)]
    if ends is None:
        cells = [(row, column) for row in range(size) for column in range(size)]
        ends = rng.sample(cells, 2)
    return with_ends(grid, *ends)


def serpentine(size):
    """Return the longest-path board: free rows joined by one gap at alternating ends.

    Rows 0, 2, 4, ... are free; rows 1, 3, ... are balls with one gap, at the right end and
    the left end in turn. @ starts at the top left; X is at the far end of the last free row.
    For N = 40 the only path has 818 moves.
    """
    grid = blank(size)
    free_rows = list(range(0, size, 2))
    for wall_row in range(1, size, 2):
        grid[wall_row] = ["O"] * size
        if wall_row + 1 < size:
            gap_column = size - 1 if (wall_row // 2) % 2 == 0 else 0
            grid[wall_row][gap_column] = "."
    last_row = free_rows[-1]
    # The last free row is entered from the side where the previous gap is; X waits at the other end.
    entered_right = ((last_row - 1) // 2) % 2 == 0
    return with_ends(grid, (0, 0), (last_row, 0 if entered_right else size - 1))


def spiral(size):
    """Return a board whose free cells form a spiral corridor one cell wide, with walls one ball thick.

    A turtle carves from the top left corner clockwise, turning when the cell two steps
    ahead is outside the board or already carved. @ is at the corner, X at the centre end.
    For N = 40 the only path has 837 moves, longer than the serpentine's 818.
    """
    grid = blank(size, "O")
    directions = ((0, 1), (1, 0), (0, -1), (-1, 0))
    row, column, heading = 0, 0, 0
    grid[row][column] = "."
    turns_without_move = 0
    while turns_without_move < 2:
        d_row, d_column = directions[heading]
        ahead = (row + d_row, column + d_column)
        beyond = (row + 2 * d_row, column + 2 * d_column)
        ahead_ok = 0 <= ahead[0] < size and 0 <= ahead[1] < size and grid[ahead[0]][ahead[1]] == "O"
        beyond_carved = 0 <= beyond[0] < size and 0 <= beyond[1] < size and grid[beyond[0]][beyond[1]] == "."
        if ahead_ok and not beyond_carved:
            row, column = ahead
            grid[row][column] = "."
            turns_without_move = 0
        else:
            heading = (heading + 1) % 4
            turns_without_move += 1
    return with_ends(grid, (0, 0), (row, column))


def maze(rng, size):
    """Return a perfect maze (one path between any two free cells), carved by randomized depth-first search.

    Rooms sit at even (row, column); walls of balls between them. @ is in the top left
    room, X in the bottom right room.
    """
    grid = blank(size, "O")
    rooms = range(0, size - 1, 2) if size % 2 == 0 else range(0, size, 2)
    last = rooms[-1]
    stack = [(0, 0)]
    grid[0][0] = "."
    while stack:
        row, column = stack[-1]
        options = [
            (row + d_row, column + d_column)
            for d_row, d_column in ((0, 2), (2, 0), (0, -2), (-2, 0))
            if 0 <= row + d_row <= last
            and 0 <= column + d_column <= last
            and grid[row + d_row][column + d_column] == "O"
        ]
        if not options:
            stack.pop()
            continue
        next_row, next_column = rng.choice(options)
        grid[(row + next_row) // 2][(column + next_column) // 2] = "."
        grid[next_row][next_column] = "."
        stack.append((next_row, next_column))
    return with_ends(grid, (0, 0), (last, last))


def pillars(size):
    """Return an open board with a ball at every (odd, odd) cell: very many equal shortest paths."""
    grid = blank(size)
    for row in range(1, size, 2):
        for column in range(1, size, 2):
            grid[row][column] = "O"
    return with_ends(grid, (0, 0), (size - 2, size - 2))


def boxed(size, inner, keep_open):
    """Return an open board where the cell `inner` has balls on all four sides except `keep_open`.

    `keep_open` is a direction (d_row, d_column) or None (fully boxed). @ is at `inner`,
    X at the bottom right corner (so `inner` must be another cell).
    """
    grid = blank(size)
    for d_row, d_column in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        row, column = inner[0] + d_row, inner[1] + d_column
        if (d_row, d_column) != keep_open and 0 <= row < size and 0 <= column < size:
            grid[row][column] = "O"
    return with_ends(grid, inner, (size - 1, size - 1))


def wall_column(size, column, gap_row=None):
    """Return an open board cut by a column of balls (with one gap at `gap_row`, or none)."""
    grid = blank(size)
    for row in range(size):
        grid[row][column] = "O"
    if gap_row is not None:
        grid[gap_row][column] = "."
    return with_ends(grid, (size // 2, 0), (size // 2, size - 1))


def diagonal_wall(size):
    """Return an open board cut by an anti-diagonal of balls: side-steps cannot cross it."""
    grid = blank(size)
    for row in range(size):
        grid[row][size - 1 - row] = "O"
    return with_ends(grid, (0, 0), (size - 1, size - 1))


def swap_ends(board):
    """Return `board` with `@` and `X` exchanged (the same maze, walked the other way)."""
    swap = {"@": "X", "X": "@"}
    return [[swap.get(cell, cell) for cell in row] for row in board]


def crowded_neighbours(size):
    """Return a board full of balls except @ and X, side by side in the middle: a path of one move."""
    grid = blank(size, "O")
    middle = size // 2
    return with_ends(grid, (middle, middle), (middle, middle + 1))


def x_below_at(size, rng):
    """Return a random dense board with X directly below @ (the answer is one move)."""
    return random_board(rng, size, 0.45, ends=((5, 7), (6, 7)))


def balls_only(size):
    """Return a board of balls but for @ and X at opposite corners: no path."""
    return with_ends(blank(size, "O"), (0, 0), (size - 1, size - 1))


def random_small(seed, size):
    """A random board of 2 .. max(2, min(size + 1, MAX_SIZE)) rows, balls at a random density."""
    rng = random.Random(seed)
    side = rng.randint(2, max(2, min(size + 1, MAX_SIZE)))
    return random_board(rng, side, rng.choice((0.0, 0.2, 0.3, 0.4, 0.5)))


def random_with_density(params, seed):
    """`random-board N DENSITY [corners]`: @ and X at random cells, or at opposite corners."""
    size = int(params[0])
    ends = ((0, 0), (size - 1, size - 1)) if params[2:] == ["corners"] else None
    return random_board(random.Random(seed), size, float(params[1]), ends)


DIRECTIONS = {"right": (0, 1), "down": (1, 0), "left": (0, -1), "up": (-1, 0)}


def boxed_cell(params):
    """`boxed N ROW COLUMN [OPEN_SIDE]`: @ at (ROW, COLUMN) boxed in by balls but on OPEN_SIDE."""
    size, row, column = (int(p) for p in params[:3])
    return boxed(size, (row, column), DIRECTIONS[params[3]] if params[3:] else None)


def ends(params):
    """(@, X) cells from the words `ROW COLUMN ROW COLUMN` (0-based)."""
    cells = [int(p) for p in params[:4]]
    return (cells[0], cells[1]), (cells[2], cells[3])


# KIND -> builder(params, seed, size) returning a board (rows of characters).
KINDS = {
    "board": lambda params, seed, size: list(params),
    "crowded": lambda params, seed, size: crowded_neighbours(int(params[0])),
    "x-below-at": lambda params, seed, size: x_below_at(int(params[0]), random.Random(seed)),
    "open": lambda params, seed, size: with_ends(blank(int(params[0])), *ends(params[1:])),
    "boxed": lambda params, seed, size: boxed_cell(params),
    "boxed-x": lambda params, seed, size: swap_ends(boxed_cell(params)),
    "wall": lambda params, seed, size: wall_column(
        int(params[0]), int(params[1]), int(params[2]) if params[2:] else None
    ),
    "diagonal-wall": lambda params, seed, size: diagonal_wall(int(params[0])),
    "balls-only": lambda params, seed, size: balls_only(int(params[0])),
    "pillars": lambda params, seed, size: pillars(int(params[0])),
    "serpentine": lambda params, seed, size: serpentine(int(params[0])),
    "spiral": lambda params, seed, size: spiral(int(params[0])),
    "maze": lambda params, seed, size: maze(random.Random(seed), int(params[0])),
    "random-board": lambda params, seed, size: random_with_density(params, seed),
    "random": lambda params, seed, size: random_small(seed, size),
}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_SIZE)
    options = parser.parse_args()
    board = ["".join(row) for row in KINDS[options.kind](options.params, options.seed, options.size)]
    sys.stdout.buffer.write((f"{len(board)}\n" + "".join(line + "\n" for line in board)).encode("ascii"))


if __name__ == "__main__":
    main()
