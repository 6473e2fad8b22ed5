"""The house in one stroke, wrong answer: the seed's backtracking that marks only one direction.

When it walks the edge i-j it clears table[i][j] but forgets table[j][i], so an edge may be walked
again from its other end: it counts walks that use some edges twice (and may print one of them).
The house gets more than 88. Reads stdin, writes stdout.
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
                table[i][j] = False
                trail[p] = j
                if p == m:
                    count += 1
                    if not first:
                        first = trail[:]
                else:
                    gener(p + 1, j)
                table[i][j] = True

    for start in range(1, n + 1):
        trail[0] = start
        gener(1, start)
    print(count)
    if first:
        print(*first)


if __name__ == "__main__":
    main()
