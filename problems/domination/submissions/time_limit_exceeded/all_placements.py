"""Queens guarding the board, time limit exceeded: the homework done by plain backtracking.

For k = 1, 2, ... try every set of k squares (each next queen on a later square than the previous
one) and test whether they cover the board. Correct, since every smaller k is tried in full first,
but an 8 x 8 board needs five queens, so every one of the 635376 sets of four squares is tried and
tested before the answer: far too slow in Python. Reads stdin, writes stdout.
"""

import sys


def main():
    rows, cols = (int(token) for token in sys.stdin.read().split())
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    chosen = []

    def covered():
        return all(any(r == q[0] or c == q[1] or abs(r - q[0]) == abs(c - q[1]) for q in chosen) for r, c in squares)

    def place(first, left):
        if left == 0:
            return covered()
        for index in range(first, len(squares)):
            chosen.append(squares[index])
            if place(index + 1, left - 1):
                return True
            chosen.pop()
        return False

    k = 1
    while not place(0, k):
        k += 1
    print(k)
    for r, c in chosen:
        print(r + 1, c + 1)


if __name__ == "__main__":
    main()
