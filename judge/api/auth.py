"""``/api/v1/auth``: trade a user name and password for a bearer token, end it, and who am I.
Failed logins are counted per account and per client address (``judge.throttle.LoginThrottle``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import BaseModel
from sqlalchemy.orm import Session

from judge.api.errors import answers
from judge.api.users import UserOut, user_out
from judge.auth import check_login, current_user, db_session, issue_token, revoke_token
from judge.models import User
from judge.schemas import UtcStamp
from judge.throttle import client_address

router = APIRouter(prefix="/api/v1/auth", tags=["auth"])


class TokenOut(BaseModel):
    """A bearer token (OAuth2 ``token_type`` bearer), its expiry (UTC) and whose it is."""

    access_token: str
    token_type: str = "bearer"
    expires_at: UtcStamp
    user: UserOut


@router.post("/token", response_model=TokenOut, responses=answers(401, 429))
def log_in(request: Request, form: OAuth2PasswordRequestForm = Depends(), session: Session = Depends(db_session)):
    """Trade a user name and password (form fields ``username``, ``password``) for a bearer token.
    401 for a wrong name or password; 429 with ``Retry-After`` after too many failures for the
    account (default 5) or the client address (100: a class may share one) within the login
    window (300 s)."""
    user = check_login(session, request.app.state.logins, form.username, form.password, client_address(request))
    if user is None:
        raise HTTPException(401, "wrong user name or password", headers={"WWW-Authenticate": "Bearer"})
    token, expires = issue_token(session, user)
    return TokenOut(access_token=token, expires_at=expires, user=user_out(user))


@router.post("/logout", status_code=204)
def log_out(request: Request, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """End the token this request carries."""
    revoke_token(session, request.headers["authorization"].split(None, 1)[1])


@router.get("/me", response_model=UserOut)
def me(user: User = Depends(current_user)):
    """The logged-in account."""
    return user_out(user)
