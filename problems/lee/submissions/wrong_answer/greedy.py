"""Wrong answer: always step toward the cheese (the idea the seed lesson warns against).

From the current cell, take the first free, unvisited neighbour that lowers the Manhattan
distance to the cheese; when there is none, give up and print -1. Fails whenever a wall forces a
detour away from the cheese.
"""

import sys


def main():
    values = list(map(int, sys.stdin.read().split()))
    n, m = values[0], values[1]
    grid = [values[2 + r * m : 2 + (r + 1) * m] for r in range(n)]
    r, c, goal_r, goal_c = values[2 + n * m : 6 + n * m]
    path = [(r, c)]
    seen = {(r, c)}
    while (r, c) != (goal_r, goal_c):
        options = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        closer = [
            (nr, nc)
            for nr, nc in options
            if 1 <= nr <= n
            and 1 <= nc <= m
            and grid[nr - 1][nc - 1] == 0
            and (nr, nc) not in seen
            and abs(nr - goal_r) + abs(nc - goal_c) < abs(r - goal_r) + abs(c - goal_c)
        ]
        if not closer:
            print(-1)
            return
        r, c = closer[0]
        seen.add((r, c))
        path.append((r, c))
    print(len(path) - 1)
    print("\n".join(f"{pr} {pc}" for pr, pc in path))


main()
