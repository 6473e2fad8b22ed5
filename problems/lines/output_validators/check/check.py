"""Output validator (checker) for `lines`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`. Exit 1 is a judge error: the
team proved the judge answer wrong (a path where the judge says none, or a shorter one).

The team output is read line by line: trailing whitespace on a line, `\\r\\n` endings and
blank lines at the very end are ignored. Accepted: `N` alone when the judge answer is `N`;
otherwise `Y` then the N board lines, where the `+` cells are exactly one path of
side-adjacent cells from a neighbour of `@` to `X` (X included, @ unchanged) with as many
moves as the judge answer's path, and every other cell is unchanged. The checker does not
re-solve: the judge answer gives the optimal number of moves (its count of `+`).
"""

import os
import re
import sys
from collections import deque
from typing import NamedTuple

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


ACCEPTED = 42
WRONG_ANSWER = 43
JUDGE_ERROR = 1
# A valid answer is under 2 KB; anything beyond the judge's 8 MiB output limit is not read.
MAX_READ_BYTES = 8 * 1024 * 1024 + 1
PATH_MARK = "+"
FREE_CELLS = ".X"
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class WrongAnswer(Exception):
    """The team output breaks the contract; the exception text is the one-line reason."""


class Verdict(NamedTuple):
    """The checker's decision: `code` is the exit code (42, 43 or 1), `message` the one-line reason."""

    code: int
    message: str


def shown(text, limit=30):
    """Return `text` quoted and cut to `limit` characters for a message."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def at(cell):
    """Return '(row r, column c)', 1-based, for a 0-based (row, column) cell."""
    return f"(row {cell[0] + 1}, column {cell[1] + 1})"


def moves_text(count):
    """Return '1 move' or 'k moves'."""
    return f"{count} move" if count == 1 else f"{count} moves"


def read_output_lines(data):
    """Return the team output (bytes) as a list of lines without trailing whitespace.

    Blank lines at the end are dropped. Raises WrongAnswer on non-ASCII bytes.
    """
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise WrongAnswer("the output contains bytes that are not ASCII") from None
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def read_board(input_text):
    """Return the board (list of N strings) of a valid input text."""
    lines = input_text.split()
    return lines[1 : 1 + int(lines[0])]


def find_cell(board, mark):
    """Return (row, column), 0-based, of `mark` on the board."""
    for row, line in enumerate(board):
        if mark in line:
            return row, line.index(mark)
    raise ValueError(f"no {mark!r} on the board")


def path_cells(board, team_board):
    """Return the set of cells the team marked `+`, after checking every other cell is unchanged.

    Raises WrongAnswer on a changed cell, a `+` on a ball or on `@`, an unmarked X.
    """
    marked = set()
    for row, (line, team_line) in enumerate(zip(board, team_board)):
        for column, (cell, team_cell) in enumerate(zip(line, team_line)):
            where = at((row, column))
            if team_cell == PATH_MARK and cell in FREE_CELLS:
                marked.add((row, column))
            elif team_cell == PATH_MARK and cell == "O":
                raise WrongAnswer(f"the path goes through a ball O at {where}")
            elif team_cell == PATH_MARK and cell == "@":
                raise WrongAnswer(f"the ball @ at {where} is marked +: @ must stay as it is")
            elif team_cell != cell:
                raise WrongAnswer(f"the cell at {where} changed from {cell!r} to {team_cell!r}")
            elif cell == "X":
                raise WrongAnswer(f"X at {where} is not marked +: the path must end on it")
    return marked


def moves_within(marked, start, target):
    """Return the fewest moves from `start` to `target` stepping only on `marked` cells, or None.

    Breadth-first search (Moore 1959) over side-adjacent cells.
    """
    distance = {start: 0}
    queue = deque([start])
    while queue:
        row, column = queue.popleft()
        for d_row, d_column in STEPS:
            cell = (row + d_row, column + d_column)
            if cell in marked and cell not in distance:
                distance[cell] = distance[(row, column)] + 1
                queue.append(cell)
    return distance.get(target)


def judge_path_length(answer_text):
    """Return the judge answer's number of moves (its count of `+`), or None for `N`."""
    lines = answer_text.split()
    if lines[0] == "N":
        return None
    return sum(line.count(PATH_MARK) for line in lines[1:])


