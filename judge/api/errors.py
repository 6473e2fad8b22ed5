"""How refusals become HTTP answers, and the statuses every route documents.

- a contest rule's refusal (``ContestRuleError``) with its status (429 with ``Retry-After``), and a
  class rule's (``judge.classes.ClassRuleError``) with its status;
- ``Throttled`` (too many failed logins or open streams): 429 with ``Retry-After``;
- a busy or unreachable database (a lock held too long, a full pool, a serialization failure):
  503 with ``Retry-After``, one log line, nothing half-stored (the session rolls back);
- a request that fails validation: 422 with FastAPI's usual body, ASCII-escaped and strict JSON;
- 405 with an ``Allow`` header naming every method the path takes (Starlette names only those of
  the first route that matched the path).

A refusal's body is ``{"detail": <text>}`` (``ErrorOut``), or ``{"code": <status>, "message": <text>}``
(``SpecErrorOut``) on a route whose class sets ``error_form = SpecErrorOut`` (the ICPC Contest API,
``judge.api.ccs``). ``document_statuses`` adds the statuses every route may answer to the OpenAPI schema.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from judge.api.json_depth import MAX_JSON_DEPTH
from judge.auth import bearer_token, current_user, jury_user, optional_user
from judge.classes import ClassRuleError
from judge.contests import ContestRuleError, RateLimited
from judge.throttle import Throttled

log = logging.getLogger("judge.api")
BUSY_RETRY_S = 2  # a lock is held for one short transaction: the client tries again soon


class ErrorOut(BaseModel):
    """A refusal: one line saying why."""

    detail: str


class InvalidOut(BaseModel):
    """An invalid request: one line saying why, or FastAPI's list of the fields at fault (each with
    ``loc``, ``msg``, ``type`` and the ``input`` given)."""

    detail: str | list[dict[str, Any]]


class SpecErrorOut(BaseModel):
    """A refusal in the ICPC Contest API's form (``Contest_API.md``, "Success, Failure, and HTTP
    Responses"): the HTTP status and one line saying why (for 422, each field at fault and why)."""

    code: int
    message: str


STATUS_MEANINGS = {
    400: "the body cannot be read",
    401: "no token, or one unknown or expired",
    403: "the caller may not do this",
    404: "no such row, or none the caller may see",
    405: "the path does not take this method (``Allow`` names those it takes)",
    408: "the request did not arrive within the read timeout",
    409: "the name is taken",
    413: "body over 1 MiB, or source over the source limit",
    422: f"invalid request (a JSON body nests at most {MAX_JSON_DEPTH} levels)",
    429: "too many requests of this kind: wait ``Retry-After`` seconds",
    503: "the database is busy or unreachable: nothing was stored; retry after ``Retry-After`` seconds",
}


def answers(*statuses: int, form: type[BaseModel] | None = None) -> dict[int | str, dict]:
    """OpenAPI ``responses`` entries for ``statuses``: the meaning and a JSON body, ``form`` if given,
    else ``ErrorOut`` (``InvalidOut`` for 422), as JSON even on a route that answers CSV when it succeeds."""
    return {
        status: {
            "description": STATUS_MEANINGS[status],
            "content": {
                "application/json": {
                    "schema": (form or (InvalidOut if status == 422 else ErrorOut)).model_json_schema()
                }
            },
        }
        for status in statuses
    }


