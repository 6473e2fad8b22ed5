"""Input validator for `queens` (Kattis interface): `validate.py < test.in`.

Exit 42 if the input is exactly one line `N\\n` with 1 <= N <= 12 written without sign,
spaces or leading zeros; otherwise exit 43 with a one-line reason on stderr.
"""

import re
import sys

VALID = 42
INVALID = 43
MIN_SIZE, MAX_SIZE = 1, 12
INTEGER = re.compile(rb"[1-9][0-9]*")


def fail(reason):
    """Print the one-line `reason` on stderr and exit 43 (invalid input)."""
    print(reason, file=sys.stderr)
    sys.exit(INVALID)


def validate(data):
    """Exit 43 through fail() if `data` (the input as bytes) breaks the format; return if it is valid."""
    line, newline, rest = data.partition(b"\n")
    if not newline or rest:
        fail("the input must be exactly one line ending in a newline")
    if not INTEGER.fullmatch(line) or len(line) > 3:
        fail(f"the line must be the integer N alone, got {line[:40]!r}")
    if not MIN_SIZE <= int(line) <= MAX_SIZE:
        fail(f"N = {int(line)} is outside [{MIN_SIZE}, {MAX_SIZE}]")


if __name__ == "__main__":
    validate(sys.stdin.buffer.read())
    sys.exit(VALID)
