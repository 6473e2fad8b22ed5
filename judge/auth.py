"""Accounts and access: Argon2id password hashes, bearer tokens, roles, and the FastAPI dependencies
that turn an ``Authorization: Bearer <token>`` header into a ``User``.

- Passwords: Argon2id (RFC 9106) through argon2-cffi's ``PasswordHasher`` with its default
  parameters; a hash made with older parameters is replaced at the next login.
- Tokens: 32 random bytes (URL-safe text) handed out once by ``POST /api/v1/auth/token`` (the OAuth2
  password flow, RFC 6749 §4.3, so /docs can log in); the database keeps only their SHA-256, so a
  copy of it grants nothing. A token lasts ``TOKEN_LIFETIME``. Its row in ``api_tokens`` is the one
  source of truth: logging out deletes the row, a new password or a deactivation deletes all of the
  user's rows (``end_tokens``), and ``User.active`` is checked beside it. Any host and any process of
  the service therefore sees a revocation at the very next request, with no cache to wait out.
- Checking a token costs no round trip of its own where the request writes anyway: ``token_owner``
  is a SQL subquery that the writing statement embeds (``judge.accept.accept_by_token``: the rate
  limit's UPDATE of the user row names the user as "the owner of this live token"), so the check,
  the revocation and the write are one statement and one snapshot. A token signed by the service
  (an HMAC) would save that subquery only by trusting a cached revocation list or generation
  number, which lets a token revoked by another process through until the cache is refreshed;
  reading the generation instead costs the same lookup as the token row itself. Requests that only
  read look the token up in one statement with the user (``user_for_token``).
- Roles: ``judge.vocabulary.Role``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request
from fastapi.security import OAuth2PasswordBearer
from sqlalchemy import ColumnElement, ScalarSelect, bindparam, delete, func, select
from sqlalchemy.orm import Session

from judge import board
from judge.clock import utcnow
from judge.models import ApiToken, Contest, User
from judge.schemas import storable
from judge.throttle import LoginThrottle
from judge.vocabulary import Role

JURY_ROLES = (Role.ADMIN, Role.TEACHER)
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_DISPLAY_NAME = 200  # characters: what users.display_name holds
TOKEN_LIFETIME = timedelta(hours=12)
NO_TOKEN = "log in first: POST /api/v1/auth/token, then send Authorization: Bearer <token>"
BAD_TOKEN = "token unknown or expired; log in again at POST /api/v1/auth/token"
GENERATED_PASSWORD_BYTES = 9  # 12 URL-safe characters: easy to type, 72 random bits

_hasher = PasswordHasher()
# verified against when the user name is unknown, so a wrong name costs the same time as a wrong password
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))
_bearer = OAuth2PasswordBearer(tokenUrl="/api/v1/auth/token", auto_error=False)


class AccountError(ValueError):
    """A user that cannot be created: bad name or role, or the name is taken."""


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (a PHC string, ``$argon2id$v=19$…``)."""
    return _hasher.hash(password)


def generate_password() -> str:
    """A fresh random password: 12 URL-safe characters."""
    return secrets.token_urlsafe(GENERATED_PASSWORD_BYTES)


def check_account(
    name: str, role: str = Role.STUDENT, password: str | None = None, display_name: str | None = None
) -> None:
    """Raise AccountError for a name outside ``[A-Za-z0-9_.-]`` (1-64 characters, not starting with
    ``_.-``), a display name over ``MAX_DISPLAY_NAME`` characters, an unknown role or an empty
    password. Looks at no database."""
    if not USER_NAME.fullmatch(name):
        raise AccountError(f"user name {name!r}: use 1-64 letters, digits, '_', '.', '-'")
    if display_name is not None and len(display_name) > MAX_DISPLAY_NAME:
        raise AccountError(f"the display name is {len(display_name)} characters long: at most {MAX_DISPLAY_NAME}")
    if role not in tuple(Role):
        raise AccountError(f"role {role!r}: one of {', '.join(Role)}")
    if password is not None and not password:
        raise AccountError(f"user {name}: empty password")


def prepare_user(
    name: str, role: str = Role.STUDENT, display_name: str | None = None, password: str | None = None
) -> tuple[User, str | None]:
    """A new user, not yet in any session, with its password hashed, and the generated password
    (None when ``password`` was given). Hashing is the slow part (Argon2 is made to be slow) and
    touches no database: callers hash every account before their transaction takes the write lock.

    Raises AccountError as ``check_account``.
    """
    check_account(name, role, password, display_name)
    generated = generate_password() if password is None else None
    user = User(
        name=name,
        role=role,
        display_name=display_name or name,
        password_hash=hash_password(generated or password or ""),
    )
    return user, generated


