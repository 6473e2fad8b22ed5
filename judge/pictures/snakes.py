"""Pictures of `snakes` answers: the board (ten cells a row, cell 0 bottom left, rows alternating
direction like a printed board), its snakes and ladders, the BFS layers (moves needed per cell) and
one shortest route: each throw, where it lands and where a snake or ladder takes it.

Feedback fields (version 1): ``cells``, ``claimed`` (int or null), ``expected``, ``accepted``,
``fault`` (null or ``{reason}``), and for boards of at most 400 cells ``transitions`` ([[a, b]]),
``distance`` (per cell, -1 unreached) and ``route`` ([{from, throw, land, to}] or null).
"""

from __future__ import annotations

from markupsafe import Markup

from judge.pictures.svg import (
    FAULT,
    HALO,
    SHORTEST,
    WAVE,
    Malformed,
    element,
    figure,
    fresh_id,
    integer,
    listing,
    mapping,
    optional_integer,
    text,
    word,
)

MAX_CELLS = 400  # larger boards come without their transitions and are described in words only
WIDTH = 10  # cells per row
LADDER, SNAKE = "#009e73", "#cc79a7"
REASONS = ("format", "too_many", "too_few", "unreachable", "reachable", "extra_output")
FAR = 10**9


def throws(count: int) -> str:
    """'1 throw' or 'k throws'."""
    return f"{count} throw" if count == 1 else f"{count} throws"


def read_route(value: object, cells: int) -> list[dict] | None:
    """Validate the route (a list of moves {from, throw, land, to}); raises Malformed."""
    if value is None:
        return None
    route = []
    for item in listing(value, cells):
        move = mapping(item)
        start, throw = integer(move.get("from"), 0, cells - 1), integer(move.get("throw"), 1, 6)
        land = integer(move.get("land"), 0, cells - 1)
        if land != start + throw:
            raise Malformed("route: a throw lands on from + throw")
        route.append({"from": start, "throw": throw, "land": land, "to": integer(move.get("to"), 0, cells - 1)})
    return route


def caption(accepted: bool, fault: str | None, claimed: int | None, expected: int, route: list[dict] | None) -> str:
    """What went wrong, in words, and the shortest route when there is one to tell."""
    if accepted:
        words = "Accepted: " + (f"{throws(expected)}." if expected >= 0 else "the last cell cannot be reached.")
    else:
        words = {
            "format": "The answer is not a single whole number.",
            "extra_output": "There is more output after the number.",
            "reachable": f"The answer says the last cell cannot be reached, but {throws(expected)} reach it.",
            "unreachable": f"The last cell cannot be reached, but the answer says {claimed}.",
            "too_many": f"The answer says {claimed}, but {throws(expected)} are enough.",
            "too_few": f"The answer says {claimed}, but no route is that short: the least is {throws(expected)}.",
            None: "Wrong answer.",
        }[fault]
    if route:
        steps = [
            f"throw {move['throw']} to {move['land']}"
            + (f", then to {move['to']}" if move["to"] != move["land"] else "")
            for move in route[:20]
        ]
        words += " One shortest route: " + "; ".join(steps) + ("; …" if len(route) > 20 else "") + "."
    return words


