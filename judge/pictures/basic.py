"""Pictures of `basic` answers: the 2×3 board at every step of the student's sequence beside one
shortest sequence, the tile moved at each step highlighted, the first fault outlined.

Feedback fields (version 1): ``start``, ``positions`` (the student's, as read, each at most 12
characters), ``shortest`` (positions, or null), ``claimed_moves``, ``shortest_moves``, ``accepted``,
``fault`` (null or ``{reason, step?, step_reason?}``; step a 0-based index into ``positions``).
"""

from __future__ import annotations

from markupsafe import Markup

from judge.pictures.svg import (
    FAULT,
    SHORTEST,
    STUDENT,
    Malformed,
    accepted_and_fault,
    element,
    figure,
    integer,
    listing,
    moves,
    optional_integer,
    text,
    word,
)

GOAL = "BASIC*"
TILE, GAP, PER_ROW = 22, 16, 8
MOVED = "#f0e442"  # yellow: the tile that moved at this step
STEP_REASONS = ("not_permutation", "wrong_start", "illegal_move", "wrong_end")
REASONS = (*STEP_REASONS, "format", "unreachable", "reachable", "wrong_count", "too_few_positions", "extra_output")


def position(value: object, limit: int = 12) -> str:
    """A position as printed: a str of at most ``limit`` characters; raises Malformed."""
    if not isinstance(value, str) or len(value) > limit:
        raise Malformed("a position is a short string")
    return value


def caption(accepted: bool, fault: dict | None, claimed: int | None, best: int, positions: list[str]) -> str:
    """What went wrong, in words."""
    if accepted:
        return (
            f"Accepted: a shortest sequence of {moves(best)}." if best >= 0 else "Accepted: BASIC* cannot be reached."
        )
    if fault is None:
        return "Wrong answer."
    step = fault.get("step")
    shown = positions[step] if step is not None and step < len(positions) else "?"
    sentences = {
        "format": "The first line is not a whole number of moves.",
        "extra_output": "There is more output after the answer.",
        "reachable": f"The answer says -1, but BASIC* is {moves(best)} away.",
        "unreachable": "BASIC* cannot be reached from this position (half of all positions cannot), but the answer "
        "gives moves.",
        "wrong_count": f"The answer says {moves(claimed or 0)}; the least is {best}.",
        "too_few_positions": f"A sequence of {moves(best)} lists {best + 1} positions; fewer were printed.",
        "not_permutation": f"Position {step} ({shown}) is not an arrangement of B, A, S, I, C and *.",
        "wrong_start": f"The first position {shown} is not the given one.",
        "illegal_move": f"Step {step} ({shown}) is not one move: * swaps with a tile beside or above/below it.",
        "wrong_end": f"The last position {shown} is not BASIC*.",
    }
    words = sentences[fault["reason"]]
    if fault.get("step_reason"):
        words += " " + sentences[fault["step_reason"]]
    return words


def board(x: float, y: float, shown: str, before: str | None, label: str, outline: str | None) -> list[Markup]:
    """One 2×3 board with its top-left corner at (x, y): '*' empty, the tile that moved since
    ``before`` highlighted, ``label`` under it, an ``outline`` colour (and ✗) when at fault."""
    marks: list[Markup] = []
    moved = before.index("*") if before is not None and "*" in before else None
    for index, letter in enumerate(shown[:6]):
        tx, ty = x + (index % 3) * TILE, y + (index // 3) * TILE
        fill = "#d9d9d9" if letter == "*" else MOVED if index == moved else "#ffffff"
        marks.append(element("rect", x=tx, y=ty, width=TILE, height=TILE, fill=fill, stroke="#555555"))
        if letter != "*":
            marks.append(text(tx + TILE / 2, ty + TILE / 2, letter, TILE * 0.6, font_weight="bold"))
    if outline:
        marks.append(
            element(
                "rect",
                x=x - 3,
                y=y - 3,
                width=3 * TILE + 6,
                height=2 * TILE + 6,
                fill="none",
                stroke=outline,
                stroke_width=3,
                class_="picture-fault",
            )
        )
        marks.append(text(x + 3 * TILE + 2, y - 4, "✗", 14, fill=outline, font_weight="bold"))
    marks.append(text(x + 1.5 * TILE, y + 2 * TILE + 9, label, 10))
    return marks


def strip(
    top: float, title: str, colour: str, positions: list[str], bad_step: int | None
) -> tuple[list[Markup], float]:
    """A titled row (or rows) of boards, one per position; returns (marks, height used)."""
    marks = [text(4, top + 8, title, 12, fill=colour, text_anchor="start", font_weight="bold")]
    width = 3 * TILE + GAP
    for index, shown in enumerate(positions):
        row, col = divmod(index, PER_ROW)
        before = positions[index - 1] if index else None
        outline = FAULT if index == bad_step else None
        marks += board(4 + col * width, top + 18 + row * (2 * TILE + 24), shown, before, str(index), outline)
    rows = max(1, -(-len(positions) // PER_ROW))
    return marks, 18 + rows * (2 * TILE + 24)


def render(feedback: dict) -> Markup:
    """The figure for a basic feedback; raises Malformed."""
    start = position(feedback.get("start"), 6)
    positions = [position(p) for p in listing(feedback.get("positions"), 64)]
    shortest = feedback.get("shortest")
    shortest = None if shortest is None else [position(p, 6) for p in listing(shortest, 32)]
    claimed = optional_integer(feedback.get("claimed_moves"), -(10**9), 10**9)
    best = integer(feedback.get("shortest_moves"), -1, 31)
    accepted, fault = accepted_and_fault(feedback)
    if fault is not None:
        fault = {
            "reason": word(fault.get("reason"), REASONS),
            "step": optional_integer(fault.get("step"), 0, len(positions)),
            "step_reason": None if fault.get("step_reason") is None else word(fault["step_reason"], STEP_REASONS),
        }
    words = caption(accepted, fault, claimed, best, positions)
    mine, used = strip(0, "Your sequence", STUDENT, positions or [start], None if fault is None else fault["step"])
    body = list(mine)
    if shortest is not None and not accepted:
        theirs, more = strip(used + 6, "One shortest sequence", SHORTEST, shortest, None)
        body += theirs
        used += 6 + more
    width = 8 + PER_ROW * (3 * TILE + GAP)
    legend = [(MOVED, "the tile moved at this step"), (FAULT, "the first fault (red outline, ✗)")]
    return figure("basic", f"basic: the 2×3 board, step by step; {words}", width, used, body, words, legend=legend)
