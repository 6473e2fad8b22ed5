"""Conditional GET (RFC 9110 §8.8.3 ``ETag``, §13.1.2 ``If-None-Match``): a JSON answer tagged with
a strong entity tag of its version, and 304 Not Modified, with no body, to a client that holds it.

The caller names the version: a few values read cheaply (a row's columns, a count of stored
children) that together fix every byte of the answer, so the tag changes exactly when the answer
would. A 304 is then answered from that small read alone, before the answer is built.
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


def tag_of(version: tuple) -> str:
    """The strong entity tag of ``version`` (a tuple of str, int, float, bool, None, datetime or
    enum values): the first 128 bits of the SHA-256 of its ``repr``, hex, quoted."""
    return '"' + hashlib.sha256(repr(version).encode("utf-8")).hexdigest()[:32] + '"'


def matches(header: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` value (``*`` or a comma-separated list of tags, weak ones
    ``W/``-prefixed) names ``tag``; the comparison is weak, as RFC 9110 §13.1.2 prescribes for it."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(part.strip().removeprefix("W/") == tag for part in header.split(","))


def not_modified(request: Request, tag: str) -> Response | None:
    """304 without a body when the request's ``If-None-Match`` names ``tag``; None otherwise."""
    if matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers={"ETag": tag, **HEADERS})
    return None


def tagged_json(model: BaseModel, tag: str) -> Response:
    """``model`` as a JSON answer carrying ``tag``, the tag of the version it was built from."""
    return Response(model.model_dump_json(), media_type="application/json", headers={"ETag": tag, **HEADERS})
