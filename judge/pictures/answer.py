"""Pictures of a short answer (kind ``answer``): the judge's answer beside the student's, the first
wrong token marked. The generic picture of a new package (``judge problem new``'s custom checker
writes it) until the problem has a picture of its own kind.

Feedback fields (version 1): ``expected`` (the judge's answer as text, at most 200 characters),
``received`` (the student's answer as read, at most 200 characters, or null when there was none),
``accepted``, ``fault`` (null or ``{reason, token}``: a short reason in words and the token at fault,
each at most 200 characters).
"""

from __future__ import annotations

from markupsafe import Markup

from judge.pictures.svg import FAULT, SHORTEST, STUDENT, Malformed, accepted_and_fault, element, figure, text

LIMIT = 200
WIDTH, ROW = 480, 34


def short_text(value: object, what: str) -> str:
    """``value`` if it is a str of at most LIMIT characters; else Malformed."""
    if not isinstance(value, str) or len(value) > LIMIT:
        raise Malformed(f"{what}: a string of at most {LIMIT} characters")
    return value


def shown(words: str) -> str:
    """``words`` cut to fit one row of the picture."""
    return words if len(words) <= 48 else words[:47] + "…"


def render(feedback: dict) -> Markup:
    """The figure for an answer feedback; raises Malformed."""
    expected = short_text(feedback.get("expected"), "expected")
    received = feedback.get("received")
    received = None if received is None else short_text(received, "received")
    accepted, fault = accepted_and_fault(feedback)
    if fault is not None:
        fault = {"reason": short_text(fault.get("reason"), "reason"), "token": short_text(fault.get("token"), "token")}
    colour = STUDENT if fault is None else FAULT
    body = []
    for row, (label, words, tint) in enumerate(
        [("judge", expected, SHORTEST), ("student", "(nothing)" if received is None else received, colour)]
    ):
        top = 8 + row * (ROW + 8)
        body.append(element("rect", x=110, y=top, width=WIDTH - 118, height=ROW, fill="#ffffff", stroke=tint))
        body.append(text(100, top + ROW / 2, label, 13, fill=tint, text_anchor="end", font_weight="bold"))
        body.append(text(120, top + ROW / 2, shown(words), 14, text_anchor="start", font_family="monospace"))
    if fault is not None:
        body.append(text(WIDTH - 16, 8 + ROW + 8 + ROW / 2, "✗", 16, fill=FAULT, class_="picture-fault"))
    if accepted:
        caption = f"Accepted: {shown(received or expected)}."
    elif fault is None:
        caption = "Wrong answer."
    else:
        caption = f"Wrong answer: {fault['reason']}" + (f" (at {shown(fault['token'])!r})." if fault["token"] else ".")
    return figure(
        "answer",
        "The judge's answer and the student's",
        WIDTH,
        2 * ROW + 24,
        body,
        caption,
        legend=[(SHORTEST, "the judge's answer"), (colour, "the student's answer")],
    )
