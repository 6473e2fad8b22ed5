"""Input validator for `house` (Kattis problem package format).

Usage: validate.py < test.in
Exit 42 if the input follows the contract exactly, else exit 43 with a one-line reason on stderr.

Contract: line 1 `n m` (1 <= n <= 10, 1 <= m <= 16); m lines `a b`, an edge between vertices
1 <= a, b <= n with a != b, no edge given twice (in either order). Tokens are separated by single
spaces, every line ends in '\\n', nothing else follows.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_VERTICES, MAX_EDGES = 10, 16
# A non-negative decimal integer without leading zeros or sign; two digits fit the bounds.
NUMBER = re.compile(r"0|[1-9][0-9]?")


class InputError(Exception):
    """The input breaks the contract; the message says where and how."""


def read_pair(lines, index, low, high, what):
    """Parse line `index` (0-based) as exactly two integers, the i-th in [low, high[i]]; returns them.

    Raises InputError naming the line (1-based) and `what`.
    """
    if index >= len(lines):
        raise InputError(f"line {index + 1} ({what}) is missing")
    tokens = lines[index].split(" ")
    if len(tokens) != 2 or "" in tokens:
        raise InputError(f"line {index + 1} ({what}): expected two integers separated by one space")
    values = []
    for token, top in zip(tokens, high):
        if not NUMBER.fullmatch(token):
            raise InputError(f"line {index + 1} ({what}): {token[:20]!r} is not a plain integer")
        value = int(token)
        if not low <= value <= top:
            raise InputError(f"line {index + 1} ({what}): {value} is outside [{low}, {top}]")
        values.append(value)
    return values


def validate(data):
    """Check raw input bytes against the contract. Raises InputError on the first violation."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as error:
        raise InputError(f"non-ASCII byte at offset {error.start}") from None
    if not text.endswith("\n"):
        raise InputError("the input does not end with a newline")
    lines = text[:-1].split("\n")
    n, m = read_pair(lines, 0, 1, (MAX_VERTICES, MAX_EDGES), "n m")
    seen = set()
    for number in range(1, m + 1):
        a, b = read_pair(lines, number, 1, (n, n), f"edge {number}")
        if a == b:
            raise InputError(f"line {number + 1}: edge {number} is a loop at vertex {a}")
        if frozenset((a, b)) in seen:
            raise InputError(f"line {number + 1}: edge {number} ({a}, {b}) is given twice")
        seen.add(frozenset((a, b)))
    if len(lines) != m + 1:
        raise InputError(f"{len(lines) - m - 1} extra line(s) after the last edge")


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
