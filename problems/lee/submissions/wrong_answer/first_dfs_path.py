"""Wrong answer: depth-first search, printing the first path it finds (a stack, not a queue).

It reaches the cheese whenever it can, but the path it stumbles on is usually far from the
shortest, e.g. it sweeps whole columns of an open grid.
"""

import sys


def main():
    values = list(map(int, sys.stdin.read().split()))
    n, m = values[0], values[1]
    grid = [values[2 + r * m : 2 + (r + 1) * m] for r in range(n)]
    start = (values[2 + n * m], values[3 + n * m])
    goal = (values[4 + n * m], values[5 + n * m])
    # Iterative DFS: the stack holds the current path; each entry remembers the next move to try.
    moves = ((1, 0), (0, 1), (-1, 0), (0, -1))
    visited = {start}
    stack = [[start, 0]]
    while stack and stack[-1][0] != goal:
        top = stack[-1]
        (r, c), tried = top
        if tried == len(moves):
            stack.pop()
            continue
        top[1] += 1
        nr, nc = r + moves[tried][0], c + moves[tried][1]
        if 1 <= nr <= n and 1 <= nc <= m and grid[nr - 1][nc - 1] == 0 and (nr, nc) not in visited:
            visited.add((nr, nc))
            stack.append([(nr, nc), 0])
    if not stack:
        print(-1)
        return
    print(len(stack) - 1)
    print("\n".join(f"{cell[0]} {cell[1]}" for cell, _ in stack))


main()
