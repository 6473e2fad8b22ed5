"""Reference solver for `queens`: count the placements of N non-attacking queens.

Algorithm: backtracking row by row (Wirth, "Algorithms + Data Structures = Programs",
1976, section 3.5), with the free columns and both diagonal directions of the next row
held in three bit masks (the bitboard formulation, M. Richards 1997). The board's
left-right mirror image maps placements one to one, so only queens in the left half of
row 1 are searched and their count doubled (plus the middle column for odd N).
Everything is computed; there is no table of answers.

Input (stdin): `N` (1 <= N <= 12).
Output (stdout): the count S; if S > 0, a second line with one placement as N columns
(1-based), the i-th the column of the queen in row i: the lexicographically first one.
"""

import sys


def count_completions(full, columns, left_diagonals, right_diagonals):
    """Return how many ways the remaining rows can be filled.

    `full` has one bit per column (N bits). `columns` marks the columns already taken;
    `left_diagonals` / `right_diagonals` mark the cells of the next row attacked along
    each diagonal direction. Recursion depth is at most N.
    """
    if columns == full:
        return 1
    total = 0
    free = full & ~(columns | left_diagonals | right_diagonals)
    while free:
        bit = free & -free
        free ^= bit
        total += count_completions(
            full,
            columns | bit,
            ((left_diagonals | bit) << 1) & full,
            (right_diagonals | bit) >> 1,
        )
    return total


def count_placements(size):
    """Return S, the number of placements of `size` non-attacking queens on a size x size board."""
    full = (1 << size) - 1
    half = 0
    for column in range(size // 2):
        bit = 1 << column
        half += count_completions(full, bit, (bit << 1) & full, bit >> 1)
    total = 2 * half
    if size % 2 == 1:
        bit = 1 << (size // 2)
        total += count_completions(full, bit, (bit << 1) & full, bit >> 1)
    return total


def first_placement(size):
    """Return the lexicographically first placement as a list of 1-based columns, or None.

    Plain backtracking: row by row, columns tried from left to right.
    """
    placement = []

    def place(row, columns, sums, differences):
        if row == size:
            return True
        for column in range(size):
            if column in columns or row + column in sums or row - column in differences:
                continue
            placement.append(column + 1)
            if place(row + 1, columns | {column}, sums | {row + column}, differences | {row - column}):
                return True
            placement.pop()
        return False

    return placement if place(0, frozenset(), frozenset(), frozenset()) else None


def solve(size):
    """Return (S, placement): the count and a placement (list of N columns, 1-based) or None when S = 0."""
    count = count_placements(size)
    return count, (first_placement(size) if count else None)


def format_answer(count, placement):
    """Return the output text: S on line 1 and, if there is a placement, its columns on line 2."""
    if placement is None:
        return f"{count}\n"
    return f"{count}\n{' '.join(map(str, placement))}\n"


def main():
    """Read N on stdin, write the answer on stdout."""
    size = int(sys.stdin.read().split()[0])
    sys.stdout.write(format_answer(*solve(size)))


if __name__ == "__main__":
    main()
