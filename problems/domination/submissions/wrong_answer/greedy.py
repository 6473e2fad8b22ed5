"""Queens guarding the board, wrong answer: greedy placement.

Always put the next queen where it covers the most squares not yet covered (ties to the first
square row by row) until the board is covered. The board is always covered, but sometimes with
more queens than needed: 3 on a 6 x 6 board suffice, greedy uses 4. Reads stdin, writes stdout.
"""

import sys


def main():
    rows, cols = (int(token) for token in sys.stdin.read().split())
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    left = set(squares)
    queens = []

    def gain(queen):
        return sum(1 for r, c in left if r == queen[0] or c == queen[1] or abs(r - queen[0]) == abs(c - queen[1]))

    while left:
        best = max(squares, key=lambda square: (gain(square), -squares.index(square)))
        queens.append(best)
        left = {(r, c) for r, c in left if not (r == best[0] or c == best[1] or abs(r - best[0]) == abs(c - best[1]))}
    print(len(queens))
    for r, c in queens:
        print(r + 1, c + 1)


if __name__ == "__main__":
    main()
