"""Small builders of SVG and HTML markup, every text and attribute escaped (``markupsafe``), and the
shape checks a picture's feedback must pass before anything is drawn.

Feedback comes from output validators, teachers' among them: every string is untrusted and every
number may be wrong. The checks raise ``Malformed``; ``judge.pictures.render_picture`` then draws
nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from markupsafe import Markup, escape

_ids = itertools.count(1)
VOID = {"input"}  # HTML elements without an end tag

# Colours that keep their contrast on white and differ for the common colour-vision deficiencies
# (Okabe & Ito 2008); each is paired with a mark or a label, never meant alone.
WALL = "#3d3d3d"
STUDENT = "#d55e00"  # vermilion: the student's answer
SHORTEST = "#0072b2"  # blue: one shortest answer
FAULT = "#b00020"  # red: the first fault
WAVE = "#56b4e9"  # sky blue: the BFS layers, lighter further out
TEXT = "#1a1a1a"
HALO = {"stroke": "#ffffff", "stroke_width": 3, "paint_order": "stroke"}  # keeps a mark readable on any fill


class Malformed(ValueError):
    """The feedback does not have the shape its kind needs; nothing is drawn."""


def fresh_id(prefix: str) -> str:
    """An id unique within this process, for a figure's title and its controls."""
    return f"{prefix}-{next(_ids)}"


def element(tag: str, children: Iterable[Markup | str] = (), **attributes: object) -> Markup:
    """``<tag a="v">children</tag>``; attribute names use ``_`` for ``-`` (``font_size``), a trailing
    ``_`` is dropped (``class_``); None values are left out; str children are escaped."""
    parts = [
        Markup(' {}="{}"').format(name.rstrip("_").replace("_", "-"), value)
        for name, value in attributes.items()
        if value is not None
    ]
    if tag in VOID:
        return Markup("<{}{}>").format(Markup(tag), Markup("").join(parts))
    body = Markup("").join(escape(child) for child in children)
    return Markup("<{}{}>{}</{}>").format(Markup(tag), Markup("").join(parts), body, Markup(tag))


def text(x: float, y: float, words: str, size: float, **attributes: object) -> Markup:
    """A centred SVG ``<text>`` at (x, y) in ``size`` user units."""
    attributes = {"text_anchor": "middle", "dominant_baseline": "central", "fill": TEXT} | attributes
    return element("text", [words], x=f"{x:g}", y=f"{y:g}", font_size=f"{size:g}", **attributes)


def figure(
    kind: str,
    title: str,
    width: float,
    height: float,
    body: Iterable[Markup],
    caption: str,
    controls: Markup = Markup(""),
    legend: Iterable[tuple[str, str]] = (),
) -> Markup:
    """The whole fragment: ``<figure>`` holding the inline SVG (``viewBox`` width × height, with a
    ``<title>`` for screen readers), optional controls, a legend (colour, words) and the caption."""
    title_id = fresh_id("picture-title")
    svg = element(
        "svg",
        [element("title", [title], id=title_id), *body],
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width:g} {height:g}",
        role="img",
        aria_labelledby=title_id,
        style=f"max-width:{min(width, 640):g}px;width:100%;height:auto;font-family:sans-serif",
    )
    keys = [
        element("li", [element("span", ["\u25a0"], style=f"color:{colour}", aria_hidden="true"), " ", words])
        for colour, words in legend
    ]
    legend_list = element("ul", keys, class_="picture-legend") if keys else Markup("")
    return element(
        "figure", [svg, controls, legend_list, element("figcaption", [caption])], class_=f"picture picture-{kind}"
    )


# -- shape checks ------------------------------------------------------------------------------------
def integer(value: object, low: int, high: int) -> int:
    """``value`` if it is an int (not a bool) in [low, high]; else Malformed."""
    if type(value) is not int or not low <= value <= high:
        raise Malformed(f"expected an integer in {low}..{high}")
    return value


def optional_integer(value: object, low: int, high: int) -> int | None:
    """None, or ``integer(value, low, high)``."""
    return None if value is None else integer(value, low, high)


def listing(value: object, limit: int) -> list:
    """``value`` if it is a list of at most ``limit`` items; else Malformed."""
    if not isinstance(value, list) or len(value) > limit:
        raise Malformed(f"expected a list of at most {limit} items")
    return value


def cell(value: object, rows: int, cols: int, slack: int = 0) -> tuple[int, int]:
    """A 1-based [row, column] pair within the grid widened by ``slack`` cells on every side."""
    pair = listing(value, 2)
    if len(pair) != 2:
        raise Malformed("expected a [row, column] pair")
    return integer(pair[0], 1 - slack, rows + slack), integer(pair[1], 1 - slack, cols + slack)


def word(value: object, choices: Iterable[str]) -> str:
    """``value`` if it is one of ``choices``; else Malformed."""
    if not isinstance(value, str) or value not in set(choices):
        raise Malformed("unexpected word")
    return value


def mapping(value: object) -> dict:
    """``value`` if it is a dict; else Malformed."""
    if not isinstance(value, dict):
        raise Malformed("expected an object")
    return value


def accepted_and_fault(feedback: dict) -> tuple[bool, dict | None]:
    """The feedback's ``accepted`` (a bool) and ``fault`` (None or a dict, its fields still to check);
    else Malformed."""
    accepted = feedback.get("accepted")
    if not isinstance(accepted, bool):
        raise Malformed("accepted: true or false")
    fault = feedback.get("fault")
    return accepted, None if fault is None else mapping(fault)


def at(place: tuple[int, int]) -> str:
    """'(row r, column c)' for a 1-based cell."""
    return f"(row {place[0]}, column {place[1]})"


def moves(count: int) -> str:
    """'1 move' or 'k moves'."""
    return f"{count} move" if count == 1 else f"{count} moves"
