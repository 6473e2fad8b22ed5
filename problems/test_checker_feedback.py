"""The output validators' feedback.json: written on every verdict, shaped for the pictures, and
saying the same thing as the one-line judge message. Wrong answers come from each package's
``generators/mutations.py``, right ones from the reference solvers' judge answers."""

from __future__ import annotations

import pytest

from tests.checker_runs import PROBLEMS, answer, run, wrong


@pytest.mark.parametrize(
    "problem", ["lee", "lines", "snakes", "basic", "queens", "house", "knight", "domination", "camels"]
)
def test_every_verdict_writes_feedback_of_its_kind(problem, tmp_path):
    tests = sorted(
        p.relative_to(PROBLEMS / problem / "data").with_suffix("") for p in (PROBLEMS / problem / "data").glob("*/*.in")
    )
    for test in map(str, tests[:8]):
        code, _, feedback = run(problem, test, answer(problem, test), tmp_path)
        assert code == 42 and feedback is not None, test
        assert (feedback["kind"], feedback["version"], feedback["accepted"], feedback["fault"]) == (
            problem,
            1,
            True,
            None,
        )
        for kind, output in wrong(problem, test).items():
            code, message, feedback = run(problem, test, output, tmp_path)
            assert code == 43 and message, (test, kind)
            assert feedback["accepted"] is False and feedback["fault"]["reason"], (test, kind, feedback["fault"])


def test_lee_wall_jump_and_diagonal_are_marked_at_the_checkers_cell(tmp_path):
    outputs = wrong("lee", "sample/01")
    _, message, feedback = run("lee", "sample/01", outputs["a path through a wall cell"], tmp_path)
    assert feedback["fault"]["reason"] == "wall"
    row, col = feedback["fault"]["cell"]
    assert f"({row}, {col}) is a wall" in message and feedback["grid"][row - 1][col - 1] == "1"
    assert feedback["path"][feedback["fault"]["step"]] == [row, col]
    _, message, feedback = run("lee", "sample/01", outputs["a jump of two cells"], tmp_path)
    fault = feedback["fault"]
    assert (
        fault["reason"] == "jump" and f"move #{fault['step']} from ({fault['from'][0]}, {fault['from'][1]})" in message
    )
    _, message, feedback = run("lee", "sample/01", outputs["a diagonal move"], tmp_path)
    fault = feedback["fault"]
    assert fault["reason"] == "diagonal" and f"to ({fault['cell'][0]}, {fault['cell'][1]})" in message
    assert abs(fault["cell"][0] - fault["from"][0]) == abs(fault["cell"][1] - fault["from"][1]) == 1


def test_lee_feedback_carries_one_shortest_path_and_the_wave(tmp_path):
    test = "secret/16-spiral"
    _, _, feedback = run("lee", test, wrong("lee", test)["wrong count: one more"], tmp_path)
    k = int(answer("lee", test).split()[0])
    shortest, distance = feedback["shortest"], feedback["distance"]
    assert len(shortest) == k + 1 and shortest[0] == feedback["start"] and shortest[-1] == feedback["goal"]
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(shortest, shortest[1:]))
    assert [distance[r - 1][c - 1] for r, c in shortest] == list(range(k + 1))  # the path rides the wave
    assert feedback["fault"]["reason"] == "too_long"
    walls = {(r, c) for r, line in enumerate(feedback["grid"]) for c, ch in enumerate(line) if ch == "1"}
    assert all(distance[r][c] == -1 for r, c in walls)


def test_lee_detour_is_marked_where_the_path_falls_behind_the_wave(tmp_path):
    _, _, feedback = run("lee", "sample/01", wrong("lee", "sample/01")["a longer detour"], tmp_path)
    fault = feedback["fault"]
    assert (fault["reason"], fault["step_reason"]) == ("too_long", "detour")
    row, col = fault["cell"]
    assert feedback["distance"][row - 1][col - 1] < fault["step"]
    assert feedback["path"][fault["step"]] == [row, col]


