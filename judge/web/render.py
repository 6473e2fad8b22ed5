"""Turning data into HTML: the Jinja environment (autoescape on: every piece of user text is escaped),
statements from Markdown, and times the browser shows in the viewer's own time zone.

Statements: Markdown (CommonMark plus tables, through markdown-it-py) with raw HTML off, then the
result cleaned by nh3 (the ammonia sanitiser's allow-list), so a package's statement can add no
script, style or event handler. Rendered statements are cached by (package SHA-256, language).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import nh3
from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup

from judge.config import REPO_ROOT
from judge.web.session import CSRF_FIELD, csrf_token, set_cookies

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
PICTURES_STATIC = REPO_ROOT / "judge" / "pictures" / "static"  # the answer pictures' own scripts
STATEMENT_CACHE = 64  # statements kept rendered: (package, language) pairs


@lru_cache(maxsize=STATEMENT_CACHE)
def statement_html(package_sha256: str, language: str, markdown: str) -> tuple[str | None, Markup]:
    """A statement's title (its leading ``# heading``, None without one; the page shows it as its
    own heading) and the rest of its Markdown as sanitised HTML. Cached by package and language."""
    title = None
    first, _, rest = markdown.lstrip().partition("\n")
    if first.startswith("# "):
        title, markdown = first[2:].strip(), rest
    return title, Markup(nh3.clean(_markdown.render(markdown)))


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
