"""The `lee` reference solver (Lee 1961 wave): valid shortest paths, checked against an
independent brute force on random small mazes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.lee import format_answer, parse_input, solve

INFINITY = float("inf")


def relaxed_distances(grid, start):
    """Move counts from `start` by repeated relaxation (Bellman-Ford style) until nothing changes.

    Deliberately not a BFS, so it shares no logic with the solver under test.
    """
    rows, cols = len(grid), len(grid[0])
    distance = [[INFINITY] * cols for _ in range(rows)]
    distance[start[0]][start[1]] = 0
    changed = True
    while changed:
        changed = False
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] == 1:
                    continue
                around = [
                    distance[r + dr][c + dc]
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= r + dr < rows and 0 <= c + dc < cols
                ]
                best = min(around, default=INFINITY) + 1
                if best < distance[r][c]:
                    distance[r][c] = best
                    changed = True
    return distance


def assert_valid_path(grid, start, goal, path):
    assert path[0] == start and path[-1] == goal
    for r, c in path:
        assert 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == 0
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        assert abs(r1 - r2) + abs(c1 - c2) == 1


@st.composite
def mazes(draw):
    """A random maze up to 8x8 with the mouse and the cheese on free cells (possibly the same)."""
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    density = draw(st.sampled_from([0.0, 0.2, 0.35, 0.5]))
    grid = [[int(draw(st.floats(0, 1)) < density) for _ in range(cols)] for _ in range(rows)]
    start = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    goal = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    grid[start[0]][start[1]] = grid[goal[0]][goal[1]] = 0
    return grid, start, goal


@settings(max_examples=400, deadline=None)
@given(mazes())
def test_path_is_valid_and_as_short_as_the_brute_force(maze):
    grid, start, goal = maze
    shortest = relaxed_distances(grid, start)[goal[0]][goal[1]]
    path = solve(grid, start, goal)
    if shortest == INFINITY:
        assert path is None
    else:
        assert path is not None
        assert_valid_path(grid, start, goal, path)
        assert len(path) - 1 == shortest


def test_mouse_on_the_cheese_is_zero_moves():
    assert solve([[0]], (0, 0), (0, 0)) == [(0, 0)]
    assert format_answer(solve([[0]], (0, 0), (0, 0))) == "0\n1 1\n"


def test_documented_tie_break_prefers_down_before_right():
    # Open 2x2, (0,0) to (1,1): "down" is tried before "right", so (1,0) is queued first and
    # becomes the predecessor of (1,1).
    assert solve([[0, 0], [0, 0]], (0, 0), (1, 1)) == [(0, 0), (1, 0), (1, 1)]


def test_unreachable_prints_minus_one():
    grid, start, goal = parse_input("1 3\n0 1 0\n1 1\n1 3\n")
    assert (start, goal) == ((0, 0), (0, 2))
    assert format_answer(solve(grid, start, goal)) == "-1\n"


def test_seed_first_example_needs_twelve_moves():
    # The seed maze: rows 2 and 4 are walls except at columns 5-6 and 1, 6 respectively.
    text = "5 6\n0 0 0 0 0 0\n1 1 1 1 0 0\n0 0 0 0 0 0\n0 1 1 1 1 0\n0 0 0 0 0 0\n1 1\n5 1\n"
    grid, start, goal = parse_input(text)
    path = solve(grid, start, goal)
    assert_valid_path(grid, start, goal, path)
    assert len(path) - 1 == 12
