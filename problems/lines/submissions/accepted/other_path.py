"""Lines, accepted: a different shortest path than the reference's.

The wave starts at X instead of @ and labels each free cell with its distance to X; the
ball then walks from @ always to a neighbour one step closer, trying down, left, up, right
in that order. Any such walk is a shortest path (breadth-first search, Moore 1959), and on
open boards it is usually not the reference's one. Reads stdin, writes stdout.
"""

import sys

WALK_ORDER = ((1, 0), (0, -1), (-1, 0), (0, 1))


def distances_to(board, target):
    """Return {cell: moves to `target`} for every cell from which the ball can reach it.

    The wave grows one front at a time: every free neighbour of the current front that has
    no label yet gets the next label.
    """
    size = len(board)
    distance = {target: 0}
    front = [target]
    label = 0
    while front:
        label += 1
        next_front = []
        for row, column in front:
            for d_row, d_column in WALK_ORDER:
                r, c = row + d_row, column + d_column
                if 0 <= r < size and 0 <= c < size and board[r][c] != "O" and (r, c) not in distance:
                    distance[(r, c)] = label
                    next_front.append((r, c))
        front = next_front
    return distance


def main():
    data = sys.stdin.read().split()
    board = [list(line) for line in data[1 : 1 + int(data[0])]]
    cells = {board[r][c]: (r, c) for r in range(len(board)) for c in range(len(board)) if board[r][c] in "@X"}
    distance = distances_to(board, cells["X"])
    here = cells["@"]
    if here not in distance:
        print("N")
        return
    while distance[here] > 0:
        here = next(
            (here[0] + d_row, here[1] + d_column)
            for d_row, d_column in WALK_ORDER
            if distance.get((here[0] + d_row, here[1] + d_column)) == distance[here] - 1
        )
        board[here[0]][here[1]] = "+"
    print("Y")
    print("\n".join("".join(row) for row in board))


if __name__ == "__main__":
    main()
