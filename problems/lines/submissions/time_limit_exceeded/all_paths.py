"""Lines, time limit exceeded: try every simple path from @ and keep the shortest.

Correct (it prunes only routes already as long as the best one found), but the number of
simple paths grows exponentially with the free area, so open boards never finish.
Reads stdin, writes stdout.
"""

import sys

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def main():
    data = sys.stdin.read().split()
    size = int(data[0])
    board = [list(line) for line in data[1 : 1 + size]]
    start = next((r, c) for r in range(size) for c in range(size) if board[r][c] == "@")
    sys.setrecursionlimit(10 * size * size + 100)
    best = []
    route = []
    on_route = {start}

    def extend(row, column):
        if best and len(route) >= len(best[0]):
            return
        if board[row][column] == "X":
            best[:] = [list(route)]
            return
        for d_row, d_column in STEPS:
            cell = (row + d_row, column + d_column)
            if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in on_route and board[cell[0]][cell[1]] in ".X":
                on_route.add(cell)
                route.append(cell)
                extend(*cell)
                route.pop()
                on_route.remove(cell)

    extend(*start)
    if not best:
        print("N")
        return
    for row, column in best[0]:
        board[row][column] = "+"
    print("Y")
    print("\n".join("".join(line) for line in board))


if __name__ == "__main__":
    main()
