"""Six camels, wrong answer: the pair table is marked both ways.

When camel b walks behind camel a, this search also forbids a behind b (as if the table were
symmetric, like the house's table of edges). But each camel must learn the sign of every other
camel, so both orders are needed: it finds no schedule for N >= 2 and prints -1 (or 0 schedules).
Reads stdin, writes stdout.
"""

import sys


def main():
    n, task = (int(token) for token in sys.stdin.read().split())
    met = [[False] * n for _ in range(n)]
    rows = [list(range(n))] + [[day] + [0] * (n - 1) for day in range(1, n)]
    in_row = [[camel == day for camel in range(n)] for day in range(n)]
    for camel in range(n - 1):
        met[camel][camel + 1] = met[camel + 1][camel] = True
    found = [0, None]

    def place(day, spot):
        if day == n:
            found[0] += 1
            found[1] = found[1] or [row[:] for row in rows]
            return task == 1
        ahead = rows[day][spot - 1]
        for camel in range(n):
            if not in_row[day][camel] and not met[ahead][camel]:
                rows[day][spot] = camel
                in_row[day][camel] = met[ahead][camel] = met[camel][ahead] = True
                if place(day + 1, 1) if spot == n - 1 else place(day, spot + 1):
                    return True
                in_row[day][camel] = met[ahead][camel] = met[camel][ahead] = False
        return False

    if n == 1:
        found = [1, [[0]]]
    else:
        place(1, 1)
    if task == 2:
        print(found[0])
    elif found[1] is None:
        print(-1)
    else:
        for row in found[1]:
            print(*(camel + 1 for camel in row))


if __name__ == "__main__":
    main()
