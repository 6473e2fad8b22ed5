"""Output validator (checker) for `lee`, Kattis output validator interface.

Usage: check.py input judge_answer feedback_dir < team_output
Exit 42 (accepted) or 43 (wrong answer); the reason, one line, goes to
feedback_dir/judgemessage.txt. Any other exit is a judge error, so team output never crashes it.

The checker never re-solves: the judge answer's first token is the optimum k (or -1). A team
output is accepted when it prints the same k and then ANY valid path of k moves: k+1 cells `i j`
(1-based), starting at the mouse, ending at the cheese, every cell inside the maze and free,
consecutive cells one step up, down, left or right apart. Output tokens are separated by any
ASCII whitespace ('\\r\\n' and trailing whitespace are fine).
"""

import os
import re
import sys

# >>> shared reading: the same in judge/checkers.py and every package checker (docs/conventions.md "Checkers")
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
INTEGER_TOKEN = re.compile(rb"0|-?[1-9][0-9]{0,99}")
FLOAT_TOKEN = re.compile(rb"-?(?:0|[1-9][0-9]{0,99})(?:\.[0-9]{1,100})?(?:[eE][-+]?[0-9]{1,3})?")


def plain_text(data):
    """Return `data` (bytes of a jury file or a team output) without a leading UTF-8 byte order mark,
    with CR LF line ends read as LF."""
    return (data[len(BYTE_ORDER_MARK) :] if data.startswith(BYTE_ORDER_MARK) else data).replace(b"\r\n", b"\n")


def integer_token(token):
    """Return the int that `token` (bytes, or ASCII str) spells in the integer grammar, else None.

    Integer grammar: `0`, or an optional `-`, a digit 1-9 and at most 99 more digits 0-9.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    return int(token) if INTEGER_TOKEN.fullmatch(token) else None


def float_token(token):
    """Return the finite float that `token` (bytes, or ASCII str) spells in the float grammar, else None.

    Float grammar: an optional `-`, an integer part without leading zeros, an optional `.` and
    1-100 digits, an optional exponent `e`/`E`, optional sign, 1-3 digits.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    value = float(token) if FLOAT_TOKEN.fullmatch(token) else None
    return value if value is not None and abs(value) < float("inf") else None


# <<< shared reading


ACCEPTED, WRONG_ANSWER = 42, 43


class WrongAnswer(Exception):
    """The team output is wrong; the message is the reason for the teacher."""


def read_maze(input_text):
    """Parse the (already validated) test input.

    Returns (grid, mouse, cheese): grid a list of rows of ints, cells 1-based (row, col) tuples.
    """
    values = [int(token) for token in input_text.split()]
    rows, cols = values[0], values[1]
    grid = [values[2 + r * cols : 2 + (r + 1) * cols] for r in range(rows)]
    tail = values[2 + rows * cols :]
    return grid, (tail[0], tail[1]), (tail[2], tail[3])


def show(token):
    """Render a team token for a message: printable, and cut to a readable length."""
    text = repr(token[:20])[2:-1]  # bytes repr without the b'' wrapper escapes garbage bytes
    return text + ("..." if len(token) > 20 else "")


def to_int(token, what):
    """Convert a team token to int, or raise WrongAnswer naming `what` it should have been."""
    value = integer_token(token)
    if value is None:
        raise WrongAnswer(f"{what}: expected an integer, found '{show(token)}'")
    return value


def check_count(team_k, judge_k):
    """Compare the team's number of moves with the optimum. Raises WrongAnswer."""
    if judge_k == -1 and team_k != -1:
        raise WrongAnswer(f"the cheese cannot be reached, but the output claims {team_k} moves")
    if judge_k != -1 and team_k == -1:
        raise WrongAnswer(f"printed -1, but the cheese is reachable in {judge_k} moves")
    if team_k < -1:
        raise WrongAnswer(f"negative number of moves {team_k}")
    if team_k > judge_k:
        raise WrongAnswer(f"not minimal: {team_k} moves, but a shortest path has {judge_k}")
    if team_k < judge_k:
        raise WrongAnswer(f"{team_k} moves is fewer than the shortest possible {judge_k}")


