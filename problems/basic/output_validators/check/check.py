"""Output validator (checker) for `basic` (Kattis output validator interface).

Usage: check.py input judge_answer feedback_dir < team_output
Exit 42 (AC) or 43 (WA, one-line reason in feedback_dir/judgemessage.txt).

The judge answer carries the optimum K (or -1); the checker does not search. A team output is
accepted when:
- the judge says -1 and the team output is the single token `-1`; or
- the team's k equals K and is followed by exactly k+1 positions, each a permutation of `BASIC*`,
  the first equal to the input, the last `BASIC*`, and each one legal move from the previous
  (`*` swapped with a side neighbour on the 2x3 board). Such a sequence is a shortest one, since
  no sequence has fewer than K moves.
Tokens are separated by any whitespace (`\\r\\n` included); positions are case-sensitive.
"""

import pathlib
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
GOAL = "BASIC*"
COLS = 3


def one_move_apart(before, after):
    """Return True if `after` is `before` with `*` swapped with a side-neighbouring tile.

    Both are permutations of GOAL (6 characters, the 2x3 board row by row).
    """
    empty, moved = before.index("*"), after.index("*")
    row_step = abs(empty - moved) == COLS
    col_step = abs(empty - moved) == 1 and empty // COLS == moved // COLS
    if not (row_step or col_step):
        return False
    board = list(before)
    board[empty], board[moved] = board[moved], board[empty]
    return "".join(board) == after


def check(start, judge_text, team_output):
    """Return None if `team_output` (bytes) is accepted, else the reason (a one-line str).

    start: the input position; judge_text: the judge answer's text (its first token is K).
    """
    expected = int(judge_text.split()[0])
    tokens = [token.decode("ascii", "replace") for token in plain_text(team_output).split()]
    if not tokens:
        return "empty output"
    moves = integer_token(tokens[0])
    if moves is None:
        return "first token %r is not an integer" % tokens[0][:30]
    if expected == -1:
        if moves != -1:
            return "answered %d moves, but %s cannot reach %s" % (moves, start, GOAL)
        if len(tokens) > 1:
            return "extra output after -1: %r" % tokens[1][:30]
        return None
    if moves == -1:
        return "answered -1, but %s reaches %s in %d moves" % (start, GOAL, expected)
    if moves != expected:
        return "wrong k: %d moves, the least is %d" % (moves, expected)
    positions = tokens[1:]
    if len(positions) < moves + 1:
        return "expected %d positions after k, found %d" % (moves + 1, len(positions))
    if len(positions) > moves + 1:
        return "extra output after %d positions: %r" % (moves + 1, positions[moves + 1][:30])
    for number, position in enumerate(positions, start=1):
        if sorted(position) != sorted(GOAL):
            return "position %d %r is not a permutation of %s" % (number, position[:30], GOAL)
    if positions[0] != start:
        return "the first position %s is not the input %s" % (positions[0], start)
    for number in range(1, len(positions)):
        if not one_move_apart(positions[number - 1], positions[number]):
            return "illegal move %d: %s -> %s" % (number, positions[number - 1], positions[number])
    if positions[-1] != GOAL:
        return "the last position %s is not %s" % (positions[-1], GOAL)
    return None


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    input_path, answer_path, feedback_dir = map(pathlib.Path, sys.argv[1:4])
    input_text, judge_text = (plain_text(path.read_bytes()).decode("ascii") for path in (input_path, answer_path))
    reason = check(input_text.strip(), judge_text, sys.stdin.buffer.read())
    if reason is not None:
        (feedback_dir / "judgemessage.txt").write_text(reason + "\n")
    sys.exit(WRONG_ANSWER if reason else ACCEPTED)


if __name__ == "__main__":
    main()
