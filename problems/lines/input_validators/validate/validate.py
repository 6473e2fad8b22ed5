"""Input validator for `lines` (Kattis interface): `validate.py < test.in`.

Exit 42 if the input is exactly: `N` (2 <= N <= 40, no sign or leading zero) then N lines
of exactly N characters from `.O@X`, with exactly one `@` and one `X`, every line ending
in `\\n` and nothing after. Otherwise exit 43 with a one-line reason on stderr.
"""

import re
import sys

VALID = 42
INVALID = 43
MIN_SIZE, MAX_SIZE = 2, 40
CELLS = re.compile(rb"[.O@X]*")
SIZE = re.compile(rb"[1-9][0-9]{0,2}")


def find_error(data):
    """Return the reason `data` (the input as bytes) breaks the format, or None if it is valid."""
    if not data.endswith(b"\n"):
        return "the input does not end with a newline"
    lines = data[:-1].split(b"\n")
    if not SIZE.fullmatch(lines[0]):
        return f"line 1 must be the integer N alone, got {lines[0][:40]!r}"
    size = int(lines[0])
    if not MIN_SIZE <= size <= MAX_SIZE:
        return f"N = {size} is outside [{MIN_SIZE}, {MAX_SIZE}]"
    if len(lines) != size + 1:
        return f"expected {size} board lines after N, got {len(lines) - 1}"
    for number, line in enumerate(lines[1:], start=2):
        if len(line) != size:
            return f"line {number} has {len(line)} characters, expected {size}"
        if not CELLS.fullmatch(line):
            return f"line {number} has a character other than . O @ X: {line[:40]!r}"
    board = b"".join(lines[1:])
    for mark in (b"@", b"X"):
        if board.count(mark) != 1:
            return f"the board has {board.count(mark)} {mark.decode()!r} cells, expected exactly 1"
    return None


def main():
    """Validate stdin; exit 42 (valid) or 43 (invalid, reason on stderr)."""
    error = find_error(sys.stdin.buffer.read())
    if error is not None:
        print(error, file=sys.stderr)
        sys.exit(INVALID)
    sys.exit(VALID)


if __name__ == "__main__":
    main()
