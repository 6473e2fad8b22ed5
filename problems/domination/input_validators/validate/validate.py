"""Input validator for `domination` (Kattis problem package format).

Usage: validate.py < test.in
Exit 42 if the input is exactly one line `R C\\n` with 1 <= R, C <= 10, written without signs or
leading zeros and separated by one space; otherwise exit 43 with a one-line reason on stderr.
"""

import re
import sys

VALID, INVALID = 42, 43
MAX_SIDE = 10
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
        fail(f"the line must be two positive integers R C separated by one space, got {line[:40]!r}")
    for name, token in zip("RC", tokens):
        if int(token) > MAX_SIDE:
            fail(f"{name} = {int(token)} is outside [1, {MAX_SIDE}]")


if __name__ == "__main__":
    validate(sys.stdin.buffer.read())
    sys.exit(VALID)