def same_name(name: str) -> ColumnElement[bool]:
    """SQL condition: a user's name is ``name`` whatever the case (``Alice`` is ``alice``): one
    name per person, as the unique index on ``lower(name)`` keeps it."""
    return func.lower(User.name) == name.lower()


def named_any(names: Iterable[str]) -> ColumnElement[bool]:
    """SQL condition: a user's name is one of ``names`` whatever the case (see ``same_name``);
    match the rows found to the names by ``name.lower()``."""
    return func.lower(User.name).in_({name.lower() for name in names})


def taken_names(session: Session, names: list[str]) -> dict[str, str]:
    """The names among ``names`` already in the database, compared whatever their case: the
    lower-cased name → the name as stored."""
    lowered = {n.lower() for n in names}
    return {n.lower(): n for n in session.scalars(select(User.name).where(func.lower(User.name).in_(lowered)))}


def taken_reason(session: Session, name: str) -> str:
    """Why ``name`` cannot be a new user's (``first_taken`` found it): it exists, maybe in another
    case, which the reason names, or it came earlier in the same list."""
    stored = taken_names(session, [name]).get(name.lower())
    if stored is None or stored == name:
        return f"user {name} already exists"
    return f"user {name} already exists as {stored} (a user name is the same whatever its case)"


def first_taken(session: Session, names: list[str]) -> int | None:
    """The position in ``names`` of the first name already in the database or earlier in ``names``,
    compared whatever their case; None when all are free."""
    existing = taken_names(session, names)
    seen: set[str] = set()
    for position, name in enumerate(names):
        if name.lower() in existing or name.lower() in seen:
            return position
        seen.add(name.lower())
    return None


def add_users(session: Session, users: list[User]) -> None:
    """Add ``users`` (from ``prepare_user``) to ``session``, flushed, not committed.

    A new student takes part in every contest open to all students: their board versions are bumped
    (``judge.board.bump``). Raises AccountError naming the first name already taken (or repeated);
    then nothing is added.
    """
    taken = first_taken(session, [u.name for u in users])
    if taken is not None:
        raise AccountError(taken_reason(session, users[taken].name))
    session.add_all(users)
    session.flush()
    if any(u.role == Role.STUDENT for u in users):
        board.bump(session, session.scalars(select(Contest.id).where(Contest.all_students.is_(True))).all())


def create_user(
    session: Session, name: str, role: str = Role.STUDENT, display_name: str | None = None, password: str | None = None
) -> tuple[User, str | None]:
    """Add a user (flushed, not committed); returns it and the generated password (None when
    ``password`` was given; the caller shows it once, it is stored nowhere). The password is hashed
    before ``session`` writes anything.

    Raises AccountError as ``check_account``, or when the name is taken.
    """
    check_account(name, role, password, display_name)
    if first_taken(session, [name]) is not None:  # before the slow hash
        raise AccountError(taken_reason(session, name))
    user, generated = prepare_user(name, role, display_name, password)
    add_users(session, [user])
    return user, generated


def set_password(session: Session, user: User, password: str | None = None) -> str | None:
    """Replace ``user``'s password (generated when None; returned then) and end its tokens."""
    generated = generate_password() if password is None else None
    user.password_hash = hash_password(generated or password or "")
    end_tokens(session, user)
    return generated


def end_tokens(session: Session, user: User) -> None:
    """Delete every token of ``user`` (not committed): its sessions end at its next request."""
    session.execute(delete(ApiToken).where(ApiToken.user_id == user.id))


def check_login(session: Session, logins: LoginThrottle, name: str, password: str, address: str) -> User | None:
    """The account ``name`` (whatever its case: ``same_name``) if ``password`` is its password, else
    None, counted by ``logins`` per account (whatever the case too, so changing it buys no more
    tries) and per client ``address``: the one way a password is checked, for the API's token, the
    sign-in page and the Contest API's HTTP Basic alike. A name or password the database cannot
    store (a NUL) is a failure. Raises Throttled (429) when the account or the address has failed
    too often lately (``judge.throttle.LoginThrottle``); a rehashed password is not committed."""
    account = name.lower()
    logins.check(account, address)
    user = authenticate(session, name, password) if storable(name) and storable(password) else None
    if user is None:
        logins.failed(account, address)
        return None
    logins.succeeded(account)
    return user


