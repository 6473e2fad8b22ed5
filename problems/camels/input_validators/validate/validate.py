"""Input validator for `camels` (Kattis problem package format).

Usage: validate.py < test.in
Exit 42 if the input is exactly one line `N T\\n` with T in {1, 2}, 1 <= N <= 8 for T = 1 and
1 <= N <= 6 for T = 2, written without signs or leading zeros and separated by one space;
otherwise exit 43 with a one-line reason on stderr.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_CAMELS = {1: 8, 2: 6}
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
    if len(tokens) != 2 or not all(NUMBER.fullmatch(token) for token in tokens):
        fail(f"the line must be two positive integers N T separated by one space, got {line[:40]!r}")
    n, task = (int(token) for token in tokens)
    if task not in MAX_CAMELS:
        fail(f"T = {task} is not 1 or 2")
    if n > MAX_CAMELS[task]:
        fail(f"N = {n} is outside [1, {MAX_CAMELS[task]}] for task {task}")


if __name__ == "__main__":
    validate(sys.stdin.buffer.read())
    sys.exit(VALID)
