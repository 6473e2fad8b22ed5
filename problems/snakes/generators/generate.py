"""Test input generator of `snakes`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input on standard output; the tests it makes are listed in generators/tests.yaml (the
test plan read by `judge problem generate`): the small hand-made traps first, then the large boards
(n = 100000). Every random choice comes from `random.Random(seed)`: the same arguments give the
same bytes. The kinds are the keys of KINDS; `random --size S --seed N` (for `judge problem
stress`) draws a board of at most S + 1 cells.
Input format (spec `snakes`): `n t`, then t lines `a b`; 1 <= a <= n-2, 0 <= b <= n-1, a != b,
each a at most once, no b is the a of another line.
"""

import argparse
import random
import sys

MAX_CELLS = 100000


def board_text(n, transitions):
    """Return the input text of a board: n cells, transitions a list of (a, b)."""
    lines = ["%d %d" % (n, len(transitions))]
    lines.extend("%d %d" % pair for pair in transitions)
    return "\n".join(lines) + "\n"


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


def explicit_board(params):
    """`board N A:B ...`: n cells and the transitions as written."""
    return int(params[0]), [tuple(int(cell) for cell in pair.split(":")) for pair in params[1:]]


def random_transitions(params, seed):
    """`random-board N COUNT LADDER_SHARE [REACH|all] [open]` (see random_board)."""
    n, count, share = int(params[0]), int(params[1]), float(params[2])
    reach = None if len(params) < 4 or params[3] == "all" else int(params[3])
    return n, random_board(random.Random(seed), n, count, share, reach, keep_open=params[4:] == ["open"])


def full_random_ladders(params, seed):
    """`full-random-ladders N COUNT`: a full board whose COUNT random cells past 6 (and cell 4) climb."""
    n = int(params[0])
    ladder_cells = set(random.Random(seed).sample(range(7, n - 1), int(params[1]))) | {4}
    return n, full_board(n, ladder_cells)


def random_small(seed, size):
    """A random board of 2 .. size + 1 cells with random transitions (for stress tests)."""
    rng = random.Random(seed)
    n = rng.randint(2, max(2, size + 1))
    count = rng.randint(0, (n - 2) // 2)
    return n, random_board(rng, n, count, rng.random(), reach=rng.choice((None, 3, 10)))


# KIND -> builder(params, seed, size) returning (n, transitions); params are the words after KIND.
KINDS = {
    "board": lambda params, seed, size: explicit_board(params),
    "full": lambda params, seed, size: (int(params[0]), full_board(int(params[0]), {int(c) for c in params[1:]})),
    "full-random-ladders": lambda params, seed, size: full_random_ladders(params, seed),
    "random-board": lambda params, seed, size: random_transitions(params, seed),
    "noisy-snake-needed": lambda params, seed, size: noisy_snake_needed(random.Random(seed)),
    "blocked-large": lambda params, seed, size: blocked_large(random.Random(seed)),
    "random": lambda params, seed, size: random_small(seed, size),
}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_CELLS)
    options = parser.parse_args()
    n, transitions = KINDS[options.kind](options.params, options.seed, options.size)
    sys.stdout.buffer.write(board_text(n, transitions).encode("ascii"))


if __name__ == "__main__":
    main()
