"""Turning data into HTML: the Jinja environment (autoescape on: every piece of user text is escaped),
statements from Markdown, and times the browser shows in the viewer's own time zone.

Statements: Markdown or LaTeX turned into HTML by ``judge.package.statements`` (raw HTML off, the
result cleaned by nh3, the ammonia sanitiser's allow-list), so a package's statement can add no
script, style or event handler; its pictures are served from ``/problems/<id>/statement/<file>``.
Rendered statements are cached by (package SHA-256, language).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from judge.config import REPO_ROOT
from judge.package import statements
from judge.web.session import CSRF_FIELD, csrf_token, set_cookies

PICTURES_STATIC = REPO_ROOT / "judge" / "pictures" / "static"  # the answer pictures' own scripts
STATEMENT_CACHE = 64  # statements kept rendered: (package, language) pairs


@lru_cache(maxsize=STATEMENT_CACHE)
def statement_html(package_sha256: str, language: str, problem_id: str, path: Path) -> tuple[str | None, Markup]:
    """The title of the statement in file ``path`` (``\\problemname`` or its leading ``# heading``;
    None without one; the page shows it as its own heading) and its body as sanitised HTML, pictures
    pointing at ``/problems/<problem_id>/statement/<file>``. Cached by package and language.

    Raises PackageError when the LaTeX cannot be read."""

    def image_url(name: str) -> str:
        return f"/problems/{problem_id}/statement/{name}"

    return statements.statement_title(path), Markup(statements.statement_html(path, image_url))


def iso_utc(moment: datetime | None) -> str:
    """A naive-UTC database time as ISO 8601 with its zone (``2026-12-01T09:00:00+00:00``)."""
    return moment.replace(tzinfo=UTC).isoformat() if moment else ""


def when(moment: datetime | None) -> Markup:
    """A ``<time>`` element: UTC in the page, turned into the viewer's local time by app.js."""
    if moment is None:
        return Markup("—")
    return Markup('<time datetime="{}" data-local>{} UTC</time>').format(iso_utc(moment), f"{moment:%Y-%m-%d %H:%M}")


def countdown(moment: datetime | None) -> Markup:
    """A ``<span>`` app.js counts down to ``moment`` every second (``h:mm:ss``)."""
    if moment is None:
        return Markup("")
    return Markup('<span class="countdown" data-countdown="{}">{} UTC</span>').format(
        iso_utc(moment), f"{moment:%Y-%m-%d %H:%M}"
    )


def picture_scripts(folder: Path) -> list[str]:
    """The scripts the answer pictures bring (``judge/pictures/static/*.js``), by file name."""
    return sorted(p.name for p in folder.glob("*.js")) if folder.is_dir() else []


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("judge.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    env.filters["countdown"] = countdown
    env.globals["csrf_field"] = CSRF_FIELD
    env.globals["picture_scripts"] = picture_scripts(PICTURES_STATIC)
    return env


templates = _environment()


def page(request: Request, template: str, status: int = 200, headers: dict | None = None, **context) -> HTMLResponse:
    """Render ``template`` with ``context`` plus ``request`` and ``csrf`` (the form token) into a
    response with ``status``; sets the CSRF cookie when this browser had none."""
    html = templates.get_template(template).render(request=request, csrf=csrf_token(request), **context)
    response = HTMLResponse(html, status_code=status, headers=headers)
    set_cookies(request, response)
    return response
