"""Pictures of `queens` answers: the N×N board with the student's queens, every attacked pair joined
by a red line (labelled by what they share), and, for a wrong placement, one valid placement as
hollow circles to compare with.

Feedback fields (version 1): ``size``, ``columns`` (the student's, as read), ``attacked``
([[row, other_row, "column" | "diagonal"]]), ``example`` (a valid placement, or null),
``claimed_count``, ``expected_count``, ``accepted``, ``fault`` (null or ``{reason, rows?, how?}``).
"""

from __future__ import annotations

from markupsafe import Markup

from judge.pictures.svg import (
    FAULT,
    HALO,
    SHORTEST,
    STUDENT,
    Malformed,
    accepted_and_fault,
    element,
    figure,
    integer,
    listing,
    optional_integer,
    text,
    word,
)

MAX_SIZE = 12
SIDE = 36
REASONS = ("format", "wrong_count", "missing", "extra_output", "out_of_range", "attack")
FAR = 10**9


def caption(accepted: bool, fault: dict | None, size: int, claimed: int | None, expected: int) -> str:
    """What went wrong, in words."""
    if accepted:
        return f"Accepted: {expected} placements" + (", and a valid one." if expected else ".")
    if fault is None:
        return "Wrong answer."
    rows = fault.get("rows") or []
    return {
        "format": "The output is not whole numbers as the problem asks.",
        "wrong_count": f"The answer counts {claimed} placements; there are {expected} on a {size}×{size} board.",
        "missing": f"A placement of {size} columns should follow the count.",
        "extra_output": "There is more output after the answer.",
        "out_of_range": f"The queen of row {rows[0] if rows else '?'} is outside columns 1 … {size}.",
        "attack": f"The queens of rows {' and '.join(map(str, rows))} attack each other along a "
        f"{fault.get('how') or 'line'}.",
    }[fault["reason"]]


def render(feedback: dict) -> Markup:
    """The figure for a queens feedback; raises Malformed."""
    size = integer(feedback.get("size"), 1, MAX_SIZE)
    columns = [integer(c, -FAR, FAR) for c in listing(feedback.get("columns"), 64)]
    attacked = []
    for pair in listing(feedback.get("attacked"), size * size):
        items = listing(pair, 3)
        if len(items) != 3 or len(columns) < size:
            raise Malformed("attacked: [row, other_row, how] of a whole placement")
        attacked.append(
            (integer(items[0], 1, size), integer(items[1], 1, size), word(items[2], ("column", "diagonal")))
        )
    example = feedback.get("example")
    example = None if example is None else [integer(c, 1, size) for c in listing(example, size)]
    accepted, fault = accepted_and_fault(feedback)
    if fault is not None:
        fault = {
            "reason": word(fault.get("reason"), REASONS),
            "rows": [integer(r, 1, size) for r in listing(fault.get("rows") or [], 2)],
            "how": None if fault.get("how") is None else word(fault["how"], ("column", "diagonal")),
        }
    words = caption(
        accepted,
        fault,
        size,
        optional_integer(feedback.get("claimed_count"), -FAR, FAR),
        integer(feedback.get("expected_count"), 0, FAR),
    )
    margin = SIDE * 0.7

    def centre(row: int, column: int) -> tuple[float, float]:
        return margin + (column - 0.5) * SIDE, margin + (row - 0.5) * SIDE

    body: list[Markup] = []
    for row in range(1, size + 1):
        body.append(text(margin / 2, margin + (row - 0.5) * SIDE, str(row), 11))
        body.append(text(margin + (row - 0.5) * SIDE, margin / 2, str(row), 11))
        for column in range(1, size + 1):
            fill = "#f0d9b5" if (row + column) % 2 == 0 else "#b58863"
            x, y = centre(row, column)
            body.append(element("rect", x=x - SIDE / 2, y=y - SIDE / 2, width=SIDE, height=SIDE, fill=fill))
    wrong = fault is not None and fault["reason"] in ("attack", "out_of_range")
    if example and wrong:
        for row, column in enumerate(example, start=1):
            x, y = centre(row, column)
            body.append(
                element(
                    "circle",
                    cx=x,
                    cy=y,
                    r=SIDE * 0.36,
                    fill="none",
                    stroke=SHORTEST,
                    stroke_width=2.5,
                    stroke_dasharray="4 3",
                    class_="picture-example",
                )
            )
    fault_rows = set(fault["rows"]) if fault else set()
    for row, other, how in attacked:
        (x1, y1), (x2, y2) = centre(row, columns[row - 1]), centre(other, columns[other - 1])
        if how == "column":  # beside the queens, not hidden under them
            x1, x2 = x1 + SIDE * 0.42, x2 + SIDE * 0.42
        first = fault is not None and {row, other} == fault_rows
        body.append(
            element(
                "line",
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                stroke=FAULT,
                stroke_width=4 if first else 2,
                stroke_dasharray=None if how == "diagonal" else "6 4",
                class_="picture-attack",
                data_rows=f"{row} {other}",
            )
        )
    for row, column in enumerate(columns[:size], start=1):
        inside = 1 <= column <= size
        x, y = centre(row, column if inside else size + 1)  # off the board: in the column right of it
        if not inside:
            body.append(text(x, y + SIDE * 0.45, f"column {column}"[:16], 9, fill=FAULT))
        at_fault = row in fault_rows
        body.append(
            element(
                "circle",
                cx=x,
                cy=y,
                r=SIDE * 0.32,
                fill=STUDENT,
                stroke=FAULT if at_fault else "#000000",
                stroke_width=3 if at_fault else 1,
                class_="picture-queen",
                data_row=row,
            )
        )
        body.append(text(x, y, "♛", SIDE * 0.45, fill="#ffffff"))
        if at_fault:
            body.append(text(x - SIDE * 0.38, y - SIDE * 0.34, "✗", SIDE * 0.4, fill=FAULT, font_weight="bold", **HALO))
    full = 2 * margin + size * SIDE
    off_board = any(not 1 <= column <= size for column in columns[:size])
    legend = [
        (STUDENT, "your queens (♛)"),
        (FAULT, "queens that attack each other: solid line a diagonal, dashed a column; ✗ the first pair"),
    ]
    if example and wrong:
        legend.append((SHORTEST, "one valid placement (dashed circles)"))
    return figure(
        "queens", f"queens: a {size}×{size} board; {words}", full + off_board * SIDE, full, body, words, legend=legend
    )
