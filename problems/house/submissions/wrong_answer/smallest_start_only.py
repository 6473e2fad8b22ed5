"""The house in one stroke, wrong answer: counts only the trails that start at the first vertex
that can start one.

The lecture starts the search from every vertex; this one stops after the first vertex with a
trail, so it prints 44 for the house (the trails from vertex 1, not those from vertex 2) and 2 for
a triangle instead of 6. Fast: completions are memoized per (vertex, used edges). Its trail is
valid. Reads stdin, writes stdout.
"""

import functools
import sys


def main():
    values = [int(token) for token in sys.stdin.read().split()]
    n, m = values[0], values[1]
    adj = [[] for _ in range(n + 1)]
    for i in range(m):
        a, b = values[2 + 2 * i], values[3 + 2 * i]
        adj[a].append((b, 1 << i))
        adj[b].append((a, 1 << i))
    full = (1 << m) - 1

    @functools.cache
    def completions(vertex, used):
        if used == full:
            return 1
        return sum(completions(u, used | bit) for u, bit in adj[vertex] if not used & bit)

    for start in range(1, n + 1):
        count = completions(start, 0)
        if count:
            trail, vertex, used = [start], start, 0
            while used != full:
                vertex, bit = next((u, bit) for u, bit in adj[vertex] if not used & bit and completions(u, used | bit))
                used |= bit
                trail.append(vertex)
            print(count)
            print(*trail)
            return
    print(0)


if __name__ == "__main__":
    main()
