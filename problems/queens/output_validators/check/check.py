"""Output validator (checker) for `queens`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`.

The team output is read as whitespace-separated tokens (any spacing, `\\r\\n`, a missing
final newline are fine). Accepted: the count S equal to the judge answer's first token,
and, if S > 0, exactly N more tokens forming a valid placement: the i-th is the column
(1 ... N) of the queen in row i, no two queens share a column or a diagonal. Nothing may
follow. The checker does not count placements itself: the judge answer carries S.
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
# A valid answer is under 40 bytes; anything beyond the judge's 8 MiB output limit is not read.
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


def check_placement(columns, size):
    """Raise WrongAnswer unless `columns` (list of ints, the i-th the column of row i+1) is a valid placement.

    Two queens in rows i, j and columns a, b attack each other when a = b or |a - b| = |i - j|.
    """
    for row, column in enumerate(columns, start=1):
        if not 1 <= column <= size:
            raise WrongAnswer(f"the column of row {row} is {column}, outside 1 ... {size}")
    for row, column in enumerate(columns, start=1):
        for other_row in range(row + 1, size + 1):
            other_column = columns[other_row - 1]
            if column == other_column:
                raise WrongAnswer(f"the queens of rows {row} and {other_row} share column {column}")
            if abs(column - other_column) == other_row - row:
                raise WrongAnswer(
                    f"the queens of rows {row} and {other_row} (columns {column} and {other_column}) share a diagonal"
                )


def judge(input_text, answer_text, team_data):
    """Return the acceptance message for one test: input and judge answer as text, team output as bytes.

    Raises WrongAnswer with the reason when the team output is wrong.
    """
    size = int(input_text.split()[0])
    expected_count = int(answer_text.split()[0])
    tokens = read_tokens(team_data)
    if not tokens:
        raise WrongAnswer("empty output: expected the number of placements")
    count = to_integer(tokens[0], "the number of placements")
    if count != expected_count:
        raise WrongAnswer(f"wrong number of placements: {shown(tokens[0])}, expected {expected_count}")
    wanted = 1 + (size if count > 0 else 0)
    if len(tokens) < wanted:
        raise WrongAnswer(f"expected a placement of {size} columns after the count, got {len(tokens) - 1}")
    if len(tokens) > wanted:
        raise WrongAnswer(f"extra output after the answer: {shown(tokens[wanted])}")
    columns = [to_integer(token, f"the column of row {row}") for row, token in enumerate(tokens[1:], start=1)]
    check_placement(columns, size)
    return f"{count} placements" + (", and a valid one" if count else "")


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "queens", 1
COLUMNS_LIMIT = 64  # columns kept from the team output (a placement has at most 12)


def attacked_pairs(columns):
    """Every pair of queens that attack each other: [row, other_row, "column" or "diagonal"],
    rows 1-based; queens outside the board are left out."""
    size, pairs = len(columns), []
    for row in range(1, size + 1):
        for other_row in range(row + 1, size + 1):
            column, other_column = columns[row - 1], columns[other_row - 1]
            if not (1 <= column <= size and 1 <= other_column <= size):
                continue
            if column == other_column:
                pairs.append([row, other_row, "column"])
            elif abs(column - other_column) == other_row - row:
                pairs.append([row, other_row, "diagonal"])
    return pairs


def one_placement(size, columns=()):
    """The first valid placement in lexicographic order (backtracking, N <= 12), or None."""
    if len(columns) == size:
        return list(columns)
    row = len(columns)
    for column in range(1, size + 1):
        if all(c != column and abs(c - column) != row - r for r, c in enumerate(columns)):
            found = one_placement(size, columns + (column,))
            if found:
                return found
    return None


def placement_fault(size, count, expected_count, tokens, columns):
    """The first fault in the order `judge` finds it: {reason, rows?} with reason format, wrong_count,
    missing, extra_output, out_of_range (rows: [row]) or attack (rows: [row, other_row])."""
    if count is None:
        return {"reason": "format"}
    if count != expected_count:
        return {"reason": "wrong_count"}
    wanted = 1 + (size if count > 0 else 0)
    if len(tokens) != wanted:
        return {"reason": "missing" if len(tokens) < wanted else "extra_output"}
    if len(columns) != size:
        return {"reason": "format"}
    for row, column in enumerate(columns, start=1):
        if not 1 <= column <= size:
            return {"reason": "out_of_range", "rows": [row]}
    pairs = attacked_pairs(columns)
    return {"reason": "attack", "rows": pairs[0][:2], "how": pairs[0][2]} if pairs else None


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): N, the team's count and columns as read (integers up
    to the first other token, at most COLUMNS_LIMIT), the judge's count, every attacked pair, one
    valid placement to compare with, and the first fault (None when accepted)."""
    size = int(input_text.split()[0])
    expected_count = int(answer_text.split()[0])
    tokens = plain_text(team_data).decode("ascii", "replace").split()
    count = integer_token(tokens[0]) if tokens else None
    columns = []
    for token in tokens[1 : 1 + COLUMNS_LIMIT]:
        if integer_token(token) is None or len(token) > 6:
            break
        columns.append(int(token))
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "size": size,
        "claimed_count": count,
        "expected_count": expected_count,
        "columns": columns,
        "attacked": attacked_pairs(columns) if len(columns) == size else [],
        "example": one_placement(size),
        "fault": None if accepted else placement_fault(size, count, expected_count, tokens, columns),
    }


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()` (compact JSON, a few KB at most).

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        with open(os.path.join(feedback_dir, "feedback.json"), "w", encoding="ascii") as handle:
            handle.write(json.dumps(build(), separators=(",", ":")))
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
