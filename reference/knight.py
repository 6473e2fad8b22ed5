"""Reference solver for `knight`: an open knight's tour of an N x N board from a given square.

Algorithm: backtracking over the knight's moves (the seed's method), with the next squares tried in
Warnsdorff's order (H. C. von Warnsdorf 1823: fewest onward moves first; ties go to the square
farther from the centre, then to the smaller square number) and two exact prunings:
- colour: on a board with an odd number of squares a tour alternates colours and has one more
  square of the start's colour, so it must start on the colour of the corners;
- dead ends: a free square that can no longer be entered and left (fewer than two free
  neighbours, counting the knight's square as one) must be the last square of the tour; two such
  squares, or one that cannot even be entered, end the branch.
Both only cut branches without a tour, so the search is complete: it finds a tour when one exists
and proves there is none otherwise (exhaustively for N <= 4, by colour for odd N). The package
tests time it from every start square of every allowed N. Everything is computed; no table.

Input (stdin): `N r c` (1 <= N <= 16, 1 <= r, c <= N): the board size and the start row and column.
Output (stdout): `-1` if there is no tour; otherwise N lines of N integers, the number of the move
(1 ... N*N, the start square 1) on which the knight stands on each square.
"""

import sys

MOVES = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def neighbours(n):
    """Return nb: nb[s] lists the squares (numbered r * n + c, 0-based) a knight reaches from s."""
    nb = [[] for _ in range(n * n)]
    for row in range(n):
        for col in range(n):
            for d_row, d_col in MOVES:
                if 0 <= row + d_row < n and 0 <= col + d_col < n:
                    nb[row * n + col].append((row + d_row) * n + col + d_col)
    return nb


def solve(n, start):
    """Return the tour from `start` ((row, col), 0-based) as the list of squares (r * n + c) in
    visiting order, or None when no tour exists."""
    size = n * n
    if size % 2 == 1 and sum(start) % 2 == 1:
        return None
    nb = neighbours(n)
    free = [True] * size
    degree = [len(squares) for squares in nb]  # free neighbours of each square
    # Twice the offset from the centre on each axis, squared and summed: larger is farther.
    far = [(2 * (s // n) - n + 1) ** 2 + (2 * (s % n) - n + 1) ** 2 for s in range(size)]
    tour = []

    def enter(square):
        free[square] = False
        tour.append(square)
        for other in nb[square]:
            degree[other] -= 1

    def leave(square):
        free[square] = True
        tour.pop()
        for other in nb[square]:
            degree[other] += 1

    def hopeless(here):
        """True if some free square can no longer be on the tour (the dead-end rule above)."""
        near, ends = set(nb[here]), 0
        for square in range(size):
            if free[square]:
                links = degree[square] + (square in near)
                if links <= 1:
                    ends += 1
                    if links == 0 or ends > 1:
                        return True
        return False

    def extend(here):
        if len(tour) == size:
            return True
        if hopeless(here):
            return False
        for _, _, square in sorted((degree[s], -far[s], s) for s in nb[here] if free[s]):
            enter(square)
            if extend(square):
                return True
            leave(square)
        return False

    enter(start[0] * n + start[1])
    return tour if extend(tour[0]) else None


def format_answer(n, tour):
    """Return the output text: `-1`, or the board of move numbers, one line per row."""
    if tour is None:
        return "-1\n"
    number = [0] * (n * n)
    for move, square in enumerate(tour, start=1):
        number[square] = move
    return "".join(" ".join(map(str, number[row * n : row * n + n])) + "\n" for row in range(n))


def main():
    """Read `N r c` on stdin, write the answer on stdout."""
    n, row, col = (int(token) for token in sys.stdin.read().split())
    sys.setrecursionlimit(10 * n * n + 1000)
    sys.stdout.write(format_answer(n, solve(n, (row - 1, col - 1))))


if __name__ == "__main__":
    main()
