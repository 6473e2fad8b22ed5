"""Reference solver for `camels`: caravan schedules in which every camel walks directly behind
every other camel exactly once.

N camels walk in a caravan on N days; on each day they walk in one line, one behind another. A
schedule is valid when every ordered pair (a, b) of different camels has b directly behind a on
exactly one day. The N - 1 places behind a camel are then filled on N - 1 days, so each camel leads
exactly one day (in design theory: a Tuscan square, or a row-complete Latin rectangle; none exists
for N = 3 and N = 5, Golomb and Taylor 1985).

Algorithm: the seed's backtracking, place by place and day by day, with the symmetry it uses:
renumbering the camels and reordering the days, every schedule becomes one whose first day is
1 2 ... N and whose day d is led by camel d (a normalized schedule; each normalized one stands for
N! schedules of the other shape: the renumberings). Ordered pairs already used are marked in a
table and unmarked on return. Everything is computed; no table of answers.

Input (stdin): `N T` (1 <= N <= 8, T in {1, 2}; for T = 2, N <= 6).
Output (stdout): T = 1: N lines, the caravans of the N days (front first), or `-1` when there is
no valid schedule; T = 2: the number of normalized schedules.
"""

import sys


def search(n, count_all):
    """Return (count, first): the number of normalized schedules (only 0 or 1 unless count_all)
    and the first one found as a list of N rows of camels (1-based), or None."""
    if n == 1:
        return 1, [[1]]
    behind = [[False] * n for _ in range(n)]  # behind[a][b]: b has walked directly behind a
    rows = [[0] * n for _ in range(n)]
    in_row = [[False] * n for _ in range(n)]
    rows[0] = list(range(n))
    for camel in range(n - 1):
        behind[camel][camel + 1] = True
    for day in range(1, n):
        rows[day][0] = day
        in_row[day][day] = True
    found = [0, None]

    def place(day, spot):
        if day == n:
            found[0] += 1
            if found[1] is None:
                found[1] = [[camel + 1 for camel in row] for row in rows]
            return not count_all
        ahead = rows[day][spot - 1]
        for camel in range(n):
            if not in_row[day][camel] and not behind[ahead][camel]:
                rows[day][spot] = camel
                in_row[day][camel] = behind[ahead][camel] = True
                if place(day + 1, 1) if spot == n - 1 else place(day, spot + 1):
                    return True
                in_row[day][camel] = behind[ahead][camel] = False
        return False

    place(1, 1)
    return found[0], found[1]


def solve(n, task):
    """Task 1: the first normalized schedule (list of rows) or None; task 2: the count."""
    count, first = search(n, task == 2)
    return first if task == 1 else count


def format_answer(task, answer):
    """Return the output text of `solve`'s answer."""
    if task == 2:
        return f"{answer}\n"
    if answer is None:
        return "-1\n"
    return "".join(" ".join(map(str, row)) + "\n" for row in answer)


def main():
    """Read `N T` on stdin, write the answer on stdout."""
    n, task = (int(token) for token in sys.stdin.read().split())
    sys.setrecursionlimit(1000)
    sys.stdout.write(format_answer(task, solve(n, task)))


if __name__ == "__main__":
    main()
