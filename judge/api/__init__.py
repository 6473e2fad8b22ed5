"""The HTTP API (FastAPI; OpenAPI at /docs), one module per resource in the manner of DOMjudge's
``Controller/API/*Controller.php``: ``auth``, ``users``, ``classes``, ``problems``, ``languages``,
``submissions``, ``contests``, ``clarifications``, ``scoreboards``, ``events``, ``operations``, ``similarity``,
``downloads`` (problem set and slips PDF, sources zip), and the ICPC Contest
API at ``/api/ccs`` (``ccs``, ``ccs_feed``; HTTP Basic or bearer). ``create_app`` only
assembles them.

Access (rules in ``judge.contests``): every endpoint needs a bearer token (``POST
/api/v1/auth/token``) except the problem statements, which are public unless their contest has not
started yet, and the scoreboard of a contest whose scoreboard is public.

Bad input never crashes the service: unknown problem → 404, unknown or unavailable language → 422,
empty source → 422, source over 64 KiB → 413 (a body over 1 MiB is refused before it is parsed,
chunked ones as they arrive, with a message saying the limit: ``judge.api.body_limit``); ids
outside the database's INTEGER range, text with a NUL character or a lone surrogate, times outside
1970-3000 → 422 (``judge.schemas``; tests in ``tests/hostile``); a JSON body nested deeper than 32
levels → 422 before it is parsed (``judge.api.json_depth``); a busy database → 503 with
``Retry-After`` (``judge.api.errors``). Failed logins and open event streams are limited
(``judge.throttle``); slow clients are timed out by the server (``judge.serving``).
"""

from __future__ import annotations

from types import ModuleType

from fastapi import FastAPI

from judge.api import (
    auth,
    ccs,
    ccs_feed,
    clarifications,
    classes,
    contests,
    downloads,
    events,
    languages,
    operations,
    problems,
    scoreboards,
    similarity,
    submissions,
    users,
)
from judge.api.body_limit import BodyLimit
from judge.api.errors import document_statuses, install_error_handlers
from judge.api.json_depth import MAX_JSON_DEPTH, JsonDepthGuard
from judge.config import Settings, load_settings
from judge.db import make_engine, make_sessionmaker
from judge.throttle import LoginThrottle, StreamSlots

MAX_BODY_BYTES = 1 << 20
# ccs_feed before ccs: its paths would otherwise match the Contest API's generic collection route
# submissions first: the most frequent request is matched against the fewest routes
ROUTERS: tuple[ModuleType, ...] = (submissions, auth, users, classes, problems, languages, contests)
ROUTERS += (clarifications, scoreboards, events, operations, similarity, downloads, ccs_feed, ccs)


def describe(settings: Settings) -> str:
    """The OpenAPI description: what the API is for and the limits this server enforces."""
    return (
        "Online judge for class contests: submit, follow verdicts, read problems.\n\n"
        f"Limits: a body of at most 1 MiB (413; a package zip upload: {settings.max_package_bytes} bytes), "
        "a JSON body nested at most "
        f"{MAX_JSON_DEPTH} levels (422), a source of at most {settings.max_source_bytes} bytes (413); "
        f"a request must arrive whole within {settings.request_read_timeout_s:g} s (408); one submission "
        f"per student every {settings.submit_interval_s:g} s (429); "
        f"{settings.max_streams_per_user} open event streams per account and "
        f"{settings.max_streams_per_address} without a token per address (429), polling at most every "
        f"{settings.min_poll_s:g} s; {settings.login_failures_per_account} failed logins per account and "
        f"{settings.login_failures_per_address} per address within {settings.login_window_s:g} s (429). "
        "Every 429 and 503 carries Retry-After (seconds). A busy database is 503: nothing was stored."
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the API app for ``settings`` (from the environment by default); ``app.state`` holds the
    settings, the engine, the session factory, the login throttle, the open streams' count, the
    submissions' batcher and the API's routes.

    The database must already be migrated (``judge serve`` and ``judge db upgrade`` do it).
    """
    settings = settings or load_settings()
    engine = make_engine(settings.database_url, ping=False)  # a dropped connection: one 503, no round trip per request
    app = FastAPI(
        title="classjudge",
        version="0.1.0",
        description=describe(settings),
    )
    app.state.settings, app.state.engine, app.state.sessions = settings, engine, make_sessionmaker(engine)
    app.state.logins = LoginThrottle(
        app.state.sessions,
        settings.login_failures_per_account,
        settings.login_failures_per_address,
        settings.login_window_s,
    )
    app.state.streams = StreamSlots(app.state.sessions)
    app.state.submits = submissions.submit_batcher(app.state)
    app.add_middleware(JsonDepthGuard)
    install_error_handlers(app)
    app.state.routes = [route for module in ROUTERS for route in module.router.routes]  # 405's Allow
    app.state.routes += problems.upload_router.routes
    document_statuses(app.state.routes)
    for module in ROUTERS:
        app.include_router(module.router)
    app.include_router(problems.upload_router, max_body_size=problems.upload_body_limit(settings))
    from judge.web import include_web_routes  # imported here: the pages import the API's views
    from judge.web.pages import too_large_page

    include_web_routes(app)  # the pages: /, /login, /problems/…, /contests/… (judge.web)
    # outside every other middleware, as FastAPI's own limit would be: 413 past 1 MiB, chunked too
    app.add_middleware(BodyLimit, max_body_bytes=MAX_BODY_BYTES, page_answer=too_large_page)
    return app