def authenticate(session: Session, name: str, password: str) -> User | None:
    """The user whose name (whatever its case: ``same_name``) and password match, else None (same
    work for an unknown name); None too for a deactivated account (``User.active``), whatever the
    password.

    Rehashes (not committed) a hash made with outdated Argon2 parameters.
    """
    user = session.scalar(select(User).where(same_name(name)))
    try:
        _hasher.verify(user.password_hash if user else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    if user is None or not user.active:
        return None
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(session: Session, user: User, lifetime: timedelta = TOKEN_LIFETIME) -> tuple[str, datetime]:
    """A new bearer token for ``user`` and its expiry (UTC); committed. Expired tokens are swept."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    session.execute(delete(ApiToken).where(ApiToken.expires_at < now))
    session.add(ApiToken(token_sha256=_digest(token), user_id=user.id, created_at=now, expires_at=now + lifetime))
    session.commit()
    return token, now + lifetime


# the id of the user whose live token has the SHA-256 ``token_sha256`` at ``now`` (``token_owner``)
_TOKEN_OWNER = (
    select(ApiToken.user_id)
    .where(ApiToken.token_sha256 == bindparam("token_sha256"), ApiToken.expires_at > bindparam("now"))
    .scalar_subquery()
)
_LIVE_USER = (
    select(User)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(
        ApiToken.token_sha256 == bindparam("token_sha256"),
        ApiToken.expires_at > bindparam("now"),
        User.active.is_(True),
    )
)


def token_owner() -> ScalarSelect[int]:
    """SQL scalar subquery: the id of the user whose token is live at the parameter ``now`` (UTC):
    the token whose SHA-256 is the parameter ``token_sha256`` (``token_parameters``) is known (not
    logged out, not ended by a new password or a deactivation) and not expired; NULL otherwise.
    Whether the user is active is the caller's condition on its own row. One object, built once,
    so that statements embedding it are built once too."""
    return _TOKEN_OWNER


def token_parameters(token: str) -> dict[str, str]:
    """The parameters ``token_owner`` reads for bearer ``token`` (all but ``now``)."""
    return {"token_sha256": _digest(token)}


def user_for_token(session: Session, token: str) -> User | None:
    """The user a live token belongs to, else None (unknown, expired, or its account deactivated)."""
    return session.scalar(_LIVE_USER, {**token_parameters(token), "now": utcnow()})


def revoke_token(session: Session, token: str) -> None:
    """End a token (log out); committed."""
    session.execute(delete(ApiToken).where(ApiToken.token_sha256 == _digest(token)))
    session.commit()


def is_jury(user: User | None) -> bool:
    """Admins and teachers are jury: they may always submit (kept off scoreboards) and see more."""
    return user is not None and user.role in JURY_ROLES


# -- FastAPI dependencies --------------------------------------------------------------------------
async def db_session(request: Request):
    """A database session from the app's session factory (``app.state.sessions``), closed after the
    request. Async so that FastAPI needs no worker-thread hop for it: opening a session does no I/O."""
    with request.app.state.sessions() as session:
        yield session


def optional_user(token: str | None = Depends(_bearer), session: Session = Depends(db_session)) -> User | None:
    """The caller's user, None without a token; 401 for a token that is unknown or expired."""
    if token is None:
        return None
    user = user_for_token(session, token)
    if user is None:
        raise token_refused()
    return user


async def bearer_token(token: str | None = Depends(_bearer)) -> str:
    """The caller's bearer token, not yet checked: for a route that checks it inside its own
    statement (``token_owner``) and answers 401 itself when it is not live. 401 without a token."""
    if token is None:
        raise HTTPException(401, NO_TOKEN, headers={"WWW-Authenticate": "Bearer"})
    return token


def token_refused() -> HTTPException:
    """The 401 for a token that is unknown, expired, ended or whose account is deactivated."""
    return HTTPException(401, BAD_TOKEN, headers={"WWW-Authenticate": "Bearer"})


async def current_user(user: User | None = Depends(optional_user)) -> User:
    """The caller's user; 401 with ``WWW-Authenticate: Bearer`` without a token."""
    if user is None:
        raise HTTPException(401, NO_TOKEN, headers={"WWW-Authenticate": "Bearer"})
    return user


async def jury_user(user: User = Depends(current_user)) -> User:
    """The caller, who must be a teacher or an admin; 403 for a student."""
    if not is_jury(user):
        raise HTTPException(403, "only a teacher or an admin may do this")
    return user


def ensure_admin(session: Session, name: str = "admin") -> str | None:
    """On a database with no account yet, create the admin ``name`` and return its generated password
    (to be shown once); None when accounts exist already. Committed."""
    if session.scalar(select(User.id).limit(1)) is not None:
        return None
    _, password = create_user(session, name, Role.ADMIN, "Administrator")
    session.commit()
    return password
