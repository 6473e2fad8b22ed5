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


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "basic", 1
POSITIONS_LIMIT = 64  # positions kept from the team output (a shortest sequence has at most 22)


def board_wave(start):
    """Breadth-first search from `start` over legal moves (360 positions at most): the parent map."""
    parent, frontier = {start: None}, [start]
    while frontier:
        following = []
        for position in frontier:
            empty = position.index("*")
            for other in range(len(GOAL)):
                board = list(position)
                board[empty], board[other] = board[other], board[empty]
                after = "".join(board)
                if after not in parent and one_move_apart(position, after):
                    parent[after] = position
                    following.append(after)
        frontier = following
    return parent


def sequence_fault(start, moves, expected, positions):
    """The first fault of a team output in the order `check` finds it: {reason, step?} with reason
    format, unreachable, reachable, wrong_count, too_few_positions, extra_output, not_permutation,
    wrong_start, illegal_move or wrong_end; `step` is the 0-based index of the position at fault."""
    if moves is None:
        return {"reason": "format"}
    if expected == -1 or moves == -1:
        if moves == expected:
            return {"reason": "extra_output"}
        return {"reason": "unreachable" if expected == -1 else "reachable"}
    if moves != expected:
        return {"reason": "wrong_count"}
    if len(positions) != moves + 1:
        return {"reason": "too_few_positions" if len(positions) < moves + 1 else "extra_output"}
    for index, position in enumerate(positions):
        if sorted(position) != sorted(GOAL):
            return {"reason": "not_permutation", "step": index}
    if positions[0] != start:
        return {"reason": "wrong_start", "step": 0}
    for index in range(1, len(positions)):
        if not one_move_apart(positions[index - 1], positions[index]):
            return {"reason": "illegal_move", "step": index}
    return {"reason": "wrong_end", "step": len(positions) - 1} if positions[-1] != GOAL else None


def build_feedback(start, judge_text, team_output, accepted):
    """The picture's data (a JSON-ready dict): the start position, the team's k and positions as read
    (at most POSITIONS_LIMIT, each cut to 12 characters), one shortest sequence (None if `GOAL`
    cannot be reached), the judge's k and the first fault (None when accepted)."""
    expected = int(judge_text.split()[0])
    tokens = [token.decode("ascii", "replace") for token in plain_text(team_output).split()]
    moves = integer_token(tokens[0]) if tokens else None
    parent = board_wave(start)
    shortest = None
    if GOAL in parent:
        shortest = [GOAL]
        while parent[shortest[-1]] is not None:
            shortest.append(parent[shortest[-1]])
        shortest.reverse()
    fault = None if accepted else sequence_fault(start, moves, expected, tokens[1:])
    if fault is not None and fault["reason"] == "wrong_count" and len(tokens) > 1:
        # the count is wrong; where does the sequence as printed go wrong?
        inner = sequence_fault(start, len(tokens) - 2, len(tokens) - 2, tokens[1:]) or {}
        if "step" in inner:
            fault.update(step=inner["step"], step_reason=inner["reason"])
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "start": start,
        "claimed_moves": moves,
        "shortest_moves": expected,
        "positions": [position[:12] for position in tokens[1 : 1 + POSITIONS_LIMIT]],
        "positions_truncated": len(tokens) - 1 > POSITIONS_LIMIT,
        "shortest": shortest,
        "fault": fault,
    }


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()` (compact JSON, a few KB at most).

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        (feedback_dir / "feedback.json").write_text(json.dumps(build(), separators=(",", ":")), encoding="ascii")
    except Exception as error:  # the picture is optional; the verdict is not
        print(f"feedback.json not written: {type(error).__name__}: {error}", file=sys.stderr)


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    input_path, answer_path, feedback_dir = map(pathlib.Path, sys.argv[1:4])
    input_text, judge_text = (plain_text(path.read_bytes()).decode("ascii") for path in (input_path, answer_path))
    start, team_output = input_text.strip(), sys.stdin.buffer.read()
    reason = check(start, judge_text, team_output)
    if reason is not None:
        (feedback_dir / "judgemessage.txt").write_text(reason + "\n")
    write_feedback(feedback_dir, lambda: build_feedback(start, judge_text, team_output, reason is None))
    sys.exit(WRONG_ANSWER if reason else ACCEPTED)


if __name__ == "__main__":
    main()