def render(feedback: dict) -> Markup:
    """The figure for a snakes feedback; raises Malformed."""
    cells = integer(feedback.get("cells"), 2, FAR)
    expected = integer(feedback.get("expected"), -1, FAR)
    claimed = optional_integer(feedback.get("claimed"), -FAR, FAR)
    accepted = feedback.get("accepted")
    if not isinstance(accepted, bool):
        raise Malformed("accepted: true or false")
    fault = feedback.get("fault")
    reason = None if fault is None else word(mapping(fault).get("reason"), REASONS)
    words = caption(accepted, reason, claimed, expected, None)
    if cells > MAX_CELLS or feedback.get("transitions") is None:
        note = [text(200, 20, f"a board of {cells} cells: too large to draw", 14)]
        return figure("snakes", f"snakes: {words}", 400, 40, note, words)
    pairs = [listing(pair, 2) for pair in listing(feedback.get("transitions"), cells)]
    if any(len(pair) != 2 for pair in pairs):
        raise Malformed("transitions: [a, b] pairs")
    transitions = [(integer(a, 0, cells - 1), integer(b, 0, cells - 1)) for a, b in pairs]
    distance = [integer(d, -1, cells) for d in listing(feedback.get("distance"), cells)]
    if len(distance) != cells:
        raise Malformed("distance: one number per cell")
    route = read_route(feedback.get("route"), cells)
    words = caption(accepted, reason, claimed, expected, route)
    side = 40 if cells <= 100 else 28
    rows = -(-cells // WIDTH)
    pad = side * 0.9  # room above the board for the throws' arcs

    def centre(number: int) -> tuple[float, float]:
        row, col = divmod(number, WIDTH)
        col = col if row % 2 == 0 else WIDTH - 1 - col
        return (col + 0.5) * side, (rows - 1 - row + 0.5) * side + pad

    farthest = max(max(distance), 1)
    arrow_ids = {colour: fresh_id("picture-arrow") for colour in (LADDER, SNAKE, SHORTEST)}
    body: list[Markup] = [
        element(
            "defs",
            [
                element(
                    "marker",
                    [element("path", d="M0,0 L10,5 L0,10 z", fill=colour)],
                    id=marker,
                    viewBox="0 0 10 10",
                    refX=9,
                    refY=5,
                    markerWidth=5,
                    markerHeight=5,
                    orient="auto-start-reverse",
                )
                for colour, marker in arrow_ids.items()
            ],
        )
    ]
    landed = {move["land"] for move in route or []} | {move["to"] for move in route or []}
    for number in range(cells):
        x, y = centre(number)
        d = distance[number]
        shade = 0.0 if d < 0 else 0.1 + 0.45 * (1 - d / farthest)
        body.append(
            element(
                "rect",
                x=f"{x - side / 2:g}",
                y=f"{y - side / 2:g}",
                width=side,
                height=side,
                fill=WAVE,
                fill_opacity=f"{shade:.2f}",
                stroke=SHORTEST if number in landed else "#b0b0b0",
                stroke_width=2.5 if number in landed else 0.6,
                data_d=d if d >= 0 else None,
            )
        )
        body.append(text(x - side * 0.28, y - side * 0.3, str(number), side * 0.24, text_anchor="start"))
        if d >= 0 and side >= 40:
            body.append(text(x + side * 0.3, y + side * 0.32, str(d), side * 0.2, fill="#4a4a4a"))
    for a, b in transitions:
        (x1, y1), (x2, y2) = centre(a), centre(b)
        colour = LADDER if b > a else SNAKE
        bend = side * (0.3 if b < a else -0.3)  # ladders bow up, snakes down: on one row they stay apart
        body.append(
            element(
                "path",
                d=f"M{x1:g},{y1:g} Q{(x1 + x2) / 2:g},{(y1 + y2) / 2 + bend:g} {x2:g},{y2:g}",
                fill="none",
                stroke=colour,
                stroke_width=side * 0.1,
                stroke_dasharray=None if b > a else f"{side * 0.15:g} {side * 0.1:g}",
                marker_end=f"url(#{arrow_ids[colour]})",
                class_="picture-ladder" if b > a else "picture-snake",
            )
        )
    for index, move in enumerate(route or [], start=1):
        (x1, y1), (x2, y2) = centre(move["from"]), centre(move["land"])
        bend = side * 1.1
        body.append(
            element(
                "path",
                d=f"M{x1:g},{y1:g} Q{(x1 + x2) / 2:g},{min(y1, y2) - bend:g} {x2:g},{y2:g}",
                fill="none",
                stroke=SHORTEST,
                stroke_width=2,
                marker_end=f"url(#{arrow_ids[SHORTEST]})",
                class_="picture-throw",
            )
        )
        body.append(
            text(
                (x1 + x2) / 2,
                min(y1, y2) - bend * 0.5 - side * 0.15,
                f"+{move['throw']}",
                side * 0.3,
                fill=SHORTEST,
                font_weight="bold",
                data_move=index,
                **HALO,
            )
        )
    if not accepted:
        x, y = centre(cells - 1)
        body.append(text(x + side * 0.3, y - side * 0.28, "✗", side * 0.35, fill=FAULT, font_weight="bold", **HALO))
    legend = [
        (LADDER, "ladder (solid arrow up)"),
        (SNAKE, "snake (dashed arrow down)"),
        (SHORTEST, "one shortest route: arcs labelled by the throw (+r), landings outlined"),
        (WAVE, "throws needed to reach a cell (darker is fewer; small number)"),
    ]
    return figure(
        "snakes",
        f"snakes: a board of {cells} cells; {words}",
        WIDTH * side,
        rows * side + pad,
        body,
        words,
        legend=legend,
    )
