"""Output validator (checker) for `snakes` (Kattis output validator interface).

Usage: check.py input judge_answer feedback_dir < team_output
Exit 42 (AC) if the team output is exactly one integer token equal to the judge answer (the least
number of throws, or -1); otherwise exit 43 (WA) with a one-line reason in
feedback_dir/judgemessage.txt. Whitespace around the token (spaces, tabs, `\\r\\n`) is ignored.
"""

import os
import re
import sys

ACCEPTED, WRONG_ANSWER = 42, 43
# an optionally negative decimal integer; 20 digits bound the work on absurd output
INTEGER = re.compile(rb"-?[0-9]{1,20}\Z")


def shown(token):
    """Return a short printable form of a team token (bytes) for a message."""
    return repr(token[:30].decode("ascii", "replace"))


def check(judge_text, team_output):
    """Return None if `team_output` (bytes) is accepted, else the reason (a one-line str).

    judge_text: the judge answer file's text (one integer).
    """
    expected = int(judge_text.split()[0])
    tokens = team_output.split()
    if not tokens:
        return "empty output, expected %d" % expected
    if not INTEGER.match(tokens[0]):
        return "first token %s is not an integer" % shown(tokens[0])
    answer = int(tokens[0])
    if answer != expected:
        return "wrong number of throws: %d, expected %d" % (answer, expected)
    if len(tokens) > 1:
        return "extra output after the answer: %s" % shown(tokens[1])
    return None


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    _input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(answer_path) as handle:
        judge_text = handle.read()
    reason = check(judge_text, sys.stdin.buffer.read())
    if reason is None:
        sys.exit(ACCEPTED)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as handle:
        handle.write(reason + "\n")
    sys.exit(WRONG_ANSWER)


if __name__ == "__main__":
    main()
