"""Output validator (checker) for `domination`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`.

The team output is read as whitespace-separated tokens (any spacing, `\\r\\n`, a missing
final newline are fine). Accepted: the number of queens k equal to the judge answer's first token
(the minimum), then exactly k squares `r c`, all different and on the R x C board, such that every
square holds a queen or shares a row, a column or a diagonal with one (nothing blocks a queen).
Nothing may follow. The checker does not search for the minimum: the judge answer carries it.
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

ACCEPTED = 42
WRONG_ANSWER = 43
# A valid answer is under 100 bytes; anything beyond the judge's 8 MiB output limit is not read.
MAX_READ_BYTES = 8 * 1024 * 1024 + 1


class WrongAnswer(Exception):
    """The team output breaks the contract; the exception text is the one-line reason."""


def shown(token):
    """Return `token` quoted, cut to 20 characters, for a message."""
    return repr(token[:20] + "..." if len(token) > 20 else token)


def read_tokens(data):
    """Return the whitespace-separated tokens of the team output (bytes). Raises WrongAnswer on non-ASCII bytes."""
    try:
        return plain_text(data).decode("ascii").split()
    except UnicodeDecodeError:
        raise WrongAnswer("the output contains bytes that are not ASCII") from None


def to_integer(token, what):
    """Return `token` as an int; raises WrongAnswer naming `what` if it is not a plain integer."""
    value = integer_token(token)
    if value is None:
        raise WrongAnswer(f"{what} must be an integer, got {shown(token)}")
    return value


def covers(queen, square):
    """True if a queen on `queen` ((row, col)) occupies or attacks `square`."""
    d_row, d_col = queen[0] - square[0], queen[1] - square[1]
    return d_row == 0 or d_col == 0 or abs(d_row) == abs(d_col)


def uncovered_squares(rows, cols, queens):
    """The squares (1-based (row, col), row by row) that no queen of `queens` covers."""
    return [
        (row, col)
        for row in range(1, rows + 1)
        for col in range(1, cols + 1)
        if not any(covers(queen, (row, col)) for queen in queens)
    ]


def placement_fault(rows, cols, queens):
    """The first fault of `queens` (list of (row, col)) or None: (reason, square, message) with
    reason off_board, same_square or uncovered."""
    for number, (row, col) in enumerate(queens, start=1):
        if not (1 <= row <= rows and 1 <= col <= cols):
            return "off_board", (row, col), f"queen {number} at ({row}, {col}) is off the {rows}x{cols} board"
        if (row, col) in queens[: number - 1]:
            return "same_square", (row, col), f"queen {number} stands on ({row}, {col}) like an earlier queen"
    missed = uncovered_squares(rows, cols, queens)
    if missed:
        return (
            "uncovered",
            missed[0],
            f"square {missed[0]} is neither occupied nor attacked ({len(missed)} such squares)",
        )
    return None


def judge(input_text, answer_text, team_data):
    """Return the acceptance message for one test: input and judge answer as text, team output as bytes.

    Raises WrongAnswer with the reason when the team output is wrong.
    """
    rows, cols = (int(token) for token in input_text.split())
    fewest = int(answer_text.split()[0])
    tokens = read_tokens(team_data)
    if not tokens:
        raise WrongAnswer("empty output: expected the number of queens")
    count = to_integer(tokens[0], "the number of queens")
    if count > fewest:
        raise WrongAnswer(f"not the fewest: {count} queens, but {fewest} are enough")
    if count < fewest:
        raise WrongAnswer(f"{count} queens cannot cover the board: at least {fewest} are needed")
    numbers = [to_integer(token, f"token {index}") for index, token in enumerate(tokens[1 : 2 * count + 2], start=2)]
    if len(tokens) != 1 + 2 * count:
        raise WrongAnswer(f"expected {count} squares (two numbers each) after the count, got {len(tokens) - 1} numbers")
    fault = placement_fault(rows, cols, list(zip(numbers[0::2], numbers[1::2])))
    if fault is not None:
        raise WrongAnswer(fault[2])
    return f"{count} queens cover the board"


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "domination", 1
QUEENS_LIMIT = 100  # queens kept from the team output (a minimum placement has at most 5)


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): the board's rows and cols, the team's count and queens
    as read ([row, col] pairs of integers up to the first other token, at most QUEENS_LIMIT), the
    squares those queens leave uncovered (for queens on the board), the judge's count and
    placement, and the first fault (None when accepted): {reason, square?} with reason format,
    too_many, too_few, count, off_board, same_square or uncovered, square 1-based [row, col]."""
    rows, cols = (int(token) for token in input_text.split())
    answer = [int(token) for token in answer_text.split()]
    tokens = plain_text(team_data).decode("ascii", "replace").split()
    count = integer_token(tokens[0]) if tokens else None
    numbers = []
    for token in tokens[1 : 1 + 2 * QUEENS_LIMIT]:
        if integer_token(token) is None or len(token) > 6:
            break
        numbers.append(int(token))
    queens = list(zip(numbers[0::2], numbers[1::2]))
    on_board = [queen for queen in queens if 1 <= queen[0] <= rows and 1 <= queen[1] <= cols]
    fault = None
    if not accepted:
        if count is None:
            fault = {"reason": "format"}
        elif count != answer[0]:
            fault = {"reason": "too_many" if count > answer[0] else "too_few"}
        elif len(tokens) != 1 + 2 * count or len(numbers) != 2 * count:
            fault = {"reason": "count"}
        else:
            found = placement_fault(rows, cols, queens)
            fault = {"reason": found[0], "square": list(found[1])} if found else {"reason": "format"}
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "rows": rows,
        "cols": cols,
        "claimed_count": count,
        "fewest": answer[0],
        "queens": [list(queen) for queen in queens],
        "uncovered": [list(square) for square in uncovered_squares(rows, cols, on_board)],
        "example": [answer[1 + 2 * i : 3 + 2 * i] for i in range(answer[0])],
        "fault": fault,
    }


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()` (compact JSON, a few KB at most).

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        text = json.dumps(build(), separators=(",", ":"))
        with open(os.path.join(feedback_dir, "feedback.json"), "w", encoding="ascii") as handle:
            handle.write(text)
    except Exception as error:  # the picture is optional; the verdict is not
        print(f"feedback.json not written: {type(error).__name__}: {error}", file=sys.stderr)


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(input_path, "rb") as input_file, open(answer_path, "rb") as answer_file:
        input_text, answer_text = (plain_text(file.read()).decode("ascii") for file in (input_file, answer_file))
    team_data = sys.stdin.buffer.read(MAX_READ_BYTES)
    try:
        message, code = judge(input_text, answer_text, team_data), ACCEPTED
    except WrongAnswer as reason:
        message, code = str(reason), WRONG_ANSWER
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as message_file:
        message_file.write(message + "\n")
    write_feedback(feedback_dir, lambda: build_feedback(input_text, answer_text, team_data, code == ACCEPTED))
    sys.exit(code)


if __name__ == "__main__":
    main()
