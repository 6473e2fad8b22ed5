"""Secret test generator for `domination` (the fewest queens covering a board).

Usage: python3 generators/generate.py OUTDIR
Writes OUTDIR/<NN-name>.in for every secret test case, in judging order: `R C`.

Every square board N x N (N = 1 ... 10) is a test, the samples holding N = 4 and N = 8; then
rectangles, among them those where placing queens greedily (always the queen covering most new
squares) needs more queens than the minimum. No randomness: every run writes the same bytes.
"""

import os
import sys

MAX_SIDE = 10
SAMPLE_SIZES = (4, 8)
# Rectangles as (rows, columns, name).
RECTANGLES = [
    (1, 10, "one-row"),
    (10, 1, "one-column"),
    (2, 5, "two-rows"),
    (3, 6, "greedy-trap"),
    (7, 3, "tall"),
    (4, 8, "greedy-trap"),
    (8, 4, "greedy-trap-turned"),
    (5, 9, "wide"),
    (6, 10, "greedy-trap"),
    (8, 9, "greedy-trap"),
    (10, 9, "greedy-trap-turned"),
]


def tests():
    """(name, rows, columns) of every secret test, in judging order (small to large)."""
    made = [(f"{n}x{n}", n, n) for n in range(1, MAX_SIDE + 1) if n not in SAMPLE_SIZES]
    return made + [(f"{rows}x{cols}-{name}", rows, cols) for rows, cols, name in RECTANGLES]


def main():
    """Write each secret input to OUTDIR (the first argument)."""
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUTDIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for number, (name, rows, cols) in enumerate(tests(), start=1):
        with open(os.path.join(out_dir, f"{number:02d}-{name}.in"), "w", encoding="ascii", newline="\n") as test_file:
            test_file.write(f"{rows} {cols}\n")


if __name__ == "__main__":
    main()
