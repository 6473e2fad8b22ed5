"""Accepted, with a different shortest path than the reference: the wave starts at the cheese.

Lee's algorithm (BFS) run from the cheese gives every cell its distance to the cheese; the mouse
then walks forward, each time to the first neighbour (order: right, left, down, up) that is one
step closer. That prefers long horizontal runs, unlike the reference's predecessor chain.
"""

import sys
from collections import deque


def main():
    values = list(map(int, sys.stdin.read().split()))
    n, m = values[0], values[1]
    walls = values[2 : 2 + n * m]
    mouse = (values[2 + n * m] - 1, values[3 + n * m] - 1)
    cheese = (values[4 + n * m] - 1, values[5 + n * m] - 1)
    # Cells are numbered r*m+c; distance -1 means not reached.
    to_cheese = [-1] * (n * m)
    to_cheese[cheese[0] * m + cheese[1]] = 0
    pending = deque([cheese])

    def neighbours(r, c):
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if 0 <= r + dr < n and 0 <= c + dc < m and walls[(r + dr) * m + c + dc] == 0:
                yield r + dr, c + dc

    while pending:
        r, c = pending.popleft()
        for nr, nc in neighbours(r, c):
            if to_cheese[nr * m + nc] == -1:
                to_cheese[nr * m + nc] = to_cheese[r * m + c] + 1
                pending.append((nr, nc))
    moves = to_cheese[mouse[0] * m + mouse[1]]
    if moves == -1:
        print(-1)
        return
    out = [str(moves)]
    r, c = mouse
    out.append(f"{r + 1} {c + 1}")
    while (r, c) != cheese:
        r, c = next((nr, nc) for nr, nc in neighbours(r, c) if to_cheese[nr * m + nc] == to_cheese[r * m + c] - 1)
        out.append(f"{r + 1} {c + 1}")
    print("\n".join(out))


main()
