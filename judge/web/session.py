"""Who is looking at a page: the session cookie, and the CSRF token every form carries.

- Session: the HttpOnly, SameSite=Lax cookie ``classjudge_session`` holds the bearer token the API
  issues (``judge.auth.issue_token``), so a page and the API agree on who is signed in, for how long,
  and a log-out anywhere ends both. The API itself still reads only the ``Authorization`` header:
  a cookie never authorises an API call.
- CSRF: the double-submit pattern (OWASP CSRF Prevention Cheat Sheet): a random token in the cookie
  ``classjudge_csrf`` must come back as the form field ``csrf_token`` of every POST; a POST without it,
  or with another one, is refused with 403 before anything else runs. Another site can make the
  browser send the cookie but can neither read it nor guess it.
"""

from __future__ import annotations

import hmac
import secrets

from fastapi import Depends, HTTPException, Request, Response
from sqlalchemy.orm import Session

from judge.auth import TOKEN_LIFETIME, db_session, is_jury, user_for_token
from judge.models import User
from judge.schemas import storable

SESSION_COOKIE = "classjudge_session"
CSRF_COOKIE = "classjudge_csrf"
CSRF_FIELD = "csrf_token"
CSRF_BYTES = 32


def session_token(request: Request) -> str | None:
    """The bearer token the session cookie carries, if any."""
    token = request.cookies.get(SESSION_COOKIE)
    return token if token and storable(token) else None


def viewer(request: Request, session: Session = Depends(db_session)) -> User | None:
    """The signed-in user of a page request, or None (no cookie, or its token ended)."""
    token = session_token(request)
    return user_for_token(session, token) if token else None


async def signed_in(user: User | None = Depends(viewer)) -> User:
    """The signed-in user; 401 (the sign-in page) without one."""
    if user is None:
        raise HTTPException(401, "sign in to see this page")
    return user


async def signed_in_jury(user: User = Depends(signed_in)) -> User:
    """The signed-in teacher or admin; 401 without a session, 403 for a student."""
    if not is_jury(user):
        raise HTTPException(403, "only a teacher or an admin may see this page")
    return user


def csrf_token(request: Request) -> str:
    """This browser's CSRF token: the cookie's, or a fresh one (set on the response by ``page``)."""
    token = request.cookies.get(CSRF_COOKIE) or getattr(request.state, "new_csrf", None)
    if not token:
        token = request.state.new_csrf = secrets.token_urlsafe(CSRF_BYTES)
    return token


async def check_csrf(request: Request) -> None:
    """Refuse (403) a form POST whose ``csrf_token`` field is missing or differs from the cookie."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = (await request.form()).get(CSRF_FIELD)
    if not cookie or not isinstance(sent, str) or not hmac.compare_digest(sent.encode(), cookie.encode()):
        raise HTTPException(403, "this form has expired or did not come from this site: reload the page and try again")


def set_cookies(request: Request, response: Response, token: str | None = None) -> None:
    """Put a fresh CSRF token (if one was made for this page) and a session ``token`` on ``response``."""
    secure = request.url.scheme == "https"
    new_csrf = getattr(request.state, "new_csrf", None)
    if new_csrf:
        response.set_cookie(CSRF_COOKIE, new_csrf, httponly=True, samesite="lax", secure=secure)
    if token is not None:
        max_age = int(TOKEN_LIFETIME.total_seconds())
        response.set_cookie(SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="lax", secure=secure)


def end_session(response: Response) -> None:
    """Drop both cookies (log out): the next form gets a fresh CSRF token."""
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)
