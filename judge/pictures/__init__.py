"""Pictures of an answer: SVG drawn from the structured feedback an output validator writes to
``feedback_dir/feedback.json`` (stored as ``TestResult.feedback``). The picture never re-checks the
answer: everything drawn comes from the feedback, so the checker stays the one place that
understands it.

``render_picture(feedback)`` returns a self-contained HTML fragment (a ``<figure>`` with inline
SVG, a ``<title>`` for screen readers, a legend and a caption in words), or None for a feedback of
an unknown ``kind`` or version, or one that is malformed. Every string in it is escaped. The BFS
wave of ``lee`` and ``lines`` can be stepped through with ``static/pictures.js`` (``SCRIPT``); the
picture shows every layer without it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path

from markupsafe import Markup

from judge.pictures import answer, basic, grid, queens, snakes
from judge.pictures.svg import Malformed

SCRIPT = Path(__file__).parent / "static" / "pictures.js"
VERSION = 1
RENDERERS: dict[str, Callable[[dict], Markup]] = {
    "lee": partial(grid.render, "lee"),
    "lines": partial(grid.render, "lines"),
    "snakes": snakes.render,
    "basic": basic.render,
    "queens": queens.render,
    "answer": answer.render,  # generic: a new package's custom checker (judge problem new)
}
log = logging.getLogger(__name__)


def render_picture(feedback: object) -> Markup | None:
    """The picture of one test's answer from its checker feedback (a dict with ``kind`` and
    ``version``), or None when there is nothing to draw: no feedback, an unknown kind or version,
    or a feedback whose shape is wrong (logged, never raised)."""
    if not isinstance(feedback, dict) or feedback.get("version") != VERSION:
        return None
    kind = feedback.get("kind")
    renderer = RENDERERS.get(kind) if isinstance(kind, str) else None
    if renderer is None:
        return None
    try:
        return renderer(feedback)
    except (Malformed, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        log.info("no picture for a %s feedback: %s", kind, exc)
        return None
