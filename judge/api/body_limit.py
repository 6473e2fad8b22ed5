"""The request body limit, refused in our own words.

Starlette's ``RequestBodyLimitMiddleware`` counts a request's body as it is read (or refuses it at
once by its ``Content-Length``) and lets a route raise the limit (``include_router(max_body_size=…)``,
as the package upload does). Its refusal is a bare ``text/plain`` "Content Too Large". ``BodyLimit``
runs that same middleware and puts in place of its refusal ours: under ``/api/`` a JSON refusal in
the route's error form (``judge.api.errors.refusal``) saying the limit, elsewhere the page
``page_answer`` makes (``judge.web.pages.too_large_page``).

It takes the place of FastAPI's app-wide ``max_body_size``, which runs outside every user middleware,
where nothing can reword its answer. A route that meets the limit lets Starlette's own exception
(an ``HTTPException`` of Starlette's, not FastAPI's) go up to it (``judge.web.routing.html_not_found``).
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.middleware.body_limit import MAX_BODY_SIZE_SCOPE_KEY, RequestBodyLimitMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.api.errors import refusal

BARE_ANSWER = b"Content Too Large"  # the body of Starlette's refusal
SUBMISSIONS = "/api/v1/submissions"
PageAnswer = Callable[[Request, int], Response]  # (the request, its limit in bytes) → the page


def too_large_message(request: Request, limit_bytes: int) -> str:
    """Why ``request``, whose body is over ``limit_bytes``, is refused: the limit, and the source's
    own limit on ``POST /api/v1/submissions``."""
    message = f"the request body is over {limit_bytes} bytes ({mebibytes(limit_bytes)}), the most this address reads"
    if request.url.path == SUBMISSIONS:
        message += f"; a source may be at most {request.app.state.settings.max_source_bytes} bytes"
    return message


def mebibytes(size_bytes: int) -> str:
    """``size_bytes`` in MiB for people: ``1 MiB``, ``2.5 MiB``."""
    return f"{size_bytes / 1024 / 1024:.3g} MiB"


class BodyLimit:
    """ASGI middleware: Starlette's body limit of ``max_body_bytes`` (unless a route sets its own),
    its refusal answered by ``too_large_answer`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, page_answer: PageAnswer):
        self.app = RequestBodyLimitMiddleware(app, max_body_bytes)
        self.max_body_bytes = max_body_bytes
        self.page_answer = page_answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None  # the start of a text/plain 413, until its body shows whose it is
        answered = False

        async def reword(message: Message) -> None:
            nonlocal held, answered
            if answered:
                return
            if message["type"] == "http.response.start" and message["status"] == 413 and _plain_text(message):
                held = message
                return
            if held is not None:
                if message.get("body") == BARE_ANSWER and not message.get("more_body"):
                    answered = True
                    limit = scope.get(MAX_BODY_SIZE_SCOPE_KEY, self.max_body_bytes)  # the route's own, if it set one
                    response = await run_in_threadpool(self.too_large_answer, Request(scope), limit)
                    await response(scope, receive, send)
                    return
                await send(held)
                held = None
            await send(message)

        await self.app(scope, receive, reword)

    def too_large_answer(self, request: Request, limit_bytes: int) -> Response:
        """The 413 for a body over ``limit_bytes``: JSON under ``/api/``, else ``page_answer``'s page."""
        if request.url.path.startswith("/api/"):
            return refusal(request, 413, too_large_message(request, limit_bytes))
        return self.page_answer(request, limit_bytes)


def _plain_text(start: Message) -> bool:
    return any(k == b"content-type" and v.startswith(b"text/plain") for k, v in start.get("headers", ()))
