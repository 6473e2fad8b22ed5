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


def main():
    """Run the Kattis interface: read the files and stdin, write judgemessage.txt, exit 42/43."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(input_path, "rb") as input_file:
        input_text = plain_text(input_file.read()).decode("ascii")
    with open(answer_path, "rb") as answer_file:
        judge_text = plain_text(answer_file.read()).decode("ascii")
    try:
        check(input_text, judge_text, sys.stdin.buffer.read())
        verdict, message = ACCEPTED, "accepted: a shortest path"
    except WrongAnswer as error:
        verdict, message = WRONG_ANSWER, str(error)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w", encoding="utf-8") as feedback:
        feedback.write(message + "\n")
    sys.exit(verdict)


if __name__ == "__main__":
    main()
