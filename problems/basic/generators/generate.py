"""Write the secret test inputs of `basic` into OUTDIR.

Usage: python3 generators/generate.py OUTDIR   (writes OUTDIR/NN-name.in, nothing else)

Tests: the goal itself (0 moves), one position at every distance 1 .. 21 (21 is the maximum; only
one position is that far), a few more random reachable positions, then unreachable positions.
Positions are picked with `random.Random(4004)` from sorted lists, so two runs give the same bytes.
Input format (spec `basic`): one line, a permutation of `BASIC*`, the 2x3 board row by row.
"""

import itertools
import pathlib
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


def tests():
    """Yield (name, input text) for every secret test, in judging order."""
    rng = random.Random(4004)
    far = distances()
    by_distance = {}
    for position in sorted(far):
        by_distance.setdefault(far[position], []).append(position)
    for distance, positions in by_distance.items():
        # a distance held by a sample alone (none today) would keep its sample
        by_distance[distance] = [p for p in positions if p not in SAMPLES] or positions
    number = itertools.count(1)
    yield "%02d-goal" % next(number), GOAL + "\n"
    for distance in range(1, max(by_distance) + 1):
        position = rng.choice(by_distance[distance])
        yield "%02d-distance-%02d" % (next(number), distance), position + "\n"
    for position in rng.sample([p for p in sorted(far) if p not in SAMPLES], 4):
        yield "%02d-random-%02d" % (next(number), far[position]), position + "\n"
    unreachable = sorted(set(map("".join, itertools.permutations(GOAL))) - set(far))
    # two tiles of the goal swapped: one move from looking solved, yet impossible
    swapped = ["BASCI*", "BSAIC*"]
    chosen = swapped + rng.sample([p for p in unreachable if p not in swapped + list(SAMPLES)], 4)
    for position in chosen:
        yield "%02d-unreachable" % next(number), position + "\n"


def main():
    """Write every test of tests() into the directory named by the first argument."""
    outdir = pathlib.Path(sys.argv[1])
    outdir.mkdir(parents=True, exist_ok=True)
    for name, text in tests():
        (outdir / (name + ".in")).write_bytes(text.encode("ascii"))


if __name__ == "__main__":
    main()
