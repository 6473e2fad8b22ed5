"""Input validator for `basic` (Kattis interface: `validate.py < test.in`).

Exit 42 if the input is exactly one line holding a permutation of the six characters `BASIC*`
(upper case, no spaces) followed by `\\n`; else exit 43 with a one-line reason on stderr.
"""

import sys

VALID, INVALID = 42, 43
TILES = "BASIC*"


def problem_with(data):
    """Return None if the raw input bytes are valid, else the reason as a one-line str."""
    if not data.endswith(b"\n"):
        return "input is empty or does not end with a newline"
    if data.count(b"\n") != 1:
        return "expected exactly one line, found %d" % data.count(b"\n")
    line = data[:-1]
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        return "the line is not ASCII"
    if len(text) != len(TILES):
        return "the line has %d characters, expected %d: %r" % (len(text), len(TILES), text[:20])
    if sorted(text) != sorted(TILES):
        return "%r is not a permutation of %s" % (text, TILES)
    return None


def main():
    """Validate stdin; exit 42 if valid, else print the reason and exit 43."""
    reason = problem_with(sys.stdin.buffer.read())
    if reason is None:
        sys.exit(VALID)
    sys.stderr.write("invalid input: %s\n" % reason)
    sys.exit(INVALID)


if __name__ == "__main__":
    main()
