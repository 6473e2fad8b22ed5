"""Snakes and ladders, BFS that lets a throw go past the last cell and counts it as finishing.

The rule says a throw from c must satisfy c + r <= n - 1. This solution ignores it: any throw
that reaches or passes n - 1 finishes. That never changes the answer: a cell c from which some
throw passes n - 1 has c >= n - 6, so the exact throw n - 1 - c (between 1 and 6) also finishes
in one move; any other cell is more than 6 away and cannot pass the end. Kept in accepted/ to
show the judge does not reject this harmless reading of the rule.
"""

import sys


def main():
    values = sys.stdin.buffer.read().split()
    n, count = int(values[0]), int(values[1])
    goal = n - 1
    jump = {}
    for i in range(count):
        jump[int(values[2 + 2 * i])] = int(values[3 + 2 * i])
    seen = [False] * n
    seen[0] = True
    level, moves = [0], 0
    while level:
        if seen[goal]:  # a ladder brought the piece to the last cell
            print(moves)
            return
        moves += 1
        following = []
        for cell in level:
            if cell + 6 >= goal:
                print(moves)
                return
            for landed in range(cell + 1, cell + 7):
                end = jump.get(landed, landed)
                if not seen[end]:
                    seen[end] = True
                    following.append(end)
        level = following
    print(-1)


main()
