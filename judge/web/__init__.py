"""The class in the browser: server-rendered pages (Jinja2) over the same rules as the API.

``include_web_routes(app)`` mounts the pages (``judge.web.pages``, ``judge.web.clarifications``; the
teacher's under ``/teacher``,
``judge.web.teacher``), our stylesheet and script
(``judge/web/static``), the front-end files installed from npm (``node_modules``, pinned by
``package-lock.json``; ``make install`` runs ``npm ci``) under ``/static/vendor``, the pictures' own
script where that package has one, the site's icon at ``/favicon.ico`` too, and the HTML 404 page for
paths outside ``/api``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.api.problems import upload_body_limit
from judge.config import REPO_ROOT
from judge.web import clarifications, teacher
from judge.web.pages import router
from judge.web.render import PICTURES_STATIC
from judge.web.routing import html_not_found
from judge.web.teacher import problems as teacher_problems

STATIC = Path(__file__).resolve().parent / "static"
NODE_MODULES = REPO_ROOT / "node_modules"
# URL folder → the npm package's folder holding the files a page loads
VENDOR = {"htmx": NODE_MODULES / "htmx.org" / "dist", "htmx-ext-sse": NODE_MODULES / "htmx-ext-sse" / "dist"}


def include_web_routes(app: FastAPI) -> None:
    """Mount the pages and their static files on ``app`` (see the module docstring)."""
    app.include_router(router)
    app.include_router(clarifications.router)
    app.include_router(teacher.router)
    app.include_router(teacher_problems.upload_router, max_body_size=upload_body_limit(app.state.settings))
    app.mount("/static/web", StaticFiles(directory=STATIC), name="web-static")
    for name, folder in VENDOR.items():
        # check_dir=False: without `npm ci` the pages still work, without their live updates
        app.mount(f"/static/vendor/{name}", StaticFiles(directory=folder, check_dir=False), name=f"vendor-{name}")
    app.mount("/static/pictures", StaticFiles(directory=PICTURES_STATIC, check_dir=False), name="pictures-static")
    app.add_api_route("/favicon.ico", favicon, include_in_schema=False)
    app.add_exception_handler(StarletteHTTPException, html_not_found)


def favicon() -> FileResponse:
    """The site's icon (``static/favicon.svg``, which every page links) at the address browsers ask
    for without a link (``/favicon.ico``); they read an SVG there by its media type."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})
