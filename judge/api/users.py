"""``/api/v1/users``: the accounts (teachers and admins): list, create one, import a class, reset a
password, deactivate and reactivate. Who may do which is ``judge.users``', who sees whom
``judge.classes``' (an account the caller does not see answers 404)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, HTTPException
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge import users
from judge.api.errors import answers
from judge.auth import MAX_DISPLAY_NAME, USER_NAME, AccountError, db_session, jury_user
from judge.classes import seen_user, users_seen
from judge.models import User
from judge.schemas import MAX_IMPORTED_USERS, RequestBody, Text

router = APIRouter(prefix="/api/v1", tags=["users"])


class UserIn(RequestBody):
    """A new account; without ``password`` one is generated and returned once."""

    name: Text = Field(min_length=1, max_length=64)
    display_name: Text | None = Field(default=None, max_length=MAX_DISPLAY_NAME)
    role: Literal["admin", "teacher", "student"] = "student"  # the values of Role
    password: Text | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("name")
    @classmethod
    def _whole_name(cls, name: str) -> str:
        # USER_NAME ends in "$", which re.match lets pass before a final newline: "ana\n" is no name
        if USER_NAME.fullmatch(name) is None:
            raise ValueError("use 1-64 letters, digits, '_', '.', '-', starting with a letter or digit")
        return name


class UserOut(BaseModel):
    """An account as the API shows it (never its password hash); ``active`` false once deactivated."""

    id: int
    name: str
    display_name: str
    role: str
    active: bool


class UserCreated(BaseModel):
    """A created account and its generated password (null when one was given): shown this once."""

    user: UserOut
    password: str | None


def user_out(user: User) -> UserOut:
    """The API view of an account."""
    return UserOut(id=user.id, name=user.name, display_name=user.display_name, role=user.role, active=user.active)


def _create_accounts(session: Session, creator: User, accounts: list[UserIn]) -> list[UserCreated]:
    """``judge.users.create_accounts`` as HTTP: all or none (passwords hashed before the write
    lock); 403 when a teacher creates anything but students, 409 for a taken name, 422 for a bad one."""
    try:
        created = users.create_accounts(
            session, creator, [users.NewAccount(a.name, a.display_name, a.role, a.password) for a in accounts]
        )
        session.commit()
    except users.NotAllowed as exc:
        raise HTTPException(403, str(exc)) from exc
    except AccountError as exc:
        session.rollback()
        raise HTTPException(409 if "exists" in str(exc) else 422, str(exc)) from exc
    except IntegrityError as exc:  # a name taken since the check
        session.rollback()
        raise HTTPException(409, "a user name was taken meanwhile; nobody was created") from exc
    return [UserCreated(user=user_out(user), password=password) for user, password in created]


@router.get("/users", response_model=list[UserOut], responses=answers(403))
def list_users(user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """The accounts the caller sees: every one for an admin; for a teacher itself, its classes'
    students and the students in no class (``judge.classes.users_seen``)."""
    return [user_out(u) for u in session.scalars(select(User).where(users_seen(user)).order_by(User.role, User.name))]


@router.post("/users", status_code=201, response_model=UserCreated, responses=answers(403, 409))
def add_user(body: UserIn, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Create an account (teachers: students only); a generated password is returned once."""
    return _create_accounts(session, user, [body])[0]


@router.post("/users/import", status_code=201, response_model=list[UserCreated], responses=answers(403, 409))
def import_users(
    body: Annotated[list[UserIn], Body(max_length=MAX_IMPORTED_USERS)],
    user: User = Depends(jury_user),
    session: Session = Depends(db_session),
):
    """Create a whole class at once (all or none); generated passwords are returned once."""
    return _create_accounts(session, user, body)


class PasswordOut(BaseModel):
    """A new generated password: shown this once."""

    user: UserOut
    password: str


@router.post("/users/{name}/password", response_model=PasswordOut)
def reset_password(name: str, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Give the account ``name`` a new generated password and end its tokens: an admin anyone's, a
    teacher a student's it sees (403 otherwise); 404 for a name the caller does not see."""
    target = seen_user(session, user, name)
    try:
        password = users.reset_password(session, user, target)
    except users.NotAllowed as exc:
        raise HTTPException(403, str(exc)) from exc
    session.commit()
    return PasswordOut(user=user_out(target), password=password)


def _set_active(session: Session, actor: User, name: str, active: bool) -> UserOut:
    target = seen_user(session, actor, name)
    try:
        users.set_active(session, actor, target, active)
    except users.NotAllowed as exc:
        raise HTTPException(403, str(exc)) from exc
    session.commit()
    return user_out(target)


@router.post("/users/{name}/deactivate", response_model=UserOut, responses=answers(403, 404))
def deactivate(name: str, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Deactivate the account ``name``: its tokens end at once and it cannot sign in; its
    submissions stay (on scoreboards too). An admin any account but its own, a teacher a student it
    sees (403 otherwise); 404 for a name the caller does not see."""
    return _set_active(session, user, name, False)


@router.post("/users/{name}/reactivate", response_model=UserOut, responses=answers(403, 404))
def reactivate(name: str, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Let a deactivated account ``name`` sign in again (its old tokens stay ended); who may: as
    ``deactivate``."""
    return _set_active(session, user, name, True)
