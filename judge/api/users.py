"""``/api/v1/users``: the accounts (teachers and admins): list, create one, import a class."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, HTTPException
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.api.errors import answers
from judge.auth import (
    USER_NAME,
    AccountError,
    add_users,
    check_account,
    db_session,
    first_taken,
    jury_user,
    prepare_user,
)
from judge.models import User
from judge.schemas import MAX_IMPORTED_USERS, Text
from judge.vocabulary import Role

router = APIRouter(prefix="/api/v1", tags=["users"])


class UserIn(BaseModel):
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
    """Create all of ``accounts`` or none: 403 when a teacher creates anything but students, 409 for
    a taken name, 422 for a bad one. Every password is hashed before the transaction writes, so the
    database's write lock is held for the inserts only, not for seconds of Argon2."""
    if creator.role != Role.ADMIN and any(a.role != Role.STUDENT for a in accounts):
        raise HTTPException(403, "a teacher may create student accounts only")
    try:
        for account in accounts:
            check_account(account.name, account.role, account.password)
        taken = first_taken(session, [a.name for a in accounts])
        if taken is not None:  # before the slow hashing
            raise AccountError(f"user {accounts[taken].name} already exists")
        session.rollback()  # end the read transaction: the hashing below takes a while
        prepared = [prepare_user(a.name, a.role, a.display_name, a.password) for a in accounts]
        add_users(session, [user for user, _ in prepared])
        session.commit()
    except AccountError as exc:
        session.rollback()
        raise HTTPException(409 if "exists" in str(exc) else 422, str(exc)) from exc
    except IntegrityError as exc:  # a name taken since the check
        session.rollback()
        raise HTTPException(409, "a user name was taken meanwhile; nobody was created") from exc
    return [UserCreated(user=user_out(user), password=password) for user, password in prepared]


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
