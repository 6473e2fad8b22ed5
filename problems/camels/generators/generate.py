"""Test input generator of `camels`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input (the line `N T`) on standard output. The tests it makes are listed in
generators/tests.yaml (the test plan read by `judge problem generate`).

Kinds:
- `task N T`: N camels, task T (1: a schedule, 2: the number of normalized schedules);
- `random --size S --seed N`: a random task with N at most min(S, 8) (at most 6 for task 2), from
  random.Random(N) (used by `judge problem stress`, sizes growing from 1).
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import random
import sys

MAX_CAMELS, MAX_COUNTED = 8, 6


def task(params, seed, size):
    """The input for N = params[0] and task T = params[1]."""
    n, kind = (int(value) for value in params)
    assert 1 <= n <= (MAX_COUNTED if kind == 2 else MAX_CAMELS) and kind in (1, 2)
    return f"{n} {kind}\n"


def random_task(params, seed, size):
    """A random task with at most min(size, 8) camels (6 when counting)."""
    rng = random.Random(seed)
    kind = rng.randint(1, 2)
    return f"{rng.randint(1, max(1, min(size, MAX_COUNTED if kind == 2 else MAX_CAMELS)))} {kind}\n"


KINDS = {"task": task, "random": random_task}


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_CAMELS)
    options = parser.parse_args()
    sys.stdout.buffer.write(KINDS[options.kind](options.params, options.seed, options.size).encode("ascii"))


if __name__ == "__main__":
    main()
