"""What every teacher page shares: only teachers and admins get in (the API's ``jury_user`` rule,
``judge.auth.is_jury``), every form checks its CSRF token, refusals of a form come back on the
page as one line, and times typed in the viewer's own time zone.

Times: the browser sends ``datetime-local`` values (``2026-12-01T09:00``) and, filled in by
``teacher.js``, the viewer's IANA time zone in the field ``tz`` (UTC when the script did not run, and
the form then says so).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import Depends, HTTPException
from fastapi.responses import RedirectResponse
from pydantic import ValidationError

from judge.auth import is_jury
from judge.models import User
from judge.web.session import check_csrf, signed_in

csrf = [Depends(check_csrf)]


class FormError(ValueError):
    """Input a teacher's form cannot use: the one-line reason shown above the form."""


async def jury_viewer(user: User = Depends(signed_in)) -> User:
    """The signed-in teacher or admin; 403 (a page) for a student."""
    if not is_jury(user):
        raise HTTPException(403, "only a teacher or an admin may open the teacher's pages")
    return user


def redirect(path: str) -> RedirectResponse:
    """See-other to ``path`` (after a form POST, so a reload does not send it again)."""
    return RedirectResponse(path, status_code=303)


def validation_message(exc: ValidationError) -> str:
    """A pydantic refusal as one line: ``field: reason; …``."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'form'}: {e['msg']}" for e in exc.errors())


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name`` (IANA, e.g. ``Europe/Bucharest``); raises FormError for an unknown one."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # OSError: a name no file system takes
        raise FormError(f"unknown time zone {name[:64]!r}") from exc


def local_time(label: str, text: str, tz: ZoneInfo, required: bool = True) -> datetime | None:
    """A ``datetime-local`` value typed in time zone ``tz``, as an aware time; None for an empty
    optional one. Raises FormError naming ``label`` for an empty required one or one that is no time."""
    text = text.strip()
    if not text:
        if required:
            raise FormError(f"{label}: please give a date and time")
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise FormError(f"{label}: {text!r} is not a date and time (YYYY-MM-DD HH:MM)") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=tz)
