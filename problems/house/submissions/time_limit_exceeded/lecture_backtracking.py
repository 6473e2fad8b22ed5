"""The house in one stroke, time limit exceeded: the seed's backtracking, as the lecture writes it.

From every vertex, walk each unused edge (found in the adjacency table), mark it used in both
directions, go on from its other end, and unmark it on return; every time all m edges are used, one
trail is counted. Correct, but it visits every trail one by one: 770560 trails of 16 edges take
several seconds in Python, where counting completions once per (vertex, used edges) takes a fraction.
Reads stdin, writes stdout.
"""

import sys


def main():
    values = [int(token) for token in sys.stdin.read().split()]
    n, m = values[0], values[1]
    table = [[False] * (n + 1) for _ in range(n + 1)]
    for i in range(m):
        a, b = values[2 + 2 * i], values[3 + 2 * i]
        table[a][b] = table[b][a] = True
    trail, first, count = [0] * (m + 1), [], 0

    def gener(p, i):
        nonlocal count, first
        for j in range(1, n + 1):
            if table[i][j]:
                table[i][j] = table[j][i] = False
                trail[p] = j
                if p == m:
                    count += 1
                    if not first:
                        first = trail[:]
                else:
                    gener(p + 1, j)
                table[i][j] = table[j][i] = True

    for start in range(1, n + 1):
        trail[0] = start
        gener(1, start)
    print(count)
    if first:
        print(*first)


if __name__ == "__main__":
    main()
