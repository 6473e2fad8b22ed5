"""Checker-audit outputs for `basic`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other shortest move sequences, found
without the reference solver: one breadth-first search backwards from `BASIC*` over all 720
positions gives each position's distance, then a walk down the distances picks, at each step, the
first closer neighbour in another order of the blank's moves.

A position is a 6-character string, the 2x3 board row by row. Standard library only.
"""

from collections import deque
from functools import lru_cache

GOAL = "BASIC*"
COLUMNS = 3
# The blank's moves as index offsets, in the orders that break ties between equal sequences.
MOVE_ORDERS = ((-3, -1, 1, 3), (3, 1, -1, -3), (1, 3, -3, -1), (-1, -3, 3, 1))


def slide(position, offset):
    """`position` after the blank moves by `offset` (±1 along a row, ±3 between rows), or None."""
    blank = position.index("*")
    target = blank + offset
    if not 0 <= target < 6 or (abs(offset) == 1 and target // COLUMNS != blank // COLUMNS):
        return None
    cells = list(position)
    cells[blank], cells[target] = cells[target], cells[blank]
    return "".join(cells)


def neighbours(position, order=MOVE_ORDERS[0]):
    """Positions one legal move away, in the blank's move `order`."""
    return [p for p in (slide(position, offset) for offset in order) if p is not None]


@lru_cache(maxsize=1)
def distances():
    """{position: least moves to GOAL} for every position that reaches GOAL (breadth-first)."""
    found = {GOAL: 0}
    queue = deque([GOAL])
    while queue:
        position = queue.popleft()
        for nxt in neighbours(position):
            if nxt not in found:
                found[nxt] = found[position] + 1
                queue.append(nxt)
    return found


def descent(position, order=MOVE_ORDERS[0]):
    """A shortest sequence position..GOAL (a list), closer neighbours tried in `order`."""
    far = distances()
    sequence = [position]
    while sequence[-1] != GOAL:
        sequence.append(next(p for p in neighbours(sequence[-1], order) if far.get(p) == far[sequence[-1]] - 1))
    return sequence


def output(count, sequence):
    """The output text: the count, then one position per line."""
    return "".join(f"{line}\n" for line in [str(count), *sequence])


def alternative_answers(input_text, answer_text):
    """Other shortest sequences: one descent per MOVE_ORDERS order (none if GOAL is unreachable)."""
    start = input_text.split()[0]
    if start not in distances():
        return []
    found = []
    for order in MOVE_ORDERS:
        text = output(distances()[start], descent(start, order))
        if text not in found:
            found.append(text)
    return found


def illegal_jumps(position):
    """Positions made by swapping the blank with a tile that is not its side neighbour."""
    blank = position.index("*")
    legal = set(neighbours(position))
    made = []
    for index in range(6):
        if index != blank:
            cells = list(position)
            cells[blank], cells[index] = cells[index], cells[blank]
            swapped = "".join(cells)
            if swapped not in legal:
                made.append(swapped)
    return made


def illegal_move(sequence):
    """A sequence with one swap of non-neighbours, then legal moves to GOAL; None if none fits.

    Prefers a jump that keeps the optimal count, so only the illegal move is wrong.
    """
    k, far = len(sequence) - 1, distances()
    jumps = [q for q in illegal_jumps(sequence[0]) if q in far]
    jumps.sort(key=lambda q: far[q] != k - 1)
    if jumps:
        cells = [sequence[0]] + descent(jumps[0])
        return output(len(cells) - 1, cells)
    if k >= 2:
        return output(k, [sequence[0], illegal_jumps(sequence[0])[0]] + sequence[2:])
    return None


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: wrong counts, longer sequences, an illegal move, a wrong start
    or end, a position that is not a permutation; for -1, claimed sequences."""
    start = input_text.split()[0]
    tokens = answer_text.split()
    k, sequence = int(tokens[0]), tokens[1:]
    if k == -1:
        made = [("claims zero moves", output(0, [start])), ("claims one move", output(1, [start, GOAL]))]
        jump = illegal_move([start])
        return made + ([("claims a sequence through an illegal move", jump)] if jump else [])
    aside = neighbours(start)[0]
    made = [
        ("wrong count: one more", output(k + 1, sequence)),
        ("claims unreachable", "-1\n"),
        ("one move longer (a standing move)", output(k + 1, [start] + sequence)),
        ("two moves longer (there and back)", output(k + 2, [start, aside] + sequence)),
    ]
    jump = illegal_move(sequence)
    if jump:
        made.append(("an illegal move (a swap of non-neighbours)", jump))
    if k >= 1:
        made += [
            ("wrong count: one less", output(k - 1, sequence)),
            ("wrong start", output(k - 1, sequence[1:])),
            ("wrong end", output(k - 1, sequence[:-1])),
        ]
    else:
        made += [("wrong start", output(1, [aside, GOAL])), ("wrong end", output(1, [GOAL, aside]))]
    if k >= 2:
        broken = sequence[1][:-1] + sequence[1][0]
        made.append(("a position that is not a permutation", output(k, [sequence[0], broken] + sequence[2:])))
    return made
