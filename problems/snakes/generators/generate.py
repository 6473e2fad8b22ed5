"""Write the secret test inputs of `snakes` into OUTDIR.

Usage: python3 generators/generate.py OUTDIR   (writes OUTDIR/NN-name.in, nothing else)

Every test has its own fixed seed (`random.Random(seed)`), so two runs give the same bytes.
Test order puts the small hand-made traps first, then the large boards (n = 100000).
Input format (spec `snakes`): `n t`, then t lines `a b`; 1 <= a <= n-2, 0 <= b <= n-1, a != b,
each a at most once, no b is the a of another line.
"""

import os
import random
import sys

MAX_CELLS = 100000


def board_text(n, transitions):
    """Return the input text of a board: n cells, transitions a list of (a, b)."""
    lines = ["%d %d" % (n, len(transitions))]
    lines.extend("%d %d" % pair for pair in transitions)
    return "\n".join(lines) + "\n"


def shuffled(rng, transitions):
    """Return the transitions in a random order (solutions must not rely on sorted input)."""
    transitions = list(transitions)
    rng.shuffle(transitions)
    return transitions


def pick_end(rng, n, start, taken, ladder, reach=None):
    """Pick the end b of a transition starting at `start`, avoiding every start in `taken`.

    ladder: True for b > start (up), False for b < start (down).
    reach: the largest |b - start| wanted (None: the whole board).
    Cells 0 and n - 1 are never starts, so a free end always exists.
    """
    if ladder:
        low, high = start + 1, n - 1 if reach is None else min(n - 1, start + reach)
    else:
        low, high = 0 if reach is None else max(0, start - reach), start - 1
    for attempt in range(1000):
        end = rng.randint(low, high)
        if end not in taken:
            return end
        if attempt == 50:
            # a crowded short range may have no free end: widen it to the board's edge
            low, high = (low, n - 1) if ladder else (0, high)
    raise RuntimeError("no free end for a transition at cell %d" % start)


def random_board(rng, n, count, ladder_share, reach=None, keep_open=False):
    """Return `count` random transitions on n cells.

    ladder_share: probability that a transition is a ladder (else a snake).
    reach: the largest length of a transition (None: any length).
    keep_open: leave at least one plain cell in every 6 consecutive cells, so the last cell
    stays reachable by plain throws alone.
    """
    starts = rng.sample(range(1, n - 1), count)
    if keep_open:
        taken_sorted = set(starts)
        run = 0
        for cell in range(1, n - 1):
            run = run + 1 if cell in taken_sorted else 0
            if run == 6:
                taken_sorted.discard(cell)
                run = 0
        starts = [cell for cell in starts if cell in taken_sorted]
    taken = set(starts)
    return [(start, pick_end(rng, n, start, taken, rng.random() < ladder_share, reach)) for start in starts]


def wall(first, ends):
    """Return six consecutive snakes first .. first+5 sliding to the cells in `ends` (cycled)."""
    return [(first + i, ends[i % len(ends)]) for i in range(6)]


def snake_needed(n, top):
    """Return a board on which every shortest route slides down a snake.

    Cells 1..6 are ladders to top..top+5, so cells 7 .. top-1 can be entered only by a snake;
    the snake at top+6 drops to cell 8, and the ladder at 10 climbs to the last cell (3 throws).
    """
    board = [(cell, top + cell - 1) for cell in range(1, 7)]
    board += [(top + 6, 8), (10, n - 1)]
    return board


def zigzag():
    """Return (n, transitions) of a 1000-cell board whose only quick route uses two snakes.

    0 -> ladder 1..6 -> 500..505, snake 506 -> 20, ladder 22 -> 800, snake 801 -> 40,
    ladder 45 -> 999: 5 throws, against about 84 for any route that avoids the snakes.
    """
    board = [(cell, 499 + cell) for cell in range(1, 7)]
    board += [(506, 20), (22, 800), (801, 40), (45, 999)]
    return 1000, board


def noisy_snake_needed(rng):
    """Return (n, transitions): snake_needed on 100000 cells plus short snakes beyond the trap."""
    n, top = MAX_CELLS, 60000
    board = snake_needed(n, top)
    taken = {a for a, _ in board} | {b for _, b in board}
    # short snakes above the trap only slow the forward routes down; they make no shortcut
    for start in rng.sample(range(top + 10, n - 1), 15000):
        if start not in taken:
            end = start - rng.randint(1, 40)
            if end not in taken and end >= top + 10:
                board.append((start, end))
                taken.update((start, end))
    return n, board


