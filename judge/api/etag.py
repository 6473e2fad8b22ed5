"""Conditional GET (RFC 9110 §8.8.3 ``ETag``, §13.1.2 ``If-None-Match``): a JSON answer tagged with
the SHA-256 of its bytes, and 304 Not Modified, with no body, to a client that already holds them.

The tag is computed from the answer itself, so it changes exactly when any byte the client would see
changes (a verdict, a test's result, a score, the queue position) and never otherwise. The answer
still has to be built to be tagged: a 304 saves the client's download and parsing, and the bytes
on the wire; following a submission is cheapest over the event stream (``/api/v1/submissions/{id}/events``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel

# the answer depends on who asks; a shared cache must not hand one user's copy to another
HEADERS = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}
# the OpenAPI entry of the 304 answer
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {304: {"description": "unchanged since the ETag sent in If-None-Match"}}


def tag_of(body: bytes) -> str:
    """The strong entity tag of ``body``: the first 128 bits of its SHA-256, hex, quoted."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def matches(header: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` value (``*`` or a comma-separated list of tags, weak ones
    ``W/``-prefixed) names ``tag``; the comparison is weak, as RFC 9110 §13.1.2 prescribes for it."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(part.strip().removeprefix("W/") == tag for part in header.split(","))


def tagged_json(request: Request, model: BaseModel) -> Response:
    """``model`` as a JSON answer with its ``ETag``; 304 without a body when the request's
    ``If-None-Match`` names that tag."""
    body = model.model_dump_json().encode("utf-8")
    tag = tag_of(body)
    headers = {"ETag": tag, **HEADERS}
    if matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
