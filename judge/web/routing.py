"""Pages answer refusals with pages: ``PageRoute`` turns an HTTPException, a contest or class rule's refusal
or invalid path/query values raised by a page into an HTML page with the same status (401 shows the
sign-in form, 429 the reason and the wait counted down), where the API answers JSON.
``html_not_found`` does the same for a path no route knows, outside ``/api``.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.classes import ClassRuleError
from judge.contests import ContestRuleError, RateLimited
from judge.throttle import Throttled
from judge.web.render import page
from judge.web.session import session_token

TITLES = {
    400: "Bad request",
    401: "Please sign in",
    403: "Not allowed",
    404: "Not found",
    409: "Not possible now",
    413: "Too large",
    422: "Cannot use this input",
    429: "Please wait",
}


def is_local_path(path: str | None) -> bool:
    """Whether ``path`` is a path of this site a link or redirect may go to: ``/…``, but neither
    ``//host`` nor ``/\\host`` (which browsers read as another site's address)."""
    return path is not None and path.startswith("/") and not path.startswith("//") and "\\" not in path


def local_path(path: str | None) -> str:
    """``path`` when ``is_local_path``, else ``/``."""
    return path if path and is_local_path(path) else "/"


def from_htmx(request: Request) -> bool:
    """Whether ``request`` is htmx fetching the live part of a page (it sends ``HX-Request: true``),
    not a visit the browser's address bar or a link made."""
    return request.headers.get("hx-request") == "true"


def referring_page(request: Request) -> str | None:
    """The path and query of the page that sent ``request`` (its ``Referer``) when that page is on
    this site (same scheme, host and port, and a local path: ``is_local_path``), else None."""
    referer = urlsplit(request.headers.get("referer", ""))
    if (referer.scheme, referer.netloc) != (request.url.scheme, request.url.netloc) or not is_local_path(referer.path):
        return None
    return referer.path + (f"?{referer.query}" if referer.query else "")


def status_and_reason(exc: HTTPException | ContestRuleError | ClassRuleError) -> tuple[int, str]:
    """The HTTP status and the one-line reason of a refusal, whichever kind it is."""
    if isinstance(exc, HTTPException):
        return exc.status_code, str(exc.detail)
    return exc.status, exc.message


def error_page(request: Request, status: int, message: str, retry_after_s: int | None = None) -> Response:
    """The page for a refusal: its title, the reason, and what to do next (sign in, wait, or go back
    to the page of this site the request came from, or to the start page)."""
    user = None
    token = session_token(request)
    if token:  # the navigation shows who is signed in, when someone is
        from judge.auth import user_for_token

        with request.app.state.sessions() as session:
            user = user_for_token(session, token)
    headers = {"Retry-After": str(retry_after_s)} if retry_after_s else None
    return page(
        request,
        "error.html",
        status=status,
        headers=headers,
        user=user,
        status_code=status,
        title=TITLES.get(status, "Something went wrong"),
        message=message,
        retry_after_s=retry_after_s,
        next_path=request.url.path,
        back_path=referring_page(request),
    )


class PageRoute(APIRoute):
    """A route whose refusals are HTML pages (see the module docstring)."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def page_handler(request: Request) -> Response:
            try:
                return await handler(request)
            except HTTPException as exc:
                return error_page(request, exc.status_code, str(exc.detail))
            except (RateLimited, Throttled) as exc:
                return error_page(request, 429, exc.reason, exc.retry_after_s)  # the page counts the wait
            except (ContestRuleError, ClassRuleError) as exc:
                return error_page(request, exc.status, exc.message)
            except RequestValidationError:
                return error_page(request, 404, "this address names nothing here")

        return page_handler


async def html_not_found(request: Request, exc: Exception) -> Response:
    """Unknown paths outside ``/api`` get the HTML 404 page; everything else FastAPI's JSON answer,
    but for the body limit's refusal (a 413 of Starlette's own, not a FastAPI ``HTTPException`` of our
    code), which goes back up to ``judge.api.body_limit.BodyLimit`` to be answered."""
    assert isinstance(exc, StarletteHTTPException)  # registered for these only
    if exc.status_code == 413 and not isinstance(exc, HTTPException):
        raise exc
    if exc.status_code == 404 and not request.url.path.startswith("/api/"):
        return error_page(request, 404, f"there is no page at {request.url.path}")
    return await http_exception_handler(request, exc)
