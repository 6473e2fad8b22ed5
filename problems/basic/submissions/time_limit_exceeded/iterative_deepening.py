"""The BASIC puzzle, TOO SLOW: iterative deepening without any memory of visited boards.

Unreachable boards are answered at once by parity (a move never changes whether the five
tiles, read row by row, are an even or odd permutation of B A S I C). Otherwise depth-limited
searches with limits 0, 1, 2, ... are run; each tries every sequence of moves up to the limit,
even those that step straight back. About 2.5^k sequences per search: fine for 10 moves,
hopeless within the time limit for 20 or 21.
"""

import sys

ADJACENT = ((1, 3), (0, 2, 4), (1, 5), (0, 4), (1, 3, 5), (2, 4))


def odd(board):
    """Return True if the tiles of `board` (without `*`) are an odd permutation of BASIC."""
    ranks = ["BASIC".index(tile) for tile in board if tile != "*"]
    inversions = sum(1 for i in range(5) for j in range(i + 1, 5) if ranks[i] > ranks[j])
    return inversions % 2 == 1


def limited(cells, empty, limit, trail):
    """Depth-first search of at most `limit` more moves; True when `trail` reaches the goal."""
    if "".join(cells) == "BASIC*":
        return True
    if limit == 0:
        return False
    for other in ADJACENT[empty]:
        cells[empty], cells[other] = cells[other], "*"
        trail.append("".join(cells))
        if limited(cells, other, limit - 1, trail):
            return True
        trail.pop()
        cells[other], cells[empty] = cells[empty], "*"
    return False


def main():
    start = sys.stdin.readline().strip()
    if odd(start):
        print(-1)
        return
    limit = 0
    while True:
        trail = [start]
        if limited(list(start), start.index("*"), limit, trail):
            break
        limit += 1
    print(len(trail) - 1)
    print("\n".join(trail))


main()
