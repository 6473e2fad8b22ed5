"""Snakes and ladders, CRASHES: a BFS that forgets a throw must not pass cell n - 1.

Ignoring the bound cannot change the answer by itself (from a cell within 6 of the end the exact
throw finishes anyway; see accepted/overshoot_counts_as_finish.py), but here it reads the table
of cells past its end: IndexError (a run-time error) as soon as the search reaches a cell
within 5 of the last one, e.g. at once on a 2-cell board.
"""

import sys
from collections import deque


def main():
    numbers = sys.stdin.buffer.read().split()
    n = int(numbers[0])
    table = list(range(n))
    for k in range(int(numbers[1])):
        table[int(numbers[2 + 2 * k])] = int(numbers[3 + 2 * k])
    depth = {0: 0}
    queue = deque([0])
    while queue:
        cell = queue.popleft()
        for face in range(1, 7):
            end = table[cell + face]  # BUG: no check that cell + face <= n - 1
            if end not in depth:
                depth[end] = depth[cell] + 1
                queue.append(end)
    print(depth.get(n - 1, -1))


main()