def refusal(request: Request, status: int, message: str, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON refusal of ``request`` in its route's error form (``ErrorOut`` unless the route's
    ``error_form`` is ``SpecErrorOut``), ASCII-escaped."""
    spec = getattr(request.scope.get("route"), "error_form", ErrorOut) is SpecErrorOut
    body = {"code": status, "message": message} if spec else {"detail": message}
    return Response(json.dumps(body, ensure_ascii=True), status, headers, media_type="application/json")


def install_error_handlers(app: FastAPI) -> None:
    """Map refusals, a busy database, validation failures and 405s to their answers on ``app``."""
    app.add_exception_handler(ContestRuleError, _refused)  # type: ignore[arg-type]
    app.add_exception_handler(ClassRuleError, _refused)  # type: ignore[arg-type]
    app.add_exception_handler(Throttled, _throttled)  # type: ignore[arg-type]
    app.add_exception_handler(OperationalError, _busy)
    app.add_exception_handler(PoolTimeout, _busy)
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(405, _method_not_allowed)  # type: ignore[arg-type]


def document_statuses(routes: list[APIRoute]) -> None:
    """Add to each of ``routes``' OpenAPI answers the statuses it can give whatever its code: 401
    where it reads a token (a wrong one is refused even where none is needed), 403 where it needs a
    teacher, 404 where its path names a row, 400, 413 and 422 where it reads a body, 422 where it
    takes parameters, 503 everywhere (a busy database), each in the route's ``error_form`` if it has
    one. Path and query parameters count whether the route or one of its dependencies reads them.
    Other route-specific ones (403, 409, 429) are declared on the routes. Call it before the app's
    first request: FastAPI reads the routes then."""
    for route in routes:
        dependencies = [route.dependant, *_all_dependencies(route.dependant)]
        called = {d.call for d in dependencies}
        path_params = [p for d in dependencies for p in d.path_params]
        query_params = [p for d in dependencies for p in d.query_params]
        extra = [503]
        if called & {optional_user, current_user, jury_user, bearer_token}:
            extra.append(401)
        if jury_user in called:
            extra.append(403)
        if path_params:
            extra.append(404)
        if route.body_field is not None:
            extra += [400, 413, 422]
        elif query_params or path_params:
            extra.append(422)
        for status, entry in answers(*extra, form=getattr(route, "error_form", None)).items():
            route.responses.setdefault(status, entry)


def _all_dependencies(dependant):
    for sub in dependant.dependencies:
        yield sub
        yield from _all_dependencies(sub)


async def _refused(request: Request, exc: ContestRuleError | ClassRuleError) -> Response:
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, RateLimited) else None
    return refusal(request, exc.status, exc.message, headers)


async def _throttled(request: Request, exc: Throttled) -> Response:
    return refusal(request, 429, exc.message, {"Retry-After": str(exc.retry_after_s)})


async def _busy(request: Request, exc: Exception) -> Response:
    # one line, not a traceback: under load many requests meet the same lock
    log.warning("%s %s: database busy or unreachable: %s", request.method, request.url.path, str(exc).splitlines()[0])
    message = "the database is busy; nothing was stored: try again shortly"
    return refusal(request, 503, message, {"Retry-After": str(BUSY_RETRY_S)})


async def _method_not_allowed(request: Request, exc: StarletteHTTPException) -> Response:
    allowed: set[str] = set()
    for route in request.app.state.routes:
        match, _ = route.matches({**request.scope, "method": ""})
        if match != Match.NONE:
            allowed |= route.methods
    headers = {"Allow": ", ".join(sorted(allowed))} if allowed else dict(exc.headers or {})
    return refusal(request, 405, str(exc.detail), headers)


async def _invalid_request(request: Request, exc: RequestValidationError) -> Response:
    """422 with FastAPI's usual body, ASCII-escaped and strict: the input it echoes may hold a lone
    surrogate (no UTF-8 form) or 1e999 (no JSON form), which FastAPI's own handler answers with a 500.
    On a route in the specification's form, the message names each field at fault and why (no input)."""
    if getattr(request.scope.get("route"), "error_form", ErrorOut) is SpecErrorOut:
        faults = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return refusal(request, 422, faults)
    body = json.dumps({"detail": _json_safe(jsonable_encoder(exc.errors()))}, ensure_ascii=True, allow_nan=False)
    return Response(body, status_code=422, media_type="application/json")


def _json_safe(value: object) -> object:
    """``value`` (JSON-like) with every infinite or NaN float as text: JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    return value
