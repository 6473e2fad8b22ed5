"""Input validator for `snakes` (Kattis interface: `validate.py < test.in`).

Exit 42 if the input follows the spec exactly, else exit 43 with a one-line reason on stderr.
Format: line 1 `n t` (2 <= n <= 100000, 0 <= t <= n-2); t lines `a b` (1 <= a <= n-2,
0 <= b <= n-1, a != b); each a at most once; no b is the a of another line. Tokens are
separated by single spaces, every line ends in `\\n`, nothing follows the last line.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_CELLS = 100000
# a non-negative decimal integer without sign or leading zeros (19 digits bound int() work)
NUMBER = re.compile(r"(0|[1-9][0-9]{0,18})\Z")


class InvalidInput(Exception):
    """The input breaks the spec; the message says where and how."""


def numbers_on_line(line, line_number, count):
    """Return the `count` integers of one line, or raise InvalidInput.

    line: the line as a str without its `\\n`; line_number: 1-based, for the message.
    """
    tokens = line.split(" ")
    if len(tokens) != count:
        raise InvalidInput(
            "line %d: expected %d integers separated by single spaces, got %r" % (line_number, count, line[:40])
        )
    for token in tokens:
        if not NUMBER.match(token):
            raise InvalidInput(
                "line %d: %r is not a plain non-negative integer (no sign or leading zero)" % (line_number, token[:20])
            )
    return [int(token) for token in tokens]


def check_range(name, value, low, high, line_number):
    """Raise InvalidInput unless low <= value <= high."""
    if not low <= value <= high:
        raise InvalidInput("line %d: %s = %d is outside %d..%d" % (line_number, name, value, low, high))


def validate(data):
    """Validate the raw input bytes; return None if valid, else raise InvalidInput."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise InvalidInput("input is not ASCII") from None
    if not text.endswith("\n"):
        raise InvalidInput("input is empty or does not end with a newline")
    lines = text[:-1].split("\n")
    n, count = numbers_on_line(lines[0], 1, 2)
    check_range("n", n, 2, MAX_CELLS, 1)
    check_range("t", count, 0, n - 2, 1)
    if len(lines) != count + 1:
        raise InvalidInput("expected %d transition lines after line 1, found %d" % (count, len(lines) - 1))
    starts, ends = {}, []
    for line_number, line in enumerate(lines[1:], start=2):
        start, end = numbers_on_line(line, line_number, 2)
        check_range("a", start, 1, n - 2, line_number)
        check_range("b", end, 0, n - 1, line_number)
        if start == end:
            raise InvalidInput("line %d: a = b = %d" % (line_number, start))
        if start in starts:
            raise InvalidInput(
                "line %d: a = %d already starts a transition on line %d" % (line_number, start, starts[start])
            )
        starts[start] = line_number
        ends.append((end, line_number))
    for end, line_number in ends:
        if end in starts:
            raise InvalidInput(
                "line %d: b = %d is the a of line %d (no chained transitions)" % (line_number, end, starts[end])
            )


def main():
    """Validate stdin; exit 42 if valid, else print the reason and exit 43."""
    try:
        validate(sys.stdin.buffer.read())
    except InvalidInput as problem:
        sys.stderr.write("invalid input: %s\n" % problem)
        sys.exit(INVALID)
    sys.exit(VALID)


if __name__ == "__main__":
    main()
