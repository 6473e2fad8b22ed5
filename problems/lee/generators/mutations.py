"""Checker-audit outputs for `lee`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test
(each kind is only made where it really is wrong, e.g. no path mutations when the answer is -1).
alternative_answers(input_text, answer_text) -> [output]: other shortest paths, found without the
reference solver by breadth-first searches (Lee 1961) with other neighbour orders, from the mouse
and from the cheese.

Cells are 1-based (row, column) tuples, as in the output. Standard library only.
"""

from collections import deque

# Neighbour orders of the alternative searches: each breaks ties between equal paths differently.
ORDERS = (
    ((-1, 0), (0, 1), (1, 0), (0, -1)),
    ((1, 0), (0, -1), (-1, 0), (0, 1)),
    ((0, 1), (1, 0), (0, -1), (-1, 0)),
    ((0, -1), (-1, 0), (0, 1), (1, 0)),
)


def read_maze(input_text):
    """Return (grid, mouse, cheese): grid a list of rows of 0/1, cells 1-based tuples."""
    numbers = iter(int(token) for token in input_text.split())
    rows, cols = next(numbers), next(numbers)
    grid = [[next(numbers) for _ in range(cols)] for _ in range(rows)]
    mouse = (next(numbers), next(numbers))
    return grid, mouse, (next(numbers), next(numbers))


def read_answer(answer_text):
    """Return (k, cells) of a judge answer; cells is [] for -1."""
    values = [int(token) for token in answer_text.split()]
    return values[0], list(zip(values[1::2], values[2::2]))


def output(count, cells):
    """The output text: the count, then one `i j` line per cell."""
    return "".join(f"{line}\n" for line in [str(count)] + [f"{r} {c}" for r, c in cells])


def inside(grid, cell):
    """True if `cell` is on the maze."""
    return 1 <= cell[0] <= len(grid) and 1 <= cell[1] <= len(grid[0])


def is_free(grid, cell):
    """True if `cell` is on the maze and not a wall."""
    return inside(grid, cell) and grid[cell[0] - 1][cell[1] - 1] == 0


def step(cell, move):
    """The cell one `move` (a (row, column) offset) away."""
    return cell[0] + move[0], cell[1] + move[1]


def search(grid, start, goal, order):
    """A shortest path start..goal (list of cells) by breadth-first search, ties broken by `order`.

    Returns None when goal cannot be reached.
    """
    parent = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for move in order:
            nxt = step(cell, move)
            if is_free(grid, nxt) and nxt not in parent:
                parent[nxt] = cell
                queue.append(nxt)
    if goal not in parent:
        return None
    path = [goal]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return path[::-1]


def alternative_answers(input_text, answer_text):
    """Other shortest paths: searches from the mouse and from the cheese in every ORDERS order."""
    grid, mouse, cheese = read_maze(input_text)
    found = []
    for order in ORDERS:
        forward = search(grid, mouse, cheese, order)
        if forward is None:
            return []
        for path in (forward, search(grid, cheese, mouse, order)[::-1]):
            text = output(len(path) - 1, path)
            if text not in found:
                found.append(text)
    return found


def turns(path):
    """Indices i of the cells where the path turns (path[i-1] and path[i+1] diagonal)."""
    return [
        i
        for i in range(1, len(path) - 1)
        if abs(path[i - 1][0] - path[i + 1][0]) == 1 and abs(path[i - 1][1] - path[i + 1][1]) == 1
    ]


def straights(path):
    """Indices i where the path goes straight on (path[i-1] and path[i+1] two cells apart)."""
    return [
        i
        for i in range(1, len(path) - 1)
        if 2 in (abs(path[i - 1][0] - path[i + 1][0]), abs(path[i - 1][1] - path[i + 1][1]))
    ]


def skipping(path, candidates):
    """(count, cells): the path with cells at `candidates` left out, so that it jumps over them.

    With two candidates far enough apart, both go and a there-and-back at the end keeps k moves
    (the grid is bipartite: one skipped cell alone changes the parity); else one goes, k-1 moves.
    Returns None without candidates.
    """
    k = len(path) - 1
    for first in candidates:
        for second in candidates:
            if second >= first + 2:
                cells = [cell for index, cell in enumerate(path) if index not in (first, second)]
                return k, cells + [cells[-2], cells[-1]]
    if candidates:
        index = candidates[0]
        return k - 1, path[:index] + path[index + 1 :]
    return None


