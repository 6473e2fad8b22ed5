"""Test input generator of `domination`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input (the line `R C`) on standard output. The tests it makes are listed in
generators/tests.yaml (the test plan read by `judge problem generate`).

Kinds:
- `board R C`: the board of R rows and C columns;
- `random --size S --seed N`: a random board of at most min(S, 10) rows and columns, from
  random.Random(N) (used by `judge problem stress`, sizes growing from 1).
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import random
import sys

MAX_SIDE = 10


def board(params, seed, size):
    """The input for the board params[0] x params[1]."""
    rows, cols = (int(value) for value in params)
    assert 1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE
    return f"{rows} {cols}\n"


def random_board(params, seed, size):
    """A random board of at most min(size, MAX_SIDE) rows and columns."""
    rng = random.Random(seed)
    side = max(1, min(size, MAX_SIDE))
    return f"{rng.randint(1, side)} {rng.randint(1, side)}\n"


KINDS = {"board": board, "random": random_board}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_SIDE)
    options = parser.parse_args()
    sys.stdout.buffer.write(KINDS[options.kind](options.params, options.seed, options.size).encode("ascii"))


if __name__ == "__main__":
    main()
