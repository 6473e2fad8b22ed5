"""``/api/v1/users``: the accounts (teachers and admins): list, create one, import a class, reset a
password. Who may do which is ``judge.users``'."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, HTTPException
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge import users
from judge.api.errors import answers
from judge.auth import USER_NAME, AccountError, db_session, jury_user
from judge.models import User
from judge.schemas import MAX_IMPORTED_USERS, RequestBody, Text, storable

router = APIRouter(prefix="/api/v1", tags=["users"])


class UserIn(RequestBody):
    """A new account; without ``password`` one is generated and returned once."""

    name: Text = Field(min_length=1, max_length=64)
    display_name: Text | None = Field(default=None, max_length=200)
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
    """An account as the API shows it (never its password hash)."""

    id: int
    name: str
    display_name: str
    role: str


class UserCreated(BaseModel):
    """A created account and its generated password (null when one was given): shown this once."""

    user: UserOut
    password: str | None


def user_out(user: User) -> UserOut:
    """The API view of an account."""
    return UserOut(id=user.id, name=user.name, display_name=user.display_name, role=user.role)


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
    """Every account (teachers and admins)."""
    return [user_out(u) for u in session.scalars(select(User).order_by(User.role, User.name))]


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
    teacher a student's (403 otherwise); 404 for an unknown name."""
    target = session.scalar(select(User).where(User.name == name)) if storable(name) else None
    if target is None:
        raise HTTPException(404, f"no user {name!r}")
    try:
        password = users.reset_password(session, user, target)
    except users.NotAllowed as exc:
        raise HTTPException(403, str(exc)) from exc
    session.commit()
    return PasswordOut(user=user_out(target), password=password)
