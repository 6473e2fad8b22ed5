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


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "snakes", 1
FEEDBACK_LIMIT_BYTES = 200 * 1024  # the judge ignores feedback over 256 KiB; this stays under it
BOARD_LIMIT = 400  # cells: larger boards are described by their numbers only, not drawn
DIE = range(1, 7)


def throws_wave(cells, transitions):
    """Breadth-first search over moves from cell 0: (distance per cell, -1 unreached; parent map
    cell -> (previous cell, throw, landing cell))."""
    distance, parent, frontier = [-1] * cells, {0: None}, [0]
    distance[0] = 0
    while frontier:
        following = []
        for cell in frontier:
            for throw in DIE:
                landing = cell + throw
                if landing > cells - 1:
                    break
                end = transitions.get(landing, landing)
                if distance[end] == -1:
                    distance[end], parent[end] = distance[cell] + 1, (cell, throw, landing)
                    following.append(end)
        frontier = following
    return distance, parent


def build_feedback(input_text, judge_text, team_output, accepted):
    """The picture's data (a JSON-ready dict): the number of cells, the team's count as read and the
    judge's, the first fault (None when accepted; reasons format, too_many, too_few, unreachable,
    reachable, extra_output) and, for boards of at most BOARD_LIMIT cells, the transitions, the
    moves needed to reach each cell (-1: never) and one shortest route, each move a throw
    {from, throw, land, to} (`to` differs from `land` after a snake or a ladder)."""
    values = [int(token) for token in input_text.split()]
    cells, expected = values[0], int(judge_text.split()[0])
    tokens = plain_text(team_output).split()
    claimed = integer_token(tokens[0]) if tokens else None
    fault = None
    if not accepted:
        if claimed is None:
            fault = {"reason": "format"}
        elif claimed == expected:
            fault = {"reason": "extra_output"}
        elif -1 in (claimed, expected):
            fault = {"reason": "unreachable" if expected == -1 else "reachable"}
        else:
            fault = {"reason": "too_many" if claimed > expected else "too_few"}
    data = {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "cells": cells,
        "claimed": claimed,
        "expected": expected,
        "fault": fault,
        "transitions": None,
        "distance": None,
        "route": None,
    }
    if cells > BOARD_LIMIT:
        return data
    transitions = dict(zip(values[2 : 2 + 2 * values[1] : 2], values[3 : 3 + 2 * values[1] : 2]))
    distance, parent = throws_wave(cells, transitions)
    route, cell = [], cells - 1
    while cell in parent and parent[cell] is not None:
        before, throw, landing = parent[cell]
        route.append({"from": before, "throw": throw, "land": landing, "to": cell})
        cell = before
    data.update(
        transitions=sorted([a, b] for a, b in transitions.items()),
        distance=distance,
        route=route[::-1] if distance[cells - 1] != -1 else None,
    )
    return data


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()`, compact, if it fits FEEDBACK_LIMIT_BYTES.

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        text = json.dumps(build(), separators=(",", ":"))
        if len(text) <= FEEDBACK_LIMIT_BYTES:
            with open(os.path.join(feedback_dir, "feedback.json"), "w", encoding="ascii") as handle:
                handle.write(text)
    except Exception as error:  # the picture is optional; the verdict is not
        print(f"feedback.json not written: {type(error).__name__}: {error}", file=sys.stderr)


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(answer_path, "rb") as handle:
        judge_text = plain_text(handle.read()).decode("ascii")
    team_output = sys.stdin.buffer.read()
    reason = check(judge_text, team_output)
    with open(input_path, "rb") as handle:  # the first cells' numbers: enough for a drawn board
        input_text = plain_text(handle.read(FEEDBACK_LIMIT_BYTES)).decode("ascii", "replace")
    write_feedback(feedback_dir, lambda: build_feedback(input_text, judge_text, team_output, reason is None))
    if reason is None:
        sys.exit(ACCEPTED)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as handle:
        handle.write(reason + "\n")
    sys.exit(WRONG_ANSWER)


if __name__ == "__main__":
    main()
