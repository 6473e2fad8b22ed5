"""N queens, time limit exceeded: try all N^N ways to put one queen in each row.

Correct (every candidate is tested for shared columns and diagonals), but 8^8 is about
17 million candidates and 12^12 almost 9 * 10^12. Reads stdin, writes stdout.
"""

import itertools
import sys


def peaceful(columns):
    """Return True if no two queens (row i in column columns[i]) share a column or a diagonal."""
    return all(
        columns[i] != columns[j] and abs(columns[i] - columns[j]) != j - i
        for i in range(len(columns))
        for j in range(i + 1, len(columns))
    )


def main():
    size = int(sys.stdin.read())
    valid = [columns for columns in itertools.product(range(1, size + 1), repeat=size) if peaceful(columns)]
    print(len(valid))
    if valid:
        print(*valid[0])


if __name__ == "__main__":
    main()
