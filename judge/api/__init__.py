"""The HTTP API (FastAPI; OpenAPI at /docs), one module per resource in the manner of DOMjudge's
``Controller/API/*Controller.php``: ``auth``, ``users``, ``problems``, ``languages``,
``submissions``, ``contests``, ``scoreboards``, ``events``, ``operations``, and the ICPC Contest
API at ``/api/ccs`` (``ccs``, ``ccs_feed``; HTTP Basic or bearer). ``create_app`` only
assembles them.

Access (rules in ``judge.contests``): every endpoint needs a bearer token (``POST
/api/v1/auth/token``) except the problem statements, which are public unless their contest has not
started yet, and the scoreboard of a contest whose scoreboard is public.

Bad input never crashes the service: unknown problem → 404, unknown or unavailable language → 422,
empty source → 422, source over 64 KiB → 413 (a body over 1 MiB is refused before it is parsed,
chunked ones as they arrive); ids outside the database's INTEGER range, text with a NUL character or
a lone surrogate, times outside 1970-3000 → 422 (``judge.schemas``; tests in ``tests/hostile``).
"""

from __future__ import annotations

from fastapi import FastAPI

from judge.api import (
    auth,
    ccs,
    ccs_feed,
    contests,
    events,
    languages,
    operations,
    problems,
    scoreboards,
    submissions,
    users,
)
from judge.api.errors import install_error_handlers
from judge.config import Settings, load_settings
from judge.db import make_engine, make_sessionmaker

MAX_BODY_BYTES = 1 << 20
# ccs_feed before ccs: its paths would otherwise match the Contest API's generic collection route
ROUTERS = (auth, users, problems, languages, submissions, contests, scoreboards, events, operations, ccs_feed, ccs)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the API app for ``settings`` (from the environment by default); ``app.state`` holds the
    settings, the engine and the session factory.

    The database must already be migrated (``judge serve`` and ``judge db upgrade`` do it).
    """
    settings = settings or load_settings()
    engine = make_engine(settings.database_url)
    app = FastAPI(
        title="classjudge",
        version="0.1.0",
        max_body_size=MAX_BODY_BYTES,  # 413 past 1 MiB, chunked too
        description="Online judge for class contests: submit, follow verdicts, read problems.",
    )
    app.state.settings, app.state.engine, app.state.sessions = settings, engine, make_sessionmaker(engine)
    install_error_handlers(app)
    for module in ROUTERS:
        app.include_router(module.router)
    return app
