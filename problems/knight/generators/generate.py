"""Test input generator of `knight`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input (the line `N r c`) on standard output. The tests it makes are listed in
generators/tests.yaml (the test plan read by `judge problem generate`).

Kinds:
- `board N R C`: the N x N board with the start in row R, column C (1-based);
- `random --size S --seed N`: a random board of side at most min(S, 16) and a random start, from
  random.Random(N) (used by `judge problem stress`, sizes growing from 1).
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import random
import sys

MAX_SIZE = 16


def board(params, seed, size):
    """The input for board side params[0] and the start (params[1], params[2])."""
    n, row, col = (int(value) for value in params)
    assert 1 <= row <= n <= MAX_SIZE and 1 <= col <= n
    return f"{n} {row} {col}\n"


def random_board(params, seed, size):
    """A random board of side at most min(size, MAX_SIZE) with a random start."""
    rng = random.Random(seed)
    n = rng.randint(1, max(1, min(size, MAX_SIZE)))
    return f"{n} {rng.randint(1, n)} {rng.randint(1, n)}\n"


KINDS = {"board": board, "random": random_board}


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
