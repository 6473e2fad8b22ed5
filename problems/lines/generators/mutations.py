"""Checker-audit outputs for `lines`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test
(a path is only mutated where the judge answer has one).
alternative_answers(input_text, answer_text) -> [output]: other shortest paths drawn with `+`,
found without the reference solver by the wave (breadth-first search, Lee 1961) run from `@` and
from `X` with other neighbour orders.

Cells are 0-based (row, column) tuples. Standard library only.
"""

from collections import deque

MARK = "+"
PASSABLE = ".X"
# Neighbour orders of the alternative searches: each breaks ties between equal paths differently.
DIRECTIONS = (
    ((0, 1), (1, 0), (0, -1), (-1, 0)),
    ((-1, 0), (0, -1), (1, 0), (0, 1)),
    ((1, 0), (0, 1), (-1, 0), (0, -1)),
    ((0, -1), (-1, 0), (0, 1), (1, 0)),
)


def read_board(text):
    """Return the board lines of an input or of a `Y` answer (the lines after the first)."""
    lines = text.split()
    return lines[1:]


def locate(board, mark):
    """(row, column) of the first `mark` on the (square) board."""
    return divmod("".join(board).index(mark), len(board))


def cell_at(board, cell):
    """The character at `cell`, or None off the board."""
    row, column = cell
    if 0 <= row < len(board) and 0 <= column < len(board):
        return board[row][column]
    return None


def draw(board, changes):
    """The answer text `Y` + board with `changes` ({cell: character}) applied."""
    rows = [list(line) for line in board]
    for (row, column), character in changes.items():
        rows[row][column] = character
    return "Y\n" + "".join("".join(row) + "\n" for row in rows)


def marked(path):
    """The changes that draw `path` (cells after `@`) with `+`."""
    return {cell: MARK for cell in path}


def wave_distances(board, start):
    """{cell: least moves from `start`} over the free cells, `X` and `@` (the wave)."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in neighbours(cell):
            if nxt not in distance and (cell_at(board, nxt) or "O") in PASSABLE + "@":
                distance[nxt] = distance[cell] + 1
                queue.append(nxt)
    return distance


def wave(board, start, goal, order):
    """Cells of a shortest route start..goal (both included), or None: the wave from `goal`, then
    steps down its distances from `start`, the first closer neighbour in `order` each time."""
    distance = wave_distances(board, goal)
    if start not in distance:
        return None
    route = [start]
    while route[-1] != goal:
        here = route[-1]
        route.append(next(n for n in neighbours(here, order) if distance.get(n) == distance[here] - 1))
    return route


def alternative_answers(input_text, answer_text):
    """Other shortest paths: waves from `@` and from `X` in every DIRECTIONS order."""
    board = read_board(input_text)
    ball, target = locate(board, "@"), locate(board, "X")
    if wave(board, ball, target, DIRECTIONS[0]) is None:
        return []
    routes = [wave(board, ball, target, order) for order in DIRECTIONS]
    routes += [wave(board, target, ball, order)[::-1] for order in DIRECTIONS]
    return list(dict.fromkeys(draw(board, marked(route[1:])) for route in routes))


def judge_path(board, answer_board):
    """The judge's path as cells from the one after `@` to `X`, in order of the moves."""
    plus = {(r, c) for r, line in enumerate(answer_board) for c, ch in enumerate(line) if ch == MARK}
    path, here = [], locate(board, "@")
    while plus:
        here = next((here[0] + dr, here[1] + dc) for dr, dc in DIRECTIONS[0] if (here[0] + dr, here[1] + dc) in plus)
        plus.discard(here)
        path.append(here)
    return path


def free_cells(board, avoid):
    """Cells holding `.` that are not in `avoid`, row by row."""
    return [(r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == "." and (r, c) not in avoid]


def neighbours(cell, order=DIRECTIONS[0]):
    """The four side neighbours of `cell` in `order` (some may be off the board)."""
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in order]


def longer_path(board, route):
    """A path two moves longer (a detour beside one move of `route`, @ first), or None."""
    on_route = set(route)
    for a, b in zip(route, route[1:]):
        for side in ((b[1] - a[1], b[0] - a[0]), (a[1] - b[1], a[0] - b[0])):  # perpendicular offsets
            a2, b2 = (a[0] + side[0], a[1] + side[1]), (b[0] + side[0], b[1] + side[1])
            if cell_at(board, a2) == "." == cell_at(board, b2) and not {a2, b2} & on_route:
                return route[1 : route.index(a) + 1] + [a2, b2] + route[route.index(b) :]
    return None


def on_a_ball(board, route):
    """Changes that put a `+` on a ball: a corner cut through an `O`, else an `O` marked too."""
    for before, here, after in zip(route, route[1:], route[2:]):
        corner = (before[0] + after[0] - here[0], before[1] + after[1] - here[1])
        if corner != before and corner != after and cell_at(board, corner) == "O":
            changes = marked(route[1:])
            del changes[here]
            changes[corner] = MARK
            return changes
    balls = [(r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == "O"]
    return {**marked(route[1:]), balls[0]: MARK} if balls else None


def path_mutations(board, path):
    """Wrong drawings of a board whose shortest path is `path` (cells after `@`, `X` last)."""
    route = [locate(board, "@")] + path
    drawn = draw(board, marked(path))
    made = [
        ("wrong first line: N", "N\n"),
        ("wrong first line: N before the board", "N\n" + drawn[2:]),
        ("no path drawn", draw(board, {})),
        ("X left unmarked", draw(board, marked(path[:-1]))),
        ("@ marked +", draw(board, {**marked(path), route[0]: MARK})),
    ]
    detour = longer_path(board, route)
    if detour is not None:
        made.append(("a longer path", draw(board, marked(detour))))
    ball = on_a_ball(board, route)
    if ball is not None:
        made.append(("a + on a ball", draw(board, ball)))
    spare = free_cells(board, set(path))
    if spare:
        made.append(("a changed cell", draw(board, {**marked(path), spare[0]: "O"})))
        near = {n for cell in route for n in neighbours(cell)}
        far = [cell for cell in spare if cell not in near] or spare
        made.append(("a disconnected +", draw(board, {**marked(path), far[0]: MARK})))
    if len(path) >= 2:
        made.append(("a gap in the path", draw(board, marked(path[1:]))))
    corners = [
        i for i in range(1, len(route) - 1) if route[i - 1][0] != route[i + 1][0] and route[i - 1][1] != route[i + 1][1]
    ]
    if corners:
        made.append(("a diagonal step", draw(board, marked(p for p in path if p != route[corners[0]]))))
    return made


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: a wrong first line, longer or broken paths, `+` on balls,
    changed cells; where there is no path, claimed paths."""
    board = read_board(input_text)
    if answer_text.split()[0] == "Y":
        return path_mutations(board, judge_path(board, read_board(answer_text)))
    ball, target = locate(board, "@"), locate(board, "X")
    straight = [(row, ball[1]) for row in range(min(ball[0], target[0]), max(ball[0], target[0]) + 1)]
    straight += [(target[0], column) for column in range(min(ball[1], target[1]), max(ball[1], target[1]) + 1)]
    claimed = {cell: MARK for cell in straight if cell != ball}
    return [
        ("wrong first line: Y", "Y\n"),
        ("Y with the board unchanged", draw(board, {})),
        ("a path through balls", draw(board, claimed)),
    ]