def check_path(cells, grid, mouse, cheese):
    """Prove `cells` (list of 1-based (row, col)) a valid path from mouse to cheese.

    Raises WrongAnswer with the first fault found.
    """
    rows, cols = len(grid), len(grid[0])
    if cells[0] != mouse:
        raise WrongAnswer(f"the path starts at {cells[0]}, not at the mouse {mouse}")
    for number, (row, col) in enumerate(cells, start=1):
        if not (1 <= row <= rows and 1 <= col <= cols):
            raise WrongAnswer(f"cell #{number} ({row}, {col}) is off the {rows}x{cols} maze")
        if grid[row - 1][col - 1] != 0:
            raise WrongAnswer(f"cell #{number} ({row}, {col}) is a wall")
    for number in range(1, len(cells)):
        (row, col), (next_row, next_col) = cells[number - 1], cells[number]
        if abs(row - next_row) + abs(col - next_col) != 1:
            raise WrongAnswer(
                f"move #{number} from ({row}, {col}) to ({next_row}, {next_col}) is "
                f"not one step up, down, left or right"
            )
    if cells[-1] != cheese:
        raise WrongAnswer(f"the path ends at {cells[-1]}, not at the cheese {cheese}")


def check(input_text, judge_text, team_output):
    """Judge one team output (bytes) against the test input and judge answer (str).

    Returns None when accepted; raises WrongAnswer with the reason otherwise.
    """
    grid, mouse, cheese = read_maze(input_text)
    judge_k = int(judge_text.split()[0])
    tokens = plain_text(team_output).split()
    if not tokens:
        raise WrongAnswer("empty output: expected the number of moves")
    team_k = to_int(tokens[0], "number of moves")
    check_count(team_k, judge_k)
    if team_k == -1:
        if len(tokens) > 1:
            raise WrongAnswer(f"extra output after -1: '{show(tokens[1])}'")
        return
    # Every token must be a number before counting them, so garbage is named as garbage.
    numbers = [to_int(token, f"path number #{index}") for index, token in enumerate(tokens[1:], start=1)]
    if len(numbers) != 2 * (team_k + 1):
        raise WrongAnswer(
            f"the path should list k+1 = {team_k + 1} cells ({2 * (team_k + 1)} "
            f"numbers) after k, found {len(numbers)} numbers"
        )
    cells = list(zip(numbers[0::2], numbers[1::2]))
    check_path(cells, grid, mouse, cheese)


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "lee", 1
FEEDBACK_LIMIT_BYTES = 200 * 1024  # the judge ignores feedback over 256 KiB; this stays under it
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def wave(grid, mouse):
    """Breadth-first search (Lee 1961) from the mouse: (distance rows, parent map).

    distance[r][c] is the least number of moves to 0-based cell (r, c), -1 for walls and cells
    the mouse cannot reach; parent maps each reached 1-based cell to the one it was reached from.
    """
    rows, cols = len(grid), len(grid[0])
    distance = [[-1] * cols for _ in range(rows)]
    distance[mouse[0] - 1][mouse[1] - 1] = 0
    parent, frontier = {mouse: None}, [mouse]
    while frontier:
        following = []
        for row, col in frontier:
            for d_row, d_col in STEPS:
                cell = (row + d_row, col + d_col)
                if 1 <= cell[0] <= rows and 1 <= cell[1] <= cols and grid[cell[0] - 1][cell[1] - 1] == 0:
                    if cell not in parent:
                        parent[cell] = (row, col)
                        distance[cell[0] - 1][cell[1] - 1] = distance[row - 1][col - 1] + 1
                        following.append(cell)
        frontier = following
    return distance, parent


def read_path(tokens, limit):
    """The team's cells as read: pairs of the integer tokens after k, up to the first non-integer,
    at most `limit` cells. Returns (cells, True if more tokens were left unread)."""
    numbers = []
    for token in tokens[1 : 1 + 2 * limit]:
        if integer_token(token) is None:
            break
        numbers.append(int(token))
    cells = list(zip(numbers[0::2], numbers[1::2]))
    return cells, len(tokens) - 1 > 2 * len(cells)


def step_fault(cells, grid, mouse, cheese):
    """The first fault of a path in the order check_path finds it: a dict with `reason` (wrong_start,
    off_grid, wall, diagonal, jump, stay, wrong_end), `step` (0-based index of the cell) and `cell`."""
    rows, cols = len(grid), len(grid[0])
    if cells[0] != mouse:
        return {"reason": "wrong_start", "step": 0, "cell": list(cells[0])}
    for index, (row, col) in enumerate(cells):
        if not (1 <= row <= rows and 1 <= col <= cols):
            return {"reason": "off_grid", "step": index, "cell": [row, col]}
        if grid[row - 1][col - 1] != 0:
            return {"reason": "wall", "step": index, "cell": [row, col]}
    for index in range(1, len(cells)):
        (row, col), (next_row, next_col) = cells[index - 1], cells[index]
        rows_moved, cols_moved = abs(row - next_row), abs(col - next_col)
        if rows_moved + cols_moved != 1:
            reason = "stay" if rows_moved + cols_moved == 0 else "diagonal" if rows_moved == cols_moved == 1 else "jump"
            return {"reason": reason, "step": index, "cell": [next_row, next_col], "from": [row, col]}
    if cells[-1] != cheese:
        return {"reason": "wrong_end", "step": len(cells) - 1, "cell": list(cells[-1])}
    return None


