"""Reference solver for `domination`: the fewest queens that occupy or attack every square of an
R x C board, and one such placement.

A queen attacks every square in its row, its column and both its diagonals, whatever stands in
between. The least number of queens needed is the board's queen domination number (for square
boards OEIS A075458: 1, 1, 1, 2, 3, 3, 4, 5, 5, 5 for N = 1 ... 10).

Algorithm: iterative deepening over k = 1, 2, ... with exhaustive backtracking for each k (the
seed's method): the first square not yet covered must be covered by one of the queens still to
place, so the search branches only over the squares that attack it. Squares are bits of one
integer. Two exact prunings: with k queens left, the k largest numbers of still uncovered squares
that single queens would cover must add up to at least the number of uncovered squares; and a
state (covered squares, queens left) that failed once is not searched again. With one queen left
it only asks whether one of them covers everything left. The first k that succeeds is the minimum,
because every smaller k was searched exhaustively. Everything is computed; no table.

Input (stdin): `R C` (1 <= R, C <= 10).
Output (stdout): k, then k lines `r c` (1-based) with the queens of one placement.
"""

import sys


def attack_masks(rows, cols):
    """Return attack: attack[s] has bit t set when a queen on square s (r * cols + c) covers t."""
    attack = []
    for row in range(rows):
        for col in range(cols):
            mask = 0
            for other_row in range(rows):
                for other_col in range(cols):
                    if (
                        other_row == row
                        or other_col == col
                        or other_row - other_col == row - col
                        or other_row + other_col == row + col
                    ):
                        mask |= 1 << (other_row * cols + other_col)
            attack.append(mask)
    return attack


def placement_of_size(attack, queens):
    """Return `queens` squares that together cover every square, or None when there are none."""
    size = len(attack)
    full = (1 << size) - 1
    # attackers[t]: the squares whose queen covers t, those covering most squares first.
    attackers = [
        sorted((s for s in range(size) if attack[s] >> t & 1), key=lambda s: -attack[s].bit_count())
        for t in range(size)
    ]
    failed = set()

    def search(covered, left_to_place):
        left = full & ~covered
        first = (left & -left).bit_length() - 1
        if left_to_place == 1:
            return next(([s] for s in attackers[first] if attack[s] & left == left), None)
        if (covered, left_to_place) in failed:
            return None
        gains = sorted(((mask & left).bit_count() for mask in attack), reverse=True)
        if sum(gains[:left_to_place]) >= left.bit_count():
            for square in attackers[first]:
                rest = covered | attack[square]
                found = [] if rest == full else search(rest, left_to_place - 1)
                if found is not None:
                    return [square] + found
        failed.add((covered, left_to_place))
        return None

    return search(0, queens)


def solve(rows, cols):
    """Return the fewest queens covering an R x C board as a list of (row, col), 0-based."""
    attack = attack_masks(rows, cols)
    queens = 1
    while True:
        found = placement_of_size(attack, queens)
        if found is not None:
            return sorted(divmod(square, cols) for square in found)
        queens += 1


def format_answer(placement):
    """Return the output text: k, then one `r c` line (1-based) per queen."""
    return f"{len(placement)}\n" + "".join(f"{row + 1} {col + 1}\n" for row, col in placement)


def main():
    """Read `R C` on stdin, write the answer on stdout."""
    rows, cols = (int(token) for token in sys.stdin.read().split())
    sys.stdout.write(format_answer(solve(rows, cols)))


if __name__ == "__main__":
    main()
