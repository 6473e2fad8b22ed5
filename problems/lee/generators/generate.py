"""Test input generator of `lee` (the mouse and the cheese).

Usage: python3 generate.py KIND [PARAMS...] [--seed S] [--size S]
Writes one input on standard output; the tests it makes are listed in generators/tests.yaml (the
test plan read by `judge problem generate`). Deterministic: every random choice comes from
random.Random(seed), so the same arguments write the same bytes. The kinds are the keys of KINDS;
`random --size S --seed N` (for `judge problem stress`) draws a grid of at most S x S cells.

A test is built as (grid, mouse, cheese): grid a list of rows of 0 (free) / 1 (wall), cells as
(row, col) 0-based; the file holds them 1-based in the exact input format of the problem.
"""

import argparse
import random
import sys
from collections import deque

FULL = 100  # the largest side the constraints allow


def empty_grid(rows, cols):
    """Return a rows x cols grid with no walls."""
    return [[0] * cols for _ in range(rows)]


def random_grid(rng, rows, cols, density):
    """Return a rows x cols grid where each cell is a wall with probability `density`."""
    return [[1 if rng.random() < density else 0 for _ in range(cols)] for _ in range(rows)]


def free_cells(grid):
    """List the free cells of `grid` in row-major order."""
    return [(r, c) for r, row in enumerate(grid) for c, value in enumerate(row) if value == 0]


def wave_distances(grid, source):
    """Map every free cell reachable from `source` to its move count (a plain BFS).

    The generator needs it only to pick far-apart mouse/cheese pairs; answers come from the
    reference solver, never from here.
    """
    rows, cols = len(grid), len(grid[0])
    distance = {source: 0}
    frontier = deque([source])
    while frontier:
        r, c = frontier.popleft()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] == 0 and (nr, nc) not in distance:
                distance[(nr, nc)] = distance[(r, c)] + 1
                frontier.append((nr, nc))
    return distance


def wall_ring(grid, centre):
    """Turn the (up to) 8 cells around `centre` into walls, leaving `centre` itself as it is."""
    r0, c0 = centre
    for r in range(r0 - 1, r0 + 2):
        for c in range(c0 - 1, c0 + 2):
            if (r, c) != centre and 0 <= r < len(grid) and 0 <= c < len(grid[0]):
                grid[r][c] = 1


