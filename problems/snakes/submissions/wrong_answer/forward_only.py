"""Snakes and ladders, WRONG: the seed's forward-only search, with memo so it stays fast.

Like the seed's recursion, a throw is taken only if the move ends on a higher cell than it
started, so a snake is never used. Since every move then goes forward, the best count from a
cell depends only on higher cells, and filling a table from the last cell down is the memoised
form of that recursion (O(6 n)). Wrong on boards whose only short route slides down a snake.
"""

import sys


def main():
    values = sys.stdin.buffer.read().split()
    n, count = int(values[0]), int(values[1])
    ends_on = list(range(n))
    for i in range(count):
        ends_on[int(values[2 + 2 * i])] = int(values[3 + 2 * i])
    unreachable = n + 1  # more throws than any forward route can need
    best = [unreachable] * n
    best[n - 1] = 0
    for cell in range(n - 2, -1, -1):
        for throw in range(1, 7):
            if cell + throw > n - 1:
                break
            end = ends_on[cell + throw]
            if end > cell and best[end] + 1 < best[cell]:
                best[cell] = best[end] + 1
    print(best[0] if best[0] < unreachable else -1)


main()
