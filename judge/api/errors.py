"""How refusals become HTTP answers: a contest rule's refusal (``ContestRuleError``) with its status
(429 with ``Retry-After``), and a request that fails validation as 422 with FastAPI's usual body,
ASCII-escaped and strict JSON."""

from __future__ import annotations

import json
import math

from fastapi import FastAPI, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from judge.contests import ContestRuleError, RateLimited


def install_error_handlers(app: FastAPI) -> None:
    """Map ``ContestRuleError`` and ``RequestValidationError`` to their JSON answers on ``app``."""
    app.add_exception_handler(ContestRuleError, _refused)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]


async def _refused(_request: Request, exc: ContestRuleError) -> Response:
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, RateLimited) else None
    return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=headers)


async def _invalid_request(_request: Request, exc: RequestValidationError) -> Response:
    """422 with FastAPI's usual body, ASCII-escaped and strict: the input it echoes may hold a lone
    surrogate (no UTF-8 form) or 1e999 (no JSON form), which FastAPI's own handler answers with a 500."""
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