def blocked_large(rng):
    """Return (n, transitions): a random board below a wall of six snakes at 70000 (answer -1)."""
    n, wall_at = MAX_CELLS, 70000
    board = random_board(rng, wall_at, 20000, 0.5)
    taken = {a for a, _ in board}
    board += wall(wall_at, [b for b in range(1, wall_at) if b not in taken][:6])
    return n, board


def full_board(n, ladder_cells):
    """Return t = n - 2 transitions: every inner cell slides to 0, except `ladder_cells`,
    which climb to n - 1 (no end may be another start, so 0 and n - 1 are the only ends)."""
    return [(cell, n - 1 if cell in ladder_cells else 0) for cell in range(1, n - 1)]


def tests():
    """Yield (name, input text) for every secret test, in judging order.

    Each random test draws from its own `random.Random(seed)`, so editing one test leaves the
    bytes of the others unchanged.
    """
    yield "01-two-cells", board_text(2, [])
    yield "02-one-throw", board_text(7, [])
    yield "03-two-throws", board_text(8, [])
    yield "04-three-cells-full", board_text(3, [(1, 0)])
    yield "05-all-snakes-home", board_text(8, full_board(8, set()))
    yield "06-full-one-ladder", board_text(8, full_board(8, {3}))
    yield "07-five-snakes-pass", board_text(30, wall(10, [2, 4, 6, 8, 9])[:5])
    yield "08-six-snakes-wall", board_text(50, shuffled(random.Random(8), wall(20, [3, 5, 7, 11])))
    yield "09-wall-jumped", board_text(50, wall(20, [3, 5, 7]) + [(15, 40)])
    yield "10-wall-with-ladder", board_text(50, wall(20, [3, 5])[:3] + [(23, 45)] + wall(20, [7, 9])[4:])
    yield "11-end-guarded", board_text(40, wall(33, [1, 12]))
    yield "12-end-guarded-ladder", board_text(40, wall(33, [1, 12]) + [(10, 39)])
    yield "13-snake-needed", board_text(100, shuffled(random.Random(13), snake_needed(100, 40)))
    yield "14-snake-zigzag", board_text(*zigzag())
    # the first ladder climbs further but lands before five snakes; the later one is better
    yield "15-ladder-choice", board_text(60, [(1, 30), (6, 50)] + wall(31, [0])[:5])
    yield "16-random-tiny", board_text(12, random_board(random.Random(16), 12, 5, 0.5))
    yield "17-random-small", board_text(30, random_board(random.Random(17), 30, 10, 0.5, reach=10))
    yield "18-random-medium", board_text(1000, random_board(random.Random(18), 1000, 400, 0.4, reach=60))
    yield "19-large-none", board_text(MAX_CELLS, [])
    yield "20-large-ladders", board_text(MAX_CELLS, random_board(random.Random(20), MAX_CELLS, 50000, 1.0, reach=30))
    yield (
        "21-large-snakes",
        board_text(MAX_CELLS, random_board(random.Random(21), MAX_CELLS, 80000, 0.05, reach=50, keep_open=True)),
    )
    yield "22-large-mixed", board_text(MAX_CELLS, random_board(random.Random(22), MAX_CELLS, 60000, 0.5))
    yield "23-large-full-home", board_text(MAX_CELLS, full_board(MAX_CELLS, set()))
    ladder_cells = set(random.Random(24).sample(range(7, MAX_CELLS - 1), 30000)) | {4}
    yield "24-large-full-ladders", board_text(MAX_CELLS, full_board(MAX_CELLS, ladder_cells))
    yield "25-large-snake-needed", board_text(*noisy_snake_needed(random.Random(25)))
    yield "26-large-blocked", board_text(*blocked_large(random.Random(26)))
    yield (
        "27-large-long-snakes",
        board_text(MAX_CELLS, random_board(random.Random(27), MAX_CELLS, 40000, 0.2, keep_open=True)),
    )


def main():
    """Write every test of tests() into the directory named by the first argument."""
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, text in tests():
        with open(os.path.join(outdir, name + ".in"), "w", newline="\n") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