def count_fault(tokens, team_k, judge_k):
    """The fault of the count and the token layout (reasons: format, unreachable, reachable, too_long,
    too_short, extra_output, cell_count), in the order `check` finds them, or None."""
    if team_k is None or team_k < -1:
        return {"reason": "format"}
    if team_k != judge_k:
        if -1 in (team_k, judge_k):
            return {"reason": "unreachable" if judge_k == -1 else "reachable"}
        return {"reason": "too_long" if team_k > judge_k else "too_short"}
    if team_k == -1:
        return {"reason": "extra_output"} if len(tokens) > 1 else None
    if not all(integer_token(token) is not None for token in tokens[1:]):
        return {"reason": "format"}
    if len(tokens) - 1 != 2 * (team_k + 1):
        return {"reason": "cell_count"}
    return None


def where_path_goes_wrong(cells, grid, mouse, cheese, distance):
    """For a path of the wrong length: its first illegal step ({step, cell, from, step_reason}), or,
    when every step is legal, the first cell the path reaches later than the wave (a detour), or {}."""
    fault = step_fault(cells, grid, mouse, cheese)
    if fault is not None:
        return {key: value for key, value in fault.items() if key != "reason"} | {"step_reason": fault["reason"]}
    for index, (row, col) in enumerate(cells):
        if distance[row - 1][col - 1] != index:
            return {"step": index, "cell": [row, col], "step_reason": "detour"}
    return {}


def build_feedback(input_text, judge_text, team_output, accepted):
    """The picture's data (a JSON-ready dict): the maze (rows of '0'/'1', 1 a wall), mouse and
    cheese, the team's k and path as read (at most rows*cols+1 cells), one shortest path, the BFS
    distance layers from the mouse, and the first fault (None when accepted). Cells 1-based [row, col]."""
    grid, mouse, cheese = read_maze(input_text)
    judge_k = int(judge_text.split()[0])
    tokens = plain_text(team_output).split()
    team_k = integer_token(tokens[0]) if tokens else None
    cells, truncated = read_path(tokens, len(grid) * len(grid[0]) + 1)
    distance, parent = wave(grid, mouse)
    shortest = None
    if cheese in parent:
        shortest = [cheese]
        while parent[shortest[-1]] is not None:
            shortest.append(parent[shortest[-1]])
        shortest.reverse()
    fault = None
    if not accepted:
        fault = count_fault(tokens, team_k, judge_k) or (step_fault(cells, grid, mouse, cheese) if cells else None)
        if fault is not None and fault["reason"] in ("too_long", "too_short", "cell_count", "unreachable") and cells:
            fault.update(where_path_goes_wrong(cells, grid, mouse, cheese, distance))
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "grid": ["".join(str(cell) for cell in row) for row in grid],
        "start": list(mouse),
        "goal": list(cheese),
        "claimed_moves": team_k,
        "shortest_moves": judge_k,
        "path": [list(cell) for cell in cells],
        "path_truncated": truncated,
        "shortest": None if shortest is None else [list(cell) for cell in shortest],
        "distance": distance,
        "fault": fault,
    }


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()`, compact, if it fits FEEDBACK_LIMIT_BYTES.

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        text = json.dumps(build(), separators=(",", ":"))
        if len(text) <= FEEDBACK_LIMIT_BYTES:
            with open(os.path.join(feedback_dir, "feedback.json"), "w", encoding="ascii") as handle:
                handle.write(text)
    except Exception as error:  # the picture is optional; the verdict is not
        print(f"feedback.json not written: {type(error).__name__}: {error}", file=sys.stderr)


def main():
    """Run the Kattis interface: read the files and stdin, write judgemessage.txt, exit 42/43."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(input_path, "rb") as input_file:
        input_text = plain_text(input_file.read()).decode("ascii")
    with open(answer_path, "rb") as answer_file:
        judge_text = plain_text(answer_file.read()).decode("ascii")
    team_output = sys.stdin.buffer.read()
    try:
        check(input_text, judge_text, team_output)
        verdict, message = ACCEPTED, "accepted: a shortest path"
    except WrongAnswer as error:
        verdict, message = WRONG_ANSWER, str(error)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w", encoding="utf-8") as feedback:
        feedback.write(message + "\n")
    write_feedback(feedback_dir, lambda: build_feedback(input_text, judge_text, team_output, verdict == ACCEPTED))
    sys.exit(verdict)


if __name__ == "__main__":
    main()