def free_neighbour(grid, cell, avoid):
    """A free neighbour of `cell` not in `avoid`, or None."""
    for move in ORDERS[0]:
        nxt = step(cell, move)
        if is_free(grid, nxt) and nxt not in avoid:
            return nxt
    return None


def through_wall(grid, path):
    """A path of k moves cutting a corner through a wall, or a step into a wall and back."""
    k = len(path) - 1
    for index in turns(path):
        before, after = path[index - 1], path[index + 1]
        corner = (before[0] + after[0] - path[index][0], before[1] + after[1] - path[index][1])
        if inside(grid, corner) and not is_free(grid, corner):
            return [("a path through a wall cell", output(k, path[:index] + [corner] + path[index + 1 :]))]
    for index, cell in enumerate(path):
        for move in ORDERS[0]:
            wall = step(cell, move)
            if inside(grid, wall) and not is_free(grid, wall):
                cells = path[: index + 1] + [wall] + path[index:]
                return [("a step into a wall and back", output(k + 2, cells))]
    return []


def longer(grid, path):
    """Paths with more moves than the optimum: a standing move, a there-and-back, a detour."""
    k = len(path) - 1
    made = [("one step longer (a standing move)", output(k + 1, [path[0]] + path))]
    neighbour = free_neighbour(grid, path[0], ())
    if neighbour is not None:
        made.append(("two steps longer (there and back)", output(k + 2, [path[0], neighbour] + path)))
    on_path = set(path)
    for index in range(k):
        a, b = path[index], path[index + 1]
        for side in ((b[1] - a[1], b[0] - a[0]), (a[1] - b[1], a[0] - b[0])):  # perpendicular offsets
            a2, b2 = step(a, side), step(b, side)
            if is_free(grid, a2) and is_free(grid, b2) and a2 not in on_path and b2 not in on_path:
                detour = path[: index + 1] + [a2, b2] + path[index + 1 :]
                return made + [("a longer detour", output(k + 2, detour))]
    return made


def wrong_ends(grid, path):
    """A path that does not start at the mouse, and one that does not end at the cheese."""
    k = len(path) - 1
    made = []
    on_path = set(path)
    if k >= 1:
        start = free_neighbour(grid, path[1], on_path)
        cells = [start] + path[1:] if start else path[1:]
        made.append(("not starting at the mouse", output(len(cells) - 1, cells)))
        end = free_neighbour(grid, path[-2], on_path)
        cells = path[:-1] + [end] if end else path[:-1]
        made.append(("not ending at the cheese", output(len(cells) - 1, cells)))
    else:
        other = free_neighbour(grid, path[0], on_path)
        if other is not None:
            made.append(("not starting at the mouse", output(0, [other])))
    return made


def unreachable_claims(grid, mouse, cheese):
    """Wrong answers where the cheese cannot be reached: any claimed path."""
    cells = [mouse]
    while cells[-1][0] != cheese[0]:
        cells.append((cells[-1][0] + (1 if cheese[0] > cells[-1][0] else -1), cells[-1][1]))
    while cells[-1][1] != cheese[1]:
        cells.append((cells[-1][0], cells[-1][1] + (1 if cheese[1] > cells[-1][1] else -1)))
    return [("claims zero moves", output(0, [mouse])), ("a path through walls", output(len(cells) - 1, cells))]


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: wrong counts, longer paths, a wall cell, a diagonal move, a
    jump of two cells, wrong ends; for -1, claimed paths."""
    grid, mouse, cheese = read_maze(input_text)
    k, path = read_answer(answer_text)
    if k == -1:
        return unreachable_claims(grid, mouse, cheese)
    made = [("wrong count: one more", output(k + 1, path)), ("claims the cheese is unreachable", "-1\n")]
    if k >= 1:
        made.append(("wrong count: one less", output(k - 1, path)))
    made += longer(grid, path) + through_wall(grid, path) + wrong_ends(grid, path)
    for kind, candidates in (("a diagonal move", turns(path)), ("a jump of two cells", straights(path))):
        skipped = skipping(path, candidates)
        if skipped is not None:
            made.append((kind, output(*skipped)))
    return made
