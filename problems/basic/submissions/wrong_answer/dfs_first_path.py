"""The BASIC puzzle, WRONG: depth-first search that prints the first way it finds.

The search never revisits a board, so it ends and finds the goal whenever it is reachable (and
prints -1 otherwise), but the first way found is usually far longer than the shortest one.
"""

import sys

sys.setrecursionlimit(10000)
NEIGHBOURS = {0: [1, 3], 1: [0, 2, 4], 2: [1, 5], 3: [0, 4], 4: [1, 3, 5], 5: [2, 4]}


def search(board, visited, trail):
    """Extend `trail` depth-first from `board`; return True once it ends on the goal."""
    trail.append(board)
    if board == "BASIC*":
        return True
    visited.add(board)
    empty = board.index("*")
    for tile in NEIGHBOURS[empty]:
        cells = list(board)
        cells[empty], cells[tile] = cells[tile], cells[empty]
        after = "".join(cells)
        if after not in visited and search(after, visited, trail):
            return True
    trail.pop()
    return False


def main():
    start = sys.stdin.readline().strip()
    trail = []
    if search(start, set(), trail):
        print(len(trail) - 1)
        print("\n".join(trail))
    else:
        print(-1)


main()
