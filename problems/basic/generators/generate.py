"""Test input generator of `basic`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input on standard output: one line, a permutation of `BASIC*` (the 2x3 board row by
row). The tests it makes are listed in generators/tests.yaml (the test plan read by
`judge problem generate`): the goal itself (0 moves), one position at every distance 1 .. 21 (21 is
the maximum), a few more random reachable positions, then unreachable ones.

Kinds (a random pick is `random.Random(seed).choice` from a sorted list without the samples' positions):
- `position P`: the position P itself;
- `distance D --seed S`: a position D moves from the goal;
- `reachable --seed S`: any position that can reach the goal;
- `unreachable --seed S`: a position that can never reach it;
- `random --size S --seed N`: for `judge problem stress`: a position at most S moves from the
  goal, or (one time in four) an unreachable one.
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import itertools
import random
import sys

GOAL = "BASIC*"
# the positions of data/sample, kept out of the secret tests so that every secret test is new
SAMPLES = ("BASI*C", "CIA*BS", "ABSIC*")
# side neighbours of each cell of the 2x3 board, cells numbered 0..5 row by row
ADJACENT = {0: (1, 3), 1: (0, 2, 4), 2: (1, 5), 3: (0, 4), 4: (1, 3, 5), 5: (2, 4)}


def slide(position, cell):
    """Return the position after the tile on `cell` slides into the empty cell next to it."""
    board = list(position)
    empty = position.index("*")
    board[empty], board[cell] = board[cell], "*"
    return "".join(board)


def distances():
    """Return {position: least number of moves to GOAL} for the 360 reachable positions."""
    found = {GOAL: 0}
    layer = [GOAL]
    while layer:
        following = []
        for position in layer:
            for cell in ADJACENT[position.index("*")]:
                other = slide(position, cell)
                if other not in found:
                    found[other] = found[position] + 1
                    following.append(other)
        layer = following
    return found


def positions_by_distance():
    """Return {distance: sorted positions at that distance, without the samples' positions}."""
    far = distances()
    by_distance = {}
    for position in sorted(far):
        if position not in SAMPLES:
            by_distance.setdefault(far[position], []).append(position)
    return by_distance


def unreachable_positions():
    """Return the sorted positions that cannot reach GOAL, without the samples' positions."""
    reachable = distances()
    every = set(map("".join, itertools.permutations(GOAL)))
    return sorted(p for p in every - set(reachable) if p not in SAMPLES)


def at_distance(params, seed, size):
    """A random position int(params[0]) moves from the goal."""
    return random.Random(seed).choice(positions_by_distance()[int(params[0])])


def reachable(params, seed, size):
    """A random position that can reach the goal."""
    return random.Random(seed).choice(sorted(p for p in distances() if p not in SAMPLES))


def unreachable(params, seed, size):
    """A random position that can never reach the goal."""
    return random.Random(seed).choice(unreachable_positions())


def random_position(params, seed, size):
    """A position at most `size` moves from the goal, or one time in four an unreachable one."""
    rng = random.Random(seed)
    if rng.random() < 0.25:
        return rng.choice(unreachable_positions())
    return rng.choice(sorted(p for p, d in distances().items() if d <= size))


KINDS = {
    "position": lambda params, seed, size: params[0],
    "distance": at_distance,
    "reachable": reachable,
    "unreachable": unreachable,
    "random": random_position,
}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=21)
    options = parser.parse_args()
    position = KINDS[options.kind](options.params, options.seed, options.size)
    sys.stdout.buffer.write((position + "\n").encode("ascii"))


if __name__ == "__main__":
    main()
