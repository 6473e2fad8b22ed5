"""Input validator for `knight` (Kattis problem package format).

Usage: validate.py < test.in
Exit 42 if the input is exactly one line `N r c\\n` with 1 <= N <= 16 and 1 <= r, c <= N, written
without signs or leading zeros and separated by single spaces; otherwise exit 43 with a one-line
reason on stderr.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_SIZE = 16
NUMBER = re.compile(rb"[1-9][0-9]?")


def fail(reason):
    """Print the one-line `reason` on stderr and exit 43 (invalid input)."""
    print(reason, file=sys.stderr)
    sys.exit(INVALID)


def validate(data):
    """Exit 43 through fail() if `data` (the input as bytes) breaks the format; return if it is valid."""
    line, newline, rest = data.partition(b"\n")
    if not newline or rest:
        fail("the input must be exactly one line ending in a newline")
    tokens = line.split(b" ")
    if len(tokens) != 3 or not all(NUMBER.fullmatch(token) for token in tokens):
        fail(f"the line must be three positive integers N r c separated by single spaces, got {line[:40]!r}")
    n, row, col = (int(token) for token in tokens)
    if n > MAX_SIZE:
        fail(f"N = {n} is outside [1, {MAX_SIZE}]")
    if row > n or col > n:
        fail(f"the start ({row}, {col}) is outside the {n}x{n} board")


if __name__ == "__main__":
    validate(sys.stdin.buffer.read())
    sys.exit(VALID)
