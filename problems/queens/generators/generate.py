"""Test input generator of `queens`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input (the line `N`) on standard output. The tests it makes are listed in
generators/tests.yaml (the test plan read by `judge problem generate`).

Kinds:
- `n K`: the board size K (1 <= K <= 12);
- `random --size S --seed N`: a random board size in 1 .. min(S, 12) from random.Random(N)
  (used by `judge problem stress`, sizes growing from 1).
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import random
import sys

MAX_SIZE = 12


def board(params, seed, size):
    """The input for board size params[0]."""
    return f"{int(params[0])}\n"


def random_board(params, seed, size):
    """A random board size of at most min(size, MAX_SIZE)."""
    return f"{random.Random(seed).randint(1, max(1, min(size, MAX_SIZE)))}\n"


KINDS = {"n": board, "random": random_board}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_SIZE)
    options = parser.parse_args()
    sys.stdout.buffer.write(KINDS[options.kind](options.params, options.seed, options.size).encode("ascii"))


if __name__ == "__main__":
    main()