def check_board(board, team_board, optimum):
    """Check a team board (list of N stripped lines) against the input board and the optimum.

    `optimum` is the judge's number of moves, or None if the judge says X is unreachable.
    Returns the Verdict: accepted, or judge error when the team's valid path beats the judge
    answer. Raises WrongAnswer with the reason otherwise.
    """
    size = len(board)
    if len(team_board) < size:
        raise WrongAnswer(f"expected {size} board lines after Y, got {len(team_board)}")
    if len(team_board) > size:
        raise WrongAnswer(f"extra output after the board: line {size + 2} is {shown(team_board[size])}")
    for number, line in enumerate(team_board, start=2):
        if len(line) != size:
            raise WrongAnswer(f"line {number} has {len(line)} characters, expected {size}: {shown(line)}")
    marked = path_cells(board, team_board)
    start, target = find_cell(board, "@"), find_cell(board, "X")
    moves = moves_within(marked, start, target)
    if moves is None:
        if optimum is None:
            raise WrongAnswer("answered Y, but X cannot be reached: the + cells do not connect @ to X")
        raise WrongAnswer("the + cells do not form a connected path from a neighbour of @ to X")
    if optimum is None or moves < optimum:
        judged = "no path" if optimum is None else moves_text(optimum)
        return Verdict(JUDGE_ERROR, f"the team's valid path of {moves_text(moves)} beats the judge answer ({judged})")
    if moves > optimum:
        raise WrongAnswer(f"the path takes {moves_text(moves)}, a shortest path takes {optimum}")
    if len(marked) > moves:
        raise WrongAnswer(
            f"{len(marked)} cells are marked +, but a shortest path of {moves_text(moves)} marks {moves}: "
            "the route is not minimal or has + cells off it"
        )
    return Verdict(ACCEPTED, f"a shortest path of {moves_text(moves)}")


def judge(input_text, answer_text, team_data):
    """Return the Verdict for one test: input and judge answer as text, team output as bytes."""
    board = read_board(input_text)
    optimum = judge_path_length(answer_text)
    try:
        lines = read_output_lines(team_data)
        if not lines:
            raise WrongAnswer("empty output: expected Y or N on line 1")
        if lines[0] not in ("Y", "N"):
            raise WrongAnswer(f"line 1 must be Y or N, got {shown(lines[0])}")
        if lines[0] == "N":
            if len(lines) > 1:
                raise WrongAnswer(f"extra output after N: line 2 is {shown(lines[1])}")
            if optimum is not None:
                raise WrongAnswer(f"answered N, but X can be reached in {moves_text(optimum)}")
            return Verdict(ACCEPTED, "no path, correctly")
        return check_board(board, lines[1:], optimum)
    except WrongAnswer as reason:
        return Verdict(WRONG_ANSWER, str(reason))


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "lines", 1
FEEDBACK_LIMIT_BYTES = 200 * 1024  # the judge ignores feedback over 256 KiB; this stays under it


def wave(board, start, passable):
    """Breadth-first layers from `start` over side-adjacent cells for which `passable(cell)` holds.

    Returns (distance, parent): dicts over the reached 0-based cells (distance 0 at `start`).
    """
    distance, parent, queue = {start: 0}, {start: None}, deque([start])
    while queue:
        row, column = queue.popleft()
        for d_row, d_column in STEPS:
            cell = (row + d_row, column + d_column)
            if cell not in distance and passable(cell):
                distance[cell], parent[cell] = distance[(row, column)] + 1, (row, column)
                queue.append(cell)
    return distance, parent


def marked_fault(board, team_board):
    """The first fault of the team board's cells, in the order `path_cells` finds it: {reason: ball,
    start_marked, changed or end_unmarked, cell: 0-based}, or None."""
    for row, (line, team_line) in enumerate(zip(board, team_board)):
        for column, (cell, team_cell) in enumerate(zip(line, team_line)):
            if team_cell == PATH_MARK and cell in FREE_CELLS:
                continue
            reason = None
            if team_cell == PATH_MARK:
                reason = "ball" if cell == "O" else "start_marked"
            elif team_cell != cell:
                reason = "changed"
            elif cell == "X":
                reason = "end_unmarked"
            if reason:
                return {"reason": reason, "cell": (row, column)}
    return None


