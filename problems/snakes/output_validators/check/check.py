"""Output validator (checker) for `snakes` (Kattis output validator interface).

Usage: check.py input judge_answer feedback_dir < team_output
Exit 42 (AC) if the team output is exactly one integer token equal to the judge answer (the least
number of throws, or -1); otherwise exit 43 (WA) with a one-line reason in
feedback_dir/judgemessage.txt. Whitespace around the token (spaces, tabs, `\\r\\n`) is ignored.
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


ACCEPTED, WRONG_ANSWER = 42, 43


def shown(token):
    """Return a short printable form of a team token (bytes) for a message."""
    return repr(token[:30].decode("ascii", "replace"))


def check(judge_text, team_output):
    """Return None if `team_output` (bytes) is accepted, else the reason (a one-line str).

    judge_text: the judge answer file's text (one integer).
    """
    expected = int(judge_text.split()[0])
    tokens = plain_text(team_output).split()
    if not tokens:
        return "empty output, expected %d" % expected
    answer = integer_token(tokens[0])
    if answer is None:
        return "first token %s is not an integer" % shown(tokens[0])
    if answer != expected:
        return "wrong number of throws: %d, expected %d" % (answer, expected)
    if len(tokens) > 1:
        return "extra output after the answer: %s" % shown(tokens[1])
    return None


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    _input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(answer_path, "rb") as handle:
        judge_text = plain_text(handle.read()).decode("ascii")
    reason = check(judge_text, sys.stdin.buffer.read())
    if reason is None:
        sys.exit(ACCEPTED)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as handle:
        handle.write(reason + "\n")
    sys.exit(WRONG_ANSWER)


if __name__ == "__main__":
    main()