def test_lee_feedback_of_the_largest_maze_stays_under_the_limit(tmp_path):
    """A 100 × 100 maze with a path of every cell twice: the file is bounded (the path is cut)."""
    test = max(PROBLEMS.glob("lee/data/secret/*.in"), key=lambda p: len(p.read_text())).relative_to(
        PROBLEMS / "lee" / "data"
    )
    test = str(test.with_suffix(""))
    rows, cols = map(int, (PROBLEMS / "lee" / "data" / f"{test}.in").read_text().split()[:2])
    output = f"{2 * rows * cols}\n" + "1 1\n" * (2 * rows * cols + 1)
    code, _, feedback = run("lee", test, output, tmp_path)
    assert code == 43 and feedback is not None
    assert len(feedback["path"]) == rows * cols + 1 and feedback["path_truncated"] is True


def test_lines_ball_and_unmarked_x_name_the_checkers_cell(tmp_path):
    outputs = wrong("lines", "sample/01")
    _, message, feedback = run("lines", "sample/01", outputs["a + on a ball"], tmp_path)
    row, col = feedback["fault"]["cell"]
    assert feedback["fault"]["reason"] == "ball" and f"(row {row}, column {col})" in message
    assert feedback["grid"][row - 1][col - 1] == "1" and [row, col] in feedback["path"]
    _, message, feedback = run("lines", "sample/01", outputs["X left unmarked"], tmp_path)
    assert feedback["fault"] == {"reason": "end_unmarked", "cell": feedback["goal"]}
    _, _, feedback = run("lines", "sample/01", outputs["a gap in the path"], tmp_path)
    assert feedback["fault"]["reason"] == "disconnected"
    moves = sum(line.count("+") for line in answer("lines", "sample/01").split()[1:])
    assert len(feedback["shortest"]) == moves and feedback["shortest"][-1] == feedback["goal"]


def test_snakes_feedback_route_lands_where_the_board_says(tmp_path):
    test = "secret/13-snake-needed"
    _, message, feedback = run("snakes", test, wrong("snakes", test)["count + 1"], tmp_path)
    expected = int(answer("snakes", test))
    assert feedback["fault"] == {"reason": "too_many"} and feedback["claimed"] == expected + 1
    transitions = dict(map(tuple, feedback["transitions"]))
    route = feedback["route"]
    assert len(route) == expected and route[0]["from"] == 0 and route[-1]["to"] == feedback["cells"] - 1
    for move, following in zip(route, route[1:] + [None]):
        assert move["land"] == move["from"] + move["throw"] and move["to"] == transitions.get(
            move["land"], move["land"]
        )
        assert following is None or following["from"] == move["to"]
    assert any(move["to"] < move["land"] for move in route)  # this test needs a snake


def test_snakes_large_board_feedback_leaves_the_board_out(tmp_path):
    test = "secret/24-large-full-ladders"
    code, _, feedback = run("snakes", test, "-1\n", tmp_path)
    assert code == 43 and feedback["fault"] == {"reason": "reachable"}
    assert feedback["cells"] == 100000 and feedback["transitions"] is None and feedback["route"] is None


def test_basic_feedback_marks_the_illegal_move_and_the_broken_position(tmp_path):
    outputs = wrong("basic", "sample/02")
    _, message, feedback = run("basic", "sample/02", outputs["a position that is not a permutation"], tmp_path)
    assert feedback["fault"] == {"reason": "not_permutation", "step": 1} and "position 2" in message
    _, _, feedback = run("basic", "sample/02", outputs["one move longer (a standing move)"], tmp_path)
    assert feedback["fault"] == {"reason": "wrong_count", "step": 1, "step_reason": "illegal_move"}
    assert feedback["positions"][0] == feedback["positions"][1] == feedback["start"]
    k = int(answer("basic", "sample/02").split()[0])
    assert len(feedback["shortest"]) == k + 1 and feedback["shortest"][-1] == "BASIC*"


def test_queens_feedback_names_the_attacking_pair(tmp_path):
    test = "secret/07-n9"
    outputs = wrong("queens", test)
    _, message, feedback = run("queens", test, outputs["an attacking placement (one column)"], tmp_path)
    first, second = feedback["fault"]["rows"]
    assert feedback["fault"]["how"] == "column" and f"rows {first} and {second} share column" in message
    assert [first, second, "column"] in feedback["attacked"]
    example = feedback["example"]
    assert sorted(example) == list(range(1, 10))
    assert all(abs(example[i] - example[j]) != j - i for i in range(9) for j in range(i + 1, 9))
    _, message, feedback = run("queens", test, outputs["a column out of range (0)"], tmp_path)
    assert feedback["fault"] == {"reason": "out_of_range", "rows": [9]} and "row 9 is 0" in message
