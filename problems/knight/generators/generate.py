"""Secret test generator for `knight` (a knight's tour from a given square).

Usage: python3 generators/generate.py OUTDIR
Writes OUTDIR/<NN-name>.in for every secret test case, in judging order: `N r c`, 1-based.
Deterministic: the random starts come from random.Random(<fixed seed>).

The "greedy-trap" starts are squares from which Warnsdorff's rule without backtracking (fewest
onward moves first, ties to the smaller row, then column) gets stuck although a tour exists.
"""

import os
import random
import sys

MAX_SIZE = 16

# Test cases in judging order: (name, N, row, column).
FIXED = [
    ("one-square", 1, 1, 1),
    ("2x2", 2, 1, 1),
    ("3x3-centre", 3, 2, 2),
    ("4x4-corner", 4, 1, 1),
    ("4x4-inner", 4, 2, 3),
    ("5x5-wrong-colour", 5, 1, 2),
    ("5x5-centre", 5, 3, 3),
    ("5x5-greedy-trap", 5, 1, 3),
    ("6x6-corner", 6, 1, 1),
    ("7x7-wrong-colour", 7, 4, 3),
    ("7x7-greedy-trap", 7, 2, 2),
    ("8x8-greedy-trap", 8, 4, 1),
    ("8x8-greedy-trap-centre", 8, 4, 4),
    ("8x8-far-corner", 8, 8, 8),
    ("9x9-centre", 9, 5, 5),
    ("10x10-greedy-trap", 10, 7, 4),
    ("11x11-greedy-trap-corner", 11, 1, 1),
    ("11x11-wrong-colour", 11, 6, 5),
    ("12x12-greedy-trap", 12, 2, 7),
    ("13x13-greedy-trap", 13, 10, 6),
    ("14x14-greedy-trap", 14, 7, 14),
    ("15x15-greedy-trap", 15, 10, 12),
    ("16x16-greedy-trap", 16, 1, 15),
    ("16x16-corner", 16, 16, 16),
]


def random_tests():
    """Random starts on boards of random sizes 5 ... MAX_SIZE (seed 77)."""
    rng = random.Random(77)
    made = []
    for number in range(1, 5):
        n = rng.randint(5, MAX_SIZE)
        made.append((f"random-{number}-{n}x{n}", n, rng.randint(1, n), rng.randint(1, n)))
    return made


def main():
    """Write every test into the directory given as the only argument."""
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUTDIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for number, (name, n, row, col) in enumerate(FIXED + random_tests(), start=1):
        assert 1 <= row <= n <= MAX_SIZE and col <= n, name
        with open(os.path.join(out_dir, f"{number:02d}-{name}.in"), "w", encoding="ascii", newline="\n") as test_file:
            test_file.write(f"{n} {row} {col}\n")


if __name__ == "__main__":
    main()
