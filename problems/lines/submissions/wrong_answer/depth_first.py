"""Lines, wrong answer: a depth-first search finds *a* path, not a shortest one.

The ball keeps going right, down, left or up (first free neighbour not visited yet) and
backs up only at dead ends; the first time it reaches X, that route is printed. On open
boards the route snakes across the whole board. Iterative, so deep routes do not overflow
Python's stack. Like the seed's program it reads input.txt and writes output.txt.
"""

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def main():
    with open("input.txt") as input_file:
        size = int(input_file.readline())
        board = [list(input_file.readline().strip()) for _ in range(size)]
    start = [(r, c) for r, line in enumerate(board) for c, cell in enumerate(line) if cell == "@"][0]
    visited = {start}
    route = [start]
    while route and board[route[-1][0]][route[-1][1]] != "X":
        row, column = route[-1]
        for d_row, d_column in STEPS:
            cell = (row + d_row, column + d_column)
            if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in visited and board[cell[0]][cell[1]] in ".X":
                visited.add(cell)
                route.append(cell)
                break
        else:
            route.pop()
    with open("output.txt", "w") as output_file:
        if not route:
            output_file.write("N\n")
            return
        for row, column in route[1:]:
            board[row][column] = "+"
        output_file.write("Y\n" + "".join("".join(line) + "\n" for line in board))


if __name__ == "__main__":
    main()
