"""Six camels, time limit exceeded: the seed's backtracking without ordering the days by leader.

Day 1 is 1 2 ... N, as in the lecture, but any camel may lead any later day (a camel that has
led already is skipped). Every normalized schedule is then found once for each order of days
2 ... N, so the count is divided by (N - 1)! at the end: correct, but up to 120 times slower for
N = 6. Reads stdin, writes stdout.
"""

import math
import sys


def main():
    n, task = (int(token) for token in sys.stdin.read().split())
    behind = [[False] * n for _ in range(n)]
    rows = [list(range(n))] + [[0] * n for _ in range(n - 1)]
    in_row = [[False] * n for _ in range(n)]
    led = [camel == 0 for camel in range(n)]
    for camel in range(n - 1):
        behind[camel][camel + 1] = True
    found = [0, None]

    def place(day, spot):
        if day == n:
            found[0] += 1
            if found[1] is None:
                found[1] = [row[:] for row in rows]
            return task == 1
        if spot == 0:
            for camel in range(n):
                if not led[camel]:
                    rows[day][0], led[camel], in_row[day][camel] = camel, True, True
                    if place(day, 1):
                        return True
                    led[camel] = in_row[day][camel] = False
            return False
        ahead = rows[day][spot - 1]
        for camel in range(n):
            if not in_row[day][camel] and not behind[ahead][camel]:
                rows[day][spot] = camel
                in_row[day][camel] = behind[ahead][camel] = True
                if place(day + 1, 0) if spot == n - 1 else place(day, spot + 1):
                    return True
                in_row[day][camel] = behind[ahead][camel] = False
        return False

    place(1, 0)
    if task == 2:
        print(found[0] // math.factorial(n - 1))
    elif found[1] is None:
        print(-1)
    else:
        for row in found[1]:
            print(*(camel + 1 for camel in row))


if __name__ == "__main__":
    main()
