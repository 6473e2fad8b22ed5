"""Pictures of `lee` and `lines` answers: the grid, the BFS distance layers (a wave the student can
step through with ``static/pictures.js``; all layers shown without it), one shortest path, the
student's path over it and the first fault marked at its cell.

Feedback fields (version 1, written by the packages' output validators; cells 1-based [row, col]):
``grid`` rows of '0'/'1' (1 a wall or a ball), ``start``, ``goal``, ``path`` (the student's cells as
read), ``shortest`` (or null), ``distance`` (rows of ints, -1 unreached), ``fault`` (null or
``{reason, step?, cell?, from?, step_reason?}``), ``accepted``, ``shortest_moves``, and
``claimed_moves`` (lee) or ``claimed`` ('Y'/'N', lines).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from judge.pictures.svg import (
    FAULT,
    HALO,
    SHORTEST,
    STUDENT,
    WALL,
    WAVE,
    Malformed,
    at,
    element,
    figure,
    integer,
    listing,
    mapping,
    moves,
    optional_integer,
    text,
    word,
)
from judge.pictures.svg import cell as read_cell

MAX_SIDE = {"lee": 100, "lines": 40}
FAR = 10**9  # the student's numbers may be anything; cells off the grid are drawn on its border ring
NAMES = {"lee": ("mouse", "cheese", "M", "C"), "lines": ("ball @", "X", "@", "X")}
STEP_REASONS = ("wrong_start", "off_grid", "wall", "diagonal", "jump", "stay", "wrong_end", "detour", "ball")
REASONS = (
    *STEP_REASONS,
    "format",
    "unreachable",
    "reachable",
    "too_long",
    "too_short",
    "extra_output",
    "cell_count",
    "start_marked",
    "changed",
    "end_unmarked",
    "disconnected",
    "extra_cells",
)


@dataclass
class Fault:
    """The first fault: its reason, the step (0-based cell index) and cells involved, if any."""

    reason: str
    step: int | None
    cell: tuple[int, int] | None
    origin: tuple[int, int] | None
    step_reason: str | None


@dataclass
class GridAnswer:
    """A validated lee/lines feedback."""

    kind: str
    grid: list[str]
    start: tuple[int, int]
    goal: tuple[int, int]
    path: list[tuple[int, int]]
    shortest: list[tuple[int, int]] | None
    distance: list[list[int]]
    fault: Fault | None
    accepted: bool
    claimed: int | str | None
    shortest_moves: int


def read(kind: str, feedback: dict) -> GridAnswer:
    """Validate a lee/lines feedback; raises Malformed."""
    grid = listing(feedback.get("grid"), MAX_SIDE[kind])
    if not grid or not all(isinstance(row, str) and set(row) <= {"0", "1"} for row in grid):
        raise Malformed("grid: rows of 0 and 1")
    rows, cols = len(grid), len(grid[0])
    if not 1 <= cols <= MAX_SIDE[kind] or any(len(row) != cols for row in grid):
        raise Malformed("grid: rows of one length")
    size = rows * cols
    distance = listing(feedback.get("distance"), rows)
    if len(distance) != rows or any(len(listing(row, cols)) != cols for row in distance):
        raise Malformed("distance: one number per cell")
    distance = [[integer(d, -1, size) for d in row] for row in distance]
    shortest = feedback.get("shortest")
    path_limit = size + 1
    claimed = feedback.get("claimed_moves") if kind == "lee" else feedback.get("claimed")
    if kind == "lines" and claimed is not None:
        claimed = word(claimed, ("Y", "N"))
    if kind == "lee":
        claimed = optional_integer(claimed, -FAR, FAR)
    accepted = feedback.get("accepted")
    if not isinstance(accepted, bool):
        raise Malformed("accepted: true or false")
    return GridAnswer(
        kind=kind,
        grid=grid,
        start=read_cell(feedback.get("start"), rows, cols),
        goal=read_cell(feedback.get("goal"), rows, cols),
        path=[read_cell(c, rows, cols, FAR) for c in listing(feedback.get("path"), path_limit)],
        shortest=None if shortest is None else [read_cell(c, rows, cols) for c in listing(shortest, path_limit)],
        distance=distance,
        fault=read_fault(feedback.get("fault"), rows, cols, path_limit),
        accepted=accepted,
        claimed=claimed,
        shortest_moves=integer(feedback.get("shortest_moves"), -1, size),
    )


def read_fault(value: object, rows: int, cols: int, path_limit: int) -> Fault | None:
    """Validate the ``fault`` object (or null); raises Malformed."""
    if value is None:
        return None
    fault = mapping(value)

    def place(name: str) -> tuple[int, int] | None:
        return None if fault.get(name) is None else read_cell(fault[name], rows, cols, FAR)

    step_reason = fault.get("step_reason")
    return Fault(
        reason=word(fault.get("reason"), REASONS),
        step=optional_integer(fault.get("step"), 0, path_limit),
        cell=place("cell"),
        origin=place("from"),
        step_reason=None if step_reason is None else word(step_reason, STEP_REASONS),
    )


def caption(answer: GridAnswer) -> str:
    """What went wrong, in words (or what was right)."""
    mouse, cheese = NAMES[answer.kind][:2]
    best = answer.shortest_moves
    if answer.accepted:
        return (
            f"Accepted: a shortest path of {moves(best)}." if best >= 0 else f"Accepted: the {cheese} is out of reach."
        )
    fault = answer.fault
    if fault is None:
        return "Wrong answer."
    where = at(fault.cell) if fault.cell else "?"
    number = (fault.step or 0) + 1
    claimed = answer.claimed if isinstance(answer.claimed, int) else None
    sentences = {
        "format": "The output could not be read in the form the problem asks for.",
        "extra_output": "There is more output after the answer.",
        "reachable": f"The answer says there is no path, but the {cheese} is {moves(best)} away.",
        "unreachable": f"The {cheese} cannot be reached (the walls close it off), but the answer gives a path.",
        "too_long": f"The answer takes {moves(claimed or 0)}; a shortest path takes {best}."
        if claimed is not None
        else f"The path is longer than a shortest one ({moves(best)}).",
        "too_short": f"{moves(claimed or 0).capitalize()} is fewer than possible: a shortest path takes {best}.",
        "cell_count": "The number of cells listed is not k + 1.",
        "wrong_start": f"The path starts at {where}, not at the {mouse}.",
        "wrong_end": f"The path ends at {where}, not at the {cheese}.",
        "off_grid": f"Cell #{number} {where} is off the grid.",
        "wall": f"Cell #{number} {where} is a wall.",
        "ball": f"The path goes through a ball at {where}.",
        "diagonal": f"Move #{fault.step} goes diagonally to {where}: only up, down, left or right.",
        "jump": f"Move #{fault.step} jumps to {where}: a move goes to a neighbouring cell.",
        "stay": f"Move #{fault.step} stays on {where}.",
        "detour": f"The path first falls behind the wave at {where}: a detour.",
        "start_marked": f"The ball @ at {where} is marked +; it must stay as it is.",
        "changed": f"The cell at {where} was changed; only the path may be marked.",
        "end_unmarked": f"X at {where} is not marked +: the path must end on it.",
        "disconnected": "The + cells do not connect @ to X.",
        "extra_cells": "More cells are marked + than a shortest path needs.",
    }
    words = sentences[fault.reason]
    if fault.step_reason and fault.step_reason != fault.reason:
        words += " " + sentences[fault.step_reason]
    return words


def render(kind: str, feedback: dict) -> Markup:
    """The figure for a lee/lines feedback; raises Malformed."""
    answer = read(kind, feedback)
    rows, cols = len(answer.grid), len(answer.grid[0])
    side = max(6, min(44, 600 // (max(rows, cols) + 2)))

    def centre(place: tuple[int, int]) -> tuple[float, float]:
        row = min(max(place[0], 0), rows + 1)  # off the grid: drawn on the ring around it
        col = min(max(place[1], 0), cols + 1)
        return (col + 0.5) * side, (row + 0.5) * side

    def points(cells: list[tuple[int, int]]) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in map(centre, cells))

    farthest = max((d for row in answer.distance for d in row), default=0)
    body: list[Markup] = [element("rect", x=0, y=0, width=(cols + 2) * side, height=(rows + 2) * side, fill="#ffffff")]
    for r, line in enumerate(answer.grid, start=1):
        for c, wall in enumerate(line, start=1):
            d = answer.distance[r - 1][c - 1]
            if wall == "1":
                body.append(element("rect", x=c * side, y=r * side, width=side, height=side, fill=WALL))
                continue
            shade = 0.0 if d < 0 else 0.15 + 0.55 * (1 - d / max(farthest, 1))
            body.append(
                element(
                    "rect",
                    x=c * side,
                    y=r * side,
                    width=side,
                    height=side,
                    fill=WAVE,
                    fill_opacity=f"{shade:.2f}",
                    stroke="#c8c8c8" if side >= 10 else None,
                    stroke_width=0.5,
                    data_d=d if d >= 0 else None,
                )
            )
            if d >= 0 and side >= 18:
                body.append(text((c + 0.5) * side, (r + 0.72) * side, str(d), side * 0.28, fill="#4a4a4a"))
    if answer.shortest:
        body.append(
            element(
                "polyline",
                points=points([answer.start, *answer.shortest] if kind == "lines" else answer.shortest),
                fill="none",
                stroke=SHORTEST,
                stroke_width=f"{max(2, side * 0.14):.1f}",
                stroke_dasharray=f"{side * 0.3:.1f} {side * 0.2:.1f}",
                class_="picture-shortest",
            )
        )
    body += student_marks(answer, side, centre, points)
    mouse_mark, cheese_mark = NAMES[kind][2:]
    for place, label in ((answer.start, mouse_mark), (answer.goal, cheese_mark)):
        x, y = centre(place)
        radius = max(side * 0.38, 7)  # readable on a 100 × 100 grid too
        body.append(element("circle", cx=x, cy=y, r=radius, fill="#ffffff", stroke="#000000", stroke_width=1))
        body.append(text(x, y, label, radius * 1.2, font_weight="bold"))
    faults = fault_marks(answer.fault, side, centre)
    body += faults
    controls = Markup("")
    if farthest > 0:
        controls = element(
            "p",
            [
                element(
                    "label",
                    [
                        "BFS wave: distance ",
                        element("input", type="range", min=0, max=farthest, value=farthest, data_picture_wave=""),
                        " ",
                        element("output", [str(farthest)]),
                    ],
                )
            ],
            class_="picture-controls",
            hidden="",
        )
    mouse, cheese = NAMES[kind][:2]
    drawn = {  # a legend entry only for what the picture draws
        (WAVE, "BFS distance layers from the start (darker is nearer; numbers are moves)"): True,
        (SHORTEST, "one shortest path (dashed)"): bool(answer.shortest),
        (STUDENT, "your path" + (" (dots)" if kind == "lee" else " (+ marks)")): bool(answer.path),
        (FAULT, "the first fault (red square, ✗)"): bool(faults),
        (WALL, "wall" if kind == "lee" else "ball O"): any("1" in line for line in answer.grid),
    }
    legend = [entry for entry, shown in drawn.items() if shown]
    title = f"{kind}: the grid from the {mouse} ({mouse_mark}) to the {cheese} ({cheese_mark}); {caption(answer)}"
    return figure(kind, title, (cols + 2) * side, (rows + 2) * side, body, caption(answer), controls, legend)


def student_marks(answer: GridAnswer, side: int, centre, points) -> list[Markup]:
    """The student's answer: lee a line through the cells with a dot on each; lines a + per cell."""
    marks: list[Markup] = []
    if answer.kind == "lee" and answer.path:
        marks.append(
            element(
                "polyline",
                points=points(answer.path),
                fill="none",
                stroke=STUDENT,
                stroke_width=f"{max(2.5, side * 0.1):.1f}",
                stroke_linejoin="round",
                class_="picture-student",
            )
        )
    for place in answer.path:
        x, y = centre(place)
        if answer.kind == "lee":
            marks.append(element("circle", cx=f"{x:g}", cy=f"{y:g}", r=f"{side * 0.14:.1f}", fill=STUDENT))
        else:
            marks.append(text(x, y, "+", side * 0.8, fill=STUDENT, font_weight="bold"))
    return marks


def fault_marks(fault: Fault | None, side: int, centre) -> list[Markup]:
    """A red square with a ✗ on the fault's cell, and the offending move as a thick red segment."""
    if fault is None or fault.cell is None:
        return []
    x, y = centre(fault.cell)
    box = max(side - 2, 14)  # on a large grid the mark is larger than its cell
    marks = []
    if fault.origin is not None:
        x0, y0 = centre(fault.origin)
        marks.append(element("line", x1=x0, y1=y0, x2=x, y2=y, stroke=FAULT, stroke_width=f"{max(3, side * 0.16):.1f}"))
    marks.append(
        element(
            "g",
            [
                element(
                    "rect",
                    x=f"{x - box / 2:g}",
                    y=f"{y - box / 2:g}",
                    width=box,
                    height=box,
                    fill="none",
                    stroke=FAULT,
                    stroke_width=f"{max(2, side * 0.14):.1f}",
                ),
                text(x + box / 2, y - box / 2, "✗", max(12, side * 0.6), fill=FAULT, font_weight="bold", **HALO),
            ],
            class_="picture-fault",
            data_row=fault.cell[0],
            data_col=fault.cell[1],
        )
    )
    return marks
