"""N queens, wrong answer: the search forgets that queens also attack along diagonals.

It only keeps the queens in different columns, so it counts every permutation of the
columns, N! of them (2 for N = 2 instead of 0, 40320 for N = 8 instead of 92), and prints
the first permutation, 1 2 ... N, where every queen attacks its neighbour. Right only for
N = 1. Without diagonals the rest of the search depends only on the set of used columns,
so that set is memoized and the wrong count comes fast. Reads stdin, writes stdout.
"""

import functools
import sys


@functools.cache
def count_column_only(size, used=frozenset()):
    """Return the number of ways to fill the remaining rows with columns not in `used` (no diagonal test)."""
    if len(used) == size:
        return 1
    return sum(count_column_only(size, used | {column}) for column in range(size) if column not in used)


def main():
    size = int(sys.stdin.read())
    print(count_column_only(size))
    print(" ".join(str(column) for column in range(1, size + 1)))


if __name__ == "__main__":
    main()