def lines_fault(board, lines, optimum, marked, start, target):
    """The first fault of a team output (its stripped lines) in the order `judge` finds it, as a dict
    with `reason` (format, reachable, unreachable, extra_output, ball, start_marked, changed,
    end_unmarked, disconnected, too_long, extra_cells) and, where one cell is at fault, `cell`."""
    size = len(board)
    if not lines or lines[0] not in ("Y", "N"):
        return {"reason": "format"}
    if lines[0] == "N":
        return {"reason": "extra_output" if len(lines) > 1 else "reachable"}
    if len(lines) - 1 != size:
        return {"reason": "format" if len(lines) - 1 < size else "extra_output"}
    if any(len(line) != size for line in lines[1:]):
        return {"reason": "format"}
    fault = marked_fault(board, lines[1:])
    if fault is not None:
        return fault
    inside, _ = wave(board, start, lambda cell: cell in marked)
    if target not in inside:
        return {"reason": "unreachable" if optimum is None else "disconnected"}
    if inside[target] > optimum:
        return {"reason": "too_long"}
    return {"reason": "extra_cells"}


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): the board as rows of '0'/'1' (1 a ball), @ and X, the
    team's first line and its + cells (ordered along the path from @ where they connect), one
    shortest path, the BFS distance layers from @ (-1: a ball or out of reach) and the first fault
    (None when accepted). Cells are 1-based [row, column]."""
    board = read_board(input_text)
    optimum = judge_path_length(answer_text)
    start, target = find_cell(board, "@"), find_cell(board, "X")
    size = len(board)
    try:
        lines = read_output_lines(team_data)
    except WrongAnswer:
        lines = []
    team_board = [line[:size] for line in lines[1 : 1 + size]]
    marked = {(r, c) for r, line in enumerate(team_board) for c, ch in enumerate(line) if ch == PATH_MARK}
    free = {(r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch != "O"}
    distance, parent = wave(board, start, lambda cell: cell in free)
    along, _ = wave(board, start, lambda cell: cell in marked)
    path = sorted(marked, key=lambda cell: (along.get(cell, size * size), cell))
    shortest = None
    if target in parent:
        shortest = [target]
        while parent[shortest[-1]] != start:
            shortest.append(parent[shortest[-1]])
        shortest.reverse()
    fault = None if accepted else lines_fault(board, lines, optimum, marked, start, target)
    if fault is not None and fault["reason"] == "too_long":
        behind = [cell for cell in path if cell in along and along[cell] != distance.get(cell)]
        fault["cell"] = behind[0] if behind else None
    if fault is not None and fault.get("cell") is not None:
        fault["cell"] = [fault["cell"][0] + 1, fault["cell"][1] + 1]
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "grid": ["".join("1" if ch == "O" else "0" for ch in line) for line in board],
        "start": [start[0] + 1, start[1] + 1],
        "goal": [target[0] + 1, target[1] + 1],
        "claimed": lines[0][:1] if lines and lines[0] in ("Y", "N") else None,
        "shortest_moves": -1 if optimum is None else optimum,
        "path": [[r + 1, c + 1] for r, c in path],
        "shortest": None if shortest is None else [[r + 1, c + 1] for r, c in shortest],
        "distance": [[distance.get((r, c), -1) for c in range(size)] for r in range(size)],
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
    """Run the checker on the command-line files and stdin; exit with the verdict's code."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(input_path, "rb") as input_file, open(answer_path, "rb") as answer_file:
        input_text, answer_text = (plain_text(file.read()).decode("ascii") for file in (input_file, answer_file))
    team_data = plain_text(sys.stdin.buffer.read(MAX_READ_BYTES))
    verdict = judge(input_text, answer_text, team_data)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as message_file:
        message_file.write(verdict.message + "\n")
    write_feedback(feedback_dir, lambda: build_feedback(input_text, answer_text, team_data, verdict.code == ACCEPTED))
    if verdict.code == JUDGE_ERROR:
        print(verdict.message, file=sys.stderr)
    sys.exit(verdict.code)


if __name__ == "__main__":
    main()
