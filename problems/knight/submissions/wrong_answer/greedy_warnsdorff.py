"""The knight's tour, wrong answer: Warnsdorff's rule without backtracking.

Always jump to the square with the fewest onward moves (ties to the smaller row, then column) and
never go back. Fast, and right from most squares, but from some starts it gets stuck although a
tour exists, and then prints -1. Reads stdin, writes stdout.
"""

import sys

MOVES = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def main():
    n, row, col = (int(token) for token in sys.stdin.read().split())
    board = [[0] * n for _ in range(n)]
    r, c = row - 1, col - 1
    board[r][c] = 1

    def onward(r, c):
        return [
            (r + dr, c + dc) for dr, dc in MOVES if 0 <= r + dr < n and 0 <= c + dc < n and not board[r + dr][c + dc]
        ]

    for move in range(2, n * n + 1):
        options = onward(r, c)
        if not options:
            print(-1)
            return
        r, c = min(options, key=lambda square: (len(onward(*square)), square))
        board[r][c] = move
    print("\n".join(" ".join(map(str, line)) for line in board))


if __name__ == "__main__":
    main()
