"""Checker-audit outputs for `queens`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other valid placements with the same
count, found without the reference solver: backtracking (Wirth 1971) that tries the columns from
the right, and the mirror images of the judge's placement (left-right, top-bottom, the transpose).

A placement is a list of N columns (1 ... N), the i-th the column of the queen in row i.
Standard library only.
"""


def output(count, placement):
    """The output text: the count, then the placement on line 2 if there is one."""
    text = f"{count}\n"
    return text + " ".join(map(str, placement)) + "\n" if placement else text


def safe(placement, column):
    """True if a queen in the next row at `column` attacks no queen of `placement`."""
    row = len(placement)
    return all(c != column and abs(c - column) != row - r for r, c in enumerate(placement))


def from_the_right(n, placement=()):
    """The first placement found when every row tries its columns from N down to 1, or None."""
    if len(placement) == n:
        return list(placement)
    for column in range(n, 0, -1):
        if safe(placement, column):
            found = from_the_right(n, placement + (column,))
            if found:
                return found
    return None


def alternative_answers(input_text, answer_text):
    """Other valid placements (for N >= 4; there is at most one placement otherwise)."""
    n = int(input_text.split()[0])
    values = [int(token) for token in answer_text.split()]
    count, placement = values[0], values[1:]
    if count == 0:
        return []
    candidates = [
        from_the_right(n),
        [n + 1 - c for c in placement],
        placement[::-1],
        [placement.index(row) + 1 for row in range(1, n + 1)],
    ]
    return [output(count, p) for p in candidates if p != placement]


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: wrong counts, an attacking placement, a column out of range,
    a missing placement; for S = 0, a claimed placement."""
    n = int(input_text.split()[0])
    values = [int(token) for token in answer_text.split()]
    count, placement = values[0], values[1:]
    made = [("wrong count: one more", output(count + 1, placement))]
    if count == 0:
        return made + [("claims a placement", output(1, list(range(1, n + 1))))]
    made += [
        ("wrong count: one less", output(count - 1, placement)),
        ("placement missing", output(count, [])),
        ("a column out of range (N+1)", output(count, [n + 1] + placement[1:])),
        ("a column out of range (0)", output(count, placement[:-1] + [0])),
    ]
    if n >= 2:
        made += [
            ("an attacking placement (one diagonal)", output(count, list(range(1, n + 1)))),
            ("an attacking placement (one column)", output(count, [placement[1]] + placement[1:])),
        ]
    return made
