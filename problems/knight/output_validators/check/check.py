"""Output validator (checker) for `knight`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`.

The team output is read as whitespace-separated tokens (any spacing, `\\r\\n`, a missing
final newline are fine). When the judge answer is `-1` (no tour), the output must be `-1` alone.
Otherwise it must be N*N integers, row by row, forming a tour: every number 1 ... N*N exactly once,
1 on the start square, and the squares of k and k + 1 a knight's move apart. Nothing may follow.
The checker does not search for tours: the judge answer says whether one exists.
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
# A valid answer is under 1 KB; anything beyond the judge's 8 MiB output limit is not read.
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


def tour_fault(n, start, numbers):
    """The first fault of `numbers` (N*N ints, row by row) as a tour from `start` ((row, col),
    1-based), or None. Returns (reason, square, message): reason out_of_range, repeated, wrong_start
    or not_a_knight_move; square the 1-based (row, col) where it shows."""
    size = n * n
    square_of = {}
    for index, number in enumerate(numbers):
        square = (index // n + 1, index % n + 1)
        if not 1 <= number <= size:
            return "out_of_range", square, f"square {square} holds {number}, outside 1 ... {size}"
        if number in square_of:
            return "repeated", square, f"squares {square_of[number]} and {square} both hold {number}"
        square_of[number] = square
    if square_of[1] != start:
        return "wrong_start", square_of[1], f"the tour starts at {square_of[1]}, not at the given square {start}"
    for number in range(1, size):
        (row, col), (next_row, next_col) = square_of[number], square_of[number + 1]
        if sorted((abs(row - next_row), abs(col - next_col))) != [1, 2]:
            return (
                "not_a_knight_move",
                (next_row, next_col),
                f"move {number} from {(row, col)} to {(next_row, next_col)} is not a knight's move",
            )
    return None


def judge(input_text, answer_text, team_data):
    """Return the acceptance message for one test: input and judge answer as text, team output as bytes.

    Raises WrongAnswer with the reason when the team output is wrong.
    """
    n, row, col = (int(token) for token in input_text.split())
    has_tour = answer_text.split()[0] != "-1"
    tokens = read_tokens(team_data)
    if not tokens:
        raise WrongAnswer("empty output: expected a tour or -1")
    if tokens[0] == "-1":
        if has_tour:
            raise WrongAnswer(f"printed -1, but a tour from ({row}, {col}) exists")
        if len(tokens) > 1:
            raise WrongAnswer(f"extra output after -1: {shown(tokens[1])}")
        return "no tour, as expected"
    if not has_tour:
        raise WrongAnswer(f"there is no tour from ({row}, {col}), but the output is not -1")
    numbers = [to_integer(token, f"token {index}") for index, token in enumerate(tokens[: n * n + 1], start=1)]
    if len(tokens) != n * n:
        raise WrongAnswer(f"expected {n * n} numbers ({n} rows of {n}), got {len(tokens)}")
    fault = tour_fault(n, (row, col), numbers)
    if fault is not None:
        raise WrongAnswer(fault[2])
    return "a knight's tour"


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "knight", 1


def read_board(tokens, n):
    """The team's numbers as rows of N (integers up to the first other token, at most N*N)."""
    numbers = []
    for token in tokens[: n * n]:
        if integer_token(token) is None or len(token) > 6:
            break
        numbers.append(int(token))
    return [numbers[row * n : row * n + n] for row in range((len(numbers) + n - 1) // n)]


def layout_fault(tokens, n, has_tour):
    """The first fault before the tour itself, in the order `judge` finds it, or None:
    {reason} with reason empty, claims_none, extra_output, claims_tour, format or count."""
    if not tokens:
        return {"reason": "empty"}
    if tokens[0] == "-1":
        return {"reason": "claims_none" if has_tour else "extra_output"}
    if not has_tour:
        return {"reason": "claims_tour"}
    if any(integer_token(token) is None for token in tokens[: n * n + 1]):
        return {"reason": "format"}
    return {"reason": "count"} if len(tokens) != n * n else None


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): N, the start [row, col], the team's board as read
    (rows of integers, at most N*N numbers), the judge's board (None when there is no tour), and the
    first fault (None when accepted): {reason, square?} with reason empty, claims_none,
    extra_output, claims_tour, format, count, out_of_range, repeated, wrong_start or
    not_a_knight_move, square 1-based [row, col]."""
    n, row, col = (int(token) for token in input_text.split())
    answer = answer_text.split()
    has_tour = answer[0] != "-1"
    tokens = plain_text(team_data).decode("ascii", "replace").split()
    board = read_board(tokens, n)
    fault = None
    if not accepted:
        fault = layout_fault(tokens, n, has_tour)
        numbers = [number for line in board for number in line]
        if fault is None and len(numbers) != n * n:
            fault = {"reason": "format"}
        if fault is None:
            found = tour_fault(n, (row, col), numbers)
            fault = {"reason": found[0], "square": list(found[1])} if found else {"reason": "format"}
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "size": n,
        "start": [row, col],
        "board": board,
        "example": [[int(v) for v in answer[r * n : r * n + n]] for r in range(n)] if has_tour else None,
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
