"""Snakes and ladders, TOO SLOW: the seed's exhaustive forward search, without any memo.

Every sequence of forward moves (a move must end on a higher cell, so snakes are skipped) is
tried, and the shortest that ends on the last cell wins. The number of such sequences grows
exponentially with n (about 2^n on a board without transitions). An explicit stack replaces the
seed's recursion so that deep boards run out of time, not out of stack.
"""

import sys


def main():
    numbers = iter(map(int, sys.stdin.buffer.read().split()))
    n, count = next(numbers), next(numbers)
    ends_on = list(range(n))
    for _ in range(count):
        start = next(numbers)
        ends_on[start] = next(numbers)
    best = n + 1
    stack = [(0, 0)]  # (cell, moves so far)
    while stack:
        cell, moves = stack.pop()
        if cell == n - 1:
            best = min(best, moves)
            continue
        for throw in range(1, 7):
            if cell + throw > n - 1:
                break
            end = ends_on[cell + throw]
            if end > cell:
                stack.append((end, moves + 1))
    print(best if best <= n else -1)


main()
