"""Checker-audit outputs for `domination`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other placements with the fewest queens,
found without the reference solver: the judge's placement turned and mirrored by the symmetries of
the board (eight for a square, four for a rectangle), each a different placement that covers the
board just as well.

A placement is a list of (row, col) squares, 1-based. Standard library only.
"""


def read_test(input_text, answer_text):
    """Return (rows, cols, queens): the board and the judge's placement."""
    rows, cols = (int(token) for token in input_text.split())
    values = [int(token) for token in answer_text.split()]
    return rows, cols, list(zip(values[1::2], values[2::2]))


def output(count, queens):
    """The output text: the count, then one `r c` line per queen."""
    return f"{count}\n" + "".join(f"{row} {col}\n" for row, col in queens)


def covers_all(rows, cols, queens):
    """True if every square holds a queen or shares a row, column or diagonal with one."""
    return all(
        any(r == row or c == col or abs(r - row) == abs(c - col) for r, c in queens)
        for row in range(1, rows + 1)
        for col in range(1, cols + 1)
    )


def alternative_answers(input_text, answer_text):
    """The judge's placement under each symmetry of the board, where it differs."""
    rows, cols, queens = read_test(input_text, answer_text)
    maps = [
        lambda r, c: (rows + 1 - r, c),
        lambda r, c: (r, cols + 1 - c),
        lambda r, c: (rows + 1 - r, cols + 1 - c),
    ]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols + 1 - c, rows + 1 - r)]
    made = []
    for move in maps:
        moved = sorted(move(r, c) for r, c in queens)
        if moved != sorted(queens) and moved not in made:
            made.append(moved)
    return [output(len(moved), moved) for moved in made]


def wrong_answers(input_text, answer_text):
    """Wrong outputs: one queen fewer or more, a queen off the board, two queens on one square, a
    queen moved so that a square is left uncovered, the squares missing."""
    rows, cols, queens = read_test(input_text, answer_text)
    count = len(queens)
    spare = next(((r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if (r, c) not in queens), None)
    made = [
        ("one queen fewer", output(count - 1, queens[:-1])),
        ("squares missing", output(count, [])),
        ("a queen off the board (row R+1)", output(count, [(rows + 1, queens[0][1])] + queens[1:])),
        ("a queen off the board (column 0)", output(count, queens[:-1] + [(queens[-1][0], 0)])),
    ]
    if spare is not None:
        made.append(("one queen more", output(count + 1, queens + [spare])))
    if count >= 2:
        made.append(("two queens on one square", output(count, queens[:-1] + [queens[0]])))
    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            moved = [(row, col)] + queens[1:]
            if (row, col) not in queens and not covers_all(rows, cols, moved):
                return made + [("a square left uncovered", output(count, moved))]
    return made
