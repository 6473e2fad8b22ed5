"""A guard in front of every route: a JSON request body nested deeper than ``MAX_JSON_DEPTH`` arrays
and objects is answered 422 before anything parses it. Parsers, validators and error handlers all
walk a document recursively, and about 1,000 levels (a 2 KB body) exhaust Python's stack anywhere on
that path; no request of this API needs more than a few levels.

The body is scanned as it arrives (``DepthScanner``), chunk by chunk, so the guard holds no copy of it;
bodies that FastAPI would not read as JSON (a form, a content type other than JSON) pass unscanned.
"""

from __future__ import annotations

import re

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_JSON_DEPTH = 32
_SPECIAL = re.compile(rb'[\[\]{}"\\]')


class DepthScanner:
    """Follows the nesting depth of a JSON text fed in pieces (``feed``); brackets inside strings do
    not count. Raises HTTPException(422) once the depth passes ``limit``. Not a validator: whatever
    it lets through, the JSON parser still judges."""

    def __init__(self, limit: int = MAX_JSON_DEPTH):
        self.limit = limit
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the previous byte was a backslash inside a string

    def feed(self, chunk: bytes) -> None:
        """Scan the next piece of the text."""
        end_of_escape = 0  # a backslash escapes the one byte after it, special or not
        if self.escaped and chunk:
            self.escaped, end_of_escape = False, 1
        for match in _SPECIAL.finditer(chunk, end_of_escape):
            position, char = match.start(), match.group()
            if position < end_of_escape:
                continue
            if self.in_string:
                if char == b"\\":
                    end_of_escape = position + 2
                    self.escaped = end_of_escape > len(chunk)
                elif char == b'"':
                    self.in_string = False
            elif char == b'"':
                self.in_string = True
            elif char in b"[{":
                self.depth += 1
                if self.depth > self.limit:
                    raise HTTPException(422, f"JSON body nested deeper than {self.limit} levels")
            elif char in b"]}":
                self.depth -= 1


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return True  # FastAPI reads a body without a content type as JSON


class JsonDepthGuard:
    """ASGI middleware: scans JSON request bodies with ``DepthScanner`` as the app reads them. The
    HTTPException it raises from ``receive`` reaches FastAPI while it reads the body, which answers
    it like any HTTPException (422, ``{"detail": …}``)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_JSON_DEPTH):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        scanner = DepthScanner(self.limit)

        async def scanned() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                scanner.feed(message.get("body", b""))
            return message

        await self.app(scope, scanned, send)
