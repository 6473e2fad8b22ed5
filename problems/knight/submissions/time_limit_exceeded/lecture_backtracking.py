"""The knight's tour, time limit exceeded: the seed's plain backtracking.

From each square try the eight knight's moves in a fixed order, mark the square with the move
number, go on, and clear it on return. Correct, but without a rule for which move to try first it
wanders through a huge number of dead ends: already 8 x 8 from some squares takes far longer than
the time limit. Reads stdin, writes stdout.
"""

import sys

MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))


def main():
    n, row, col = (int(token) for token in sys.stdin.read().split())
    sys.setrecursionlimit(10 * n * n + 1000)
    board = [[0] * n for _ in range(n)]

    def hladaj(move, r, c):
        board[r][c] = move
        if move == n * n:
            return True
        for dr, dc in MOVES:
            nr, nc = r + dr, c + dc
            if 0 <= nr < n and 0 <= nc < n and board[nr][nc] == 0 and hladaj(move + 1, nr, nc):
                return True
        board[r][c] = 0
        return False

    if hladaj(1, row - 1, col - 1):
        print("\n".join(" ".join(map(str, line)) for line in board))
    else:
        print(-1)


if __name__ == "__main__":
    main()
