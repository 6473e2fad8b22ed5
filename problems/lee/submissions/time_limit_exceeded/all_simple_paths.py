"""Too slow: try every simple path from the mouse and keep the shortest that reaches the cheese.

Correct, but the number of simple paths grows exponentially with the free area; an open
100x100 grid would take longer than the age of the universe.
"""

import sys


def main():
    values = list(map(int, sys.stdin.read().split()))
    n, m = values[0], values[1]
    grid = [values[2 + r * m : 2 + (r + 1) * m] for r in range(n)]
    start = (values[2 + n * m] - 1, values[3 + n * m] - 1)
    goal = (values[4 + n * m] - 1, values[5 + n * m] - 1)
    best = None
    on_path = {start}
    path = [start]
    # Explicit stack of neighbour iterators, so the 5000-long corridors do not hit the
    # recursion limit.
    choices = [iter(((1, 0), (0, 1), (-1, 0), (0, -1)))]
    while choices:
        if path[-1] == goal:
            if best is None or len(path) < len(best):
                best = list(path)
            step = None
        else:
            step = next(choices[-1], None)
        if step is None:
            choices.pop()
            on_path.discard(path.pop())
            continue
        r, c = path[-1][0] + step[0], path[-1][1] + step[1]
        if 0 <= r < n and 0 <= c < m and grid[r][c] == 0 and (r, c) not in on_path:
            on_path.add((r, c))
            path.append((r, c))
            choices.append(iter(((1, 0), (0, 1), (-1, 0), (0, -1))))
    if best is None:
        print(-1)
        return
    print(len(best) - 1)
    print("\n".join(f"{r + 1} {c + 1}" for r, c in best))


main()
