"""Input validator for `lee` (Kattis problem package format).

Usage: validate.py < test.in
Exit 42 if the input follows the contract exactly, else exit 43 with a one-line reason on stderr.

Contract: line 1 `n m` (1 <= n, m <= 100); n lines of m values, each 0 or 1; a line `ls cs`
(mouse) and a line `lb cb` (cheese), 1-based, inside the grid and on free cells. Tokens are
separated by single spaces, every line ends in '\\n', nothing else follows.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_SIDE = 100
# A non-negative decimal integer without leading zeros or sign; at most 3 digits fit the bounds.
NUMBER = re.compile(r"0|[1-9][0-9]{0,2}")


class InputError(Exception):
    """The input breaks the contract; the message says where and how."""


def split_lines(data):
    """Split raw bytes into text lines, checking the encoding and line endings.

    Returns the list of lines without their '\\n'. Raises InputError.
    """
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as error:
        raise InputError(f"non-ASCII byte at offset {error.start}") from None
    if not text.endswith("\n"):
        raise InputError("the input does not end with a newline")
    return text[:-1].split("\n")


def read_numbers(lines, index, count, low, high, what):
    """Parse line `index` (0-based) as exactly `count` integers in [low, high].

    Returns the list of ints. Raises InputError naming the line (1-based) and `what`.
    """
    if index >= len(lines):
        raise InputError(f"line {index + 1} ({what}) is missing")
    tokens = lines[index].split(" ")
    if "" in tokens:
        raise InputError(
            f"line {index + 1} ({what}): empty field (a leading, trailing or doubled space, or an empty line)"
        )
    if len(tokens) != count:
        raise InputError(
            f"line {index + 1} ({what}): expected {count} values separated by single spaces, found {len(tokens)} fields"
        )
    values = []
    for token in tokens:
        if not NUMBER.fullmatch(token):
            raise InputError(f"line {index + 1} ({what}): {token[:20]!r} is not a plain integer")
        value = int(token)
        if not low <= value <= high:
            raise InputError(f"line {index + 1} ({what}): {value} is outside [{low}, {high}]")
        values.append(value)
    return values


def validate(data):
    """Check raw input bytes against the contract. Raises InputError on the first violation."""
    lines = split_lines(data)
    rows, cols = read_numbers(lines, 0, 2, 1, MAX_SIDE, "n m")
    grid = [read_numbers(lines, 1 + r, cols, 0, 1, f"maze row {r + 1}") for r in range(rows)]
    for index, name in ((rows + 1, "mouse"), (rows + 2, "cheese")):
        row, col = read_numbers(lines, index, 2, 1, MAX_SIDE, f"{name} position")
        if row > rows or col > cols:
            raise InputError(f"the {name} ({row}, {col}) is outside the {rows}x{cols} maze")
        if grid[row - 1][col - 1] != 0:
            raise InputError(f"the {name} ({row}, {col}) is on a wall")
    if len(lines) != rows + 3:
        raise InputError(f"{len(lines) - rows - 3} extra line(s) after the cheese position")


def main():
    """Validate stdin; exit 42 when valid, 43 with the reason on stderr when not."""
    try:
        validate(sys.stdin.buffer.read())
    except InputError as error:
        print(error, file=sys.stderr)
        sys.exit(INVALID)
    sys.exit(VALID)


if __name__ == "__main__":
    main()