def serpentine_rows(rows, cols):
    """A one-cell-wide snake: every second row is a wall with one gap, alternating ends.

    Returns (grid, mouse, cheese) with the mouse at the snake's head and the cheese at its tail,
    so the only path walks every free row end to end.
    """
    grid = empty_grid(rows, cols)
    for r in range(1, rows, 2):
        grid[r] = [1] * cols
        gap = cols - 1 if (r // 2) % 2 == 0 else 0
        grid[r][gap] = 0
    last = rows - 1 if rows % 2 == 1 else rows - 2
    tail_col = cols - 1 if (last // 2) % 2 == 0 else 0
    return grid, (0, 0), (last, tail_col)


def transpose(grid):
    """Swap rows and columns of `grid`."""
    return [list(column) for column in zip(*grid)]


def spiral(size):
    """A one-cell-wide corridor carved as a square spiral from the top-left corner inwards.

    Starting from all walls, the carver goes straight while the cell ahead is inside and uncarved
    and the cell after it is not carved (so one wall stays between turns of the spiral), else
    turns clockwise; it stops when it cannot move after a turn.
    Returns (grid, mouse, cheese): mouse at the outer end, cheese at the inner end.
    """
    grid = [[1] * size for _ in range(size)]
    row, col = 0, 0
    grid[row][col] = 0
    directions = ((0, 1), (1, 0), (0, -1), (-1, 0))  # right, down, left, up: clockwise

    def carvable(r, c, d_row, d_col):
        ahead_row, ahead_col = r + d_row, c + d_col
        beyond_row, beyond_col = ahead_row + d_row, ahead_col + d_col
        if not (0 <= ahead_row < size and 0 <= ahead_col < size) or grid[ahead_row][ahead_col] == 0:
            return False
        beyond_inside = 0 <= beyond_row < size and 0 <= beyond_col < size
        return not beyond_inside or grid[beyond_row][beyond_col] == 1

    heading = 0
    while True:
        if not carvable(row, col, *directions[heading]):
            heading = (heading + 1) % 4
            if not carvable(row, col, *directions[heading]):
                break
        row, col = row + directions[heading][0], col + directions[heading][1]
        grid[row][col] = 0
    return grid, (0, 0), (row, col)


def border_ring(rows, cols):
    """Only the border is free, cut by one wall next to the cheese.

    The mouse stands on the other side of the cut, so the only way goes around the whole
    border. Returns (grid, mouse, cheese).
    """
    grid = [[1] * cols for _ in range(rows)]
    for c in range(cols):
        grid[0][c] = grid[rows - 1][c] = 0
    for r in range(rows):
        grid[r][0] = grid[r][cols - 1] = 0
    grid[0][1] = 1
    return grid, (0, 2), (0, 0)


def greedy_trap(size):
    """A cup of walls open away from the cheese, with the mouse inside it.

    The cheese is straight below the mouse, so always stepping toward it walks into the
    bottom of the cup; the real path climbs out the open top and goes around.
    Returns (grid, mouse, cheese).
    """
    grid = empty_grid(size, size)
    cup_left, cup_right, cup_top, cup_bottom = 20, size - 21, 10, size - 30
    for r in range(cup_top, cup_bottom + 1):
        grid[r][cup_left] = grid[r][cup_right] = 1
    for c in range(cup_left, cup_right + 1):
        grid[cup_bottom][c] = 1
    middle = size // 2
    return grid, (cup_bottom - 1, middle), (size - 1, middle)


def single_gap(size):
    """Walls across the grid with one gap at alternating far ends (the seed's first sample, big).

    Returns (grid, mouse, cheese): mouse at the top-left, cheese at the bottom-left.
    """
    grid = empty_grid(size, size)
    for r in range(size // 4, size, size // 4):
        grid[r] = [1] * size
        gap = size - 1 if (r // (size // 4)) % 2 == 1 else 0
        grid[r][gap] = 0
    return grid, (0, 0), (size - 1, 0)


def random_pair(rng, grid):
    """Pick two distinct random free cells as (mouse, cheese)."""
    mouse, cheese = rng.sample(free_cells(grid), 2)
    return mouse, cheese


def random_far_pair(rng, grid):
    """Pick a random mouse and the farthest cell the mouse can reach as the cheese."""
    cells = free_cells(grid)
    best = None
    # Try a few mice, keep the longest reachable pair: it gives long winding answers.
    for mouse in rng.sample(cells, min(8, len(cells))):
        distance = wave_distances(grid, mouse)
        cheese = max(distance, key=lambda cell: (distance[cell], cell))
        if best is None or distance[cheese] > best[0]:
            best = (distance[cheese], mouse, cheese)
    return best[1], best[2]


def random_maze(seed, rows, cols, density, far=False):
    """A random maze with walls at `density`; mouse/cheese random (far=False) or far apart."""
    rng = random.Random(seed)
    grid = random_grid(rng, rows, cols, density)
    mouse, cheese = (random_far_pair if far else random_pair)(rng, grid)
    return grid, mouse, cheese


def one_cell():
    """1x1: the mouse already stands on the cheese."""
    return [[0]], (0, 0), (0, 0)


def mouse_on_cheese_walled_in(seed):
    """Mouse and cheese share a cell boxed in by walls: the answer is 0 moves, not -1."""
    rng = random.Random(seed)
    grid = random_grid(rng, 30, 40, 0.3)
    cell = (14, 21)
    grid[cell[0]][cell[1]] = 0
    wall_ring(grid, cell)
    return grid, cell, cell


def mouse_on_cheese_open(seed):
    """Mouse on the cheese in an ordinary random maze."""
    rng = random.Random(seed)
    grid = random_grid(rng, 40, 30, 0.25)
    cell = rng.choice(free_cells(grid))
    return grid, cell, cell


def cheese_walled_in():
    """Open 100x100 grid; the cheese is boxed in by its 8 neighbours."""
    grid = empty_grid(FULL, FULL)
    cheese = (63, 71)
    wall_ring(grid, cheese)
    return grid, (0, 0), cheese


def mouse_walled_in():
    """Open 100x100 grid; the mouse is boxed in by its 8 neighbours."""
    grid = empty_grid(FULL, FULL)
    mouse = (37, 12)
    wall_ring(grid, mouse)
    return grid, mouse, (FULL - 1, FULL - 1)


def cheese_in_walled_corner():
    """The cheese in the bottom-right corner, cut off by two walls (a bounds trap)."""
    grid = empty_grid(FULL, FULL)
    grid[FULL - 2][FULL - 1] = grid[FULL - 1][FULL - 2] = 1
    return grid, (0, 0), (FULL - 1, FULL - 1)


def row_corridor():
    """1x100, mouse at the left end, cheese at the right end."""
    return empty_grid(1, FULL), (0, 0), (0, FULL - 1)


def column_corridor():
    """100x1, mouse at the bottom, cheese at the top (walks upward)."""
    return empty_grid(FULL, 1), (FULL - 1, 0), (0, 0)


def row_corridor_blocked():
    """1x100 with one wall in the middle: unreachable."""
    grid = empty_grid(1, FULL)
    grid[0][FULL // 2] = 1
    return grid, (0, 0), (0, FULL - 1)


def two_cells():
    """1x2: a single move."""
    return empty_grid(1, 2), (0, 1), (0, 0)


def split_unreachable():
    """Largest input with answer -1: a full column of walls splits the open grid in two."""
    grid = empty_grid(FULL, FULL)
    for r in range(FULL):
        grid[r][FULL // 2] = 1
    return grid, (0, 0), (FULL - 1, FULL - 1)


def serpentine_columns():
    """The serpentine turned on its side, walked from the tail back to the head."""
    grid, mouse, cheese = serpentine_rows(FULL, FULL)
    return transpose(grid), cheese[::-1], mouse[::-1]


def random_small(seed, size):
    """A random maze of at most size x size cells, walls at a random density, mouse and cheese
    on random cells (made free); size 1 is the one-cell grid."""
    rng = random.Random(seed)
    rows, cols = rng.randint(1, max(1, size)), rng.randint(1, max(1, size))
    grid = random_grid(rng, rows, cols, rng.choice((0.0, 0.1, 0.2, 0.3, 0.4)))
    mouse = (rng.randrange(rows), rng.randrange(cols))
    cheese = (rng.randrange(rows), rng.randrange(cols))
    grid[mouse[0]][mouse[1]] = grid[cheese[0]][cheese[1]] = 0
    return grid, mouse, cheese


def cell(row, col):
    """A 0-based cell from 1-based command-line words."""
    return int(row) - 1, int(col) - 1


# KIND -> builder(params, seed, size) returning (grid, mouse, cheese); params are the words after KIND.
KINDS = {
    "one-cell": lambda params, seed, size: one_cell(),
    "two-cells": lambda params, seed, size: two_cells(),
    "mouse-on-cheese": lambda params, seed, size: mouse_on_cheese_open(seed),
    "mouse-on-cheese-walled-in": lambda params, seed, size: mouse_on_cheese_walled_in(seed),
    "cheese-walled-in": lambda params, seed, size: cheese_walled_in(),
    "mouse-walled-in": lambda params, seed, size: mouse_walled_in(),
    "cheese-in-walled-corner": lambda params, seed, size: cheese_in_walled_corner(),
    "row-corridor": lambda params, seed, size: row_corridor(),
    "column-corridor": lambda params, seed, size: column_corridor(),
    "row-corridor-blocked": lambda params, seed, size: row_corridor_blocked(),
    # open MOUSE_ROW MOUSE_COL CHEESE_ROW CHEESE_COL (1-based): 100x100 without walls
    "open": lambda params, seed, size: (empty_grid(FULL, FULL), cell(*params[:2]), cell(*params[2:4])),
    "serpentine-rows": lambda params, seed, size: serpentine_rows(int(params[0]), int(params[0])),
    "serpentine-columns": lambda params, seed, size: serpentine_columns(),
    "spiral": lambda params, seed, size: spiral(int(params[0])),
    "border-ring": lambda params, seed, size: border_ring(int(params[0]), int(params[0])),
    "greedy-trap": lambda params, seed, size: greedy_trap(int(params[0])),
    "single-gaps": lambda params, seed, size: single_gap(int(params[0])),
    "split-unreachable": lambda params, seed, size: split_unreachable(),
    # maze ROWS COLS DENSITY [far]: random walls; mouse and cheese random, or far apart
    "maze": lambda params, seed, size: random_maze(
        seed, int(params[0]), int(params[1]), float(params[2]), far=params[3:] == ["far"]
    ),
    "random": lambda params, seed, size: random_small(seed, size),
}


def format_input(grid, mouse, cheese):
    """Render a test in the exact input format (single spaces, '\\n' line ends, 1-based)."""
    lines = [f"{len(grid)} {len(grid[0])}"]
    lines.extend(" ".join(map(str, row)) for row in grid)
    lines.append(f"{mouse[0] + 1} {mouse[1] + 1}")
    lines.append(f"{cheese[0] + 1} {cheese[1] + 1}")
    return "\n".join(lines) + "\n"


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=FULL)
    options = parser.parse_args()
    grid, mouse, cheese = KINDS[options.kind](options.params, options.seed, options.size)
    assert grid[mouse[0]][mouse[1]] == 0 and grid[cheese[0]][cheese[1]] == 0, options.kind
    sys.stdout.buffer.write(format_input(grid, mouse, cheese).encode("ascii"))


if __name__ == "__main__":
    main()
