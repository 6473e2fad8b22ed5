"""The teacher's accounts page: the accounts the viewer sees (``judge.classes.users_seen``), create
one, import accounts from an uploaded CSV, reset a password, deactivate and reactivate an account.
Who may do which is ``judge.users``' (as for ``/api/v1/users``). A generated
password is shown once, on the answer to the form, as printable slips (one per student: name,
password, where to sign in); it is stored nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Depends, Form, Request, UploadFile
from fastapi.responses import Response
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import users
from judge.api.users import UserIn
from judge.auth import AccountError, db_session
from judge.classes import ClassRuleError, seen_user, users_seen
from judge.models import User
from judge.schemas import MAX_IMPORTED_USERS
from judge.vocabulary import Role
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import FormError, csrf, jury_viewer, redirect, validation_message

router = APIRouter(route_class=PageRoute, include_in_schema=False)
MAX_CSV_BYTES = 256 * 1024  # a class of 2000 is far less


@dataclass
class UsersForm:
    """What the page shows again after a refusal: the reason, and the one-account form as typed."""

    error: str | None = None
    name: str = ""
    display_name: str = ""
    role: str = Role.STUDENT


def _users_page(
    request: Request, session: Session, user: User, form: UsersForm | None = None, status: int = 200
) -> Response:
    accounts = session.scalars(select(User).where(users_seen(user)).order_by(User.role, User.name)).all()
    roles = [r for r in Role if users.may_manage(user, r)]
    return page(
        request,
        "teacher/users.html",
        status=status,
        user=user,
        accounts=accounts,
        roles=roles,
        form=form or UsersForm(),
    )


async def uploaded_accounts(file: UploadFile | None) -> list[users.NewAccount]:
    """The accounts of an uploaded class CSV (``judge.users.parse_class_csv``): 1 to
    ``MAX_IMPORTED_USERS`` of them. Raises FormError with the reason for no file, one over
    ``MAX_CSV_BYTES``, one that is not UTF-8, a bad row (named) or too many rows."""
    data = await file.read(MAX_CSV_BYTES + 1) if file is not None and file.filename else b""
    if not data:
        raise FormError("choose a CSV file: one student a line, name, display name, optional password")
    if len(data) > MAX_CSV_BYTES:
        raise FormError(f"the file is over {MAX_CSV_BYTES // 1024} KiB")
    try:
        accounts = users.parse_class_csv(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise FormError(f"the file is not UTF-8 text (byte {exc.start}): save it as CSV UTF-8") from exc
    except AccountError as exc:
        raise FormError(f"{exc}; nobody was imported") from exc
    if not accounts:
        raise FormError("the file names no student; nobody was imported")
    if len(accounts) > MAX_IMPORTED_USERS:
        raise FormError(f"at most {MAX_IMPORTED_USERS} students at once; nobody was imported")
    return accounts


def slips(request: Request, user: User, created: list[tuple[User, str | None]], title: str) -> Response:
    """The page of printable password slips of ``created`` (user, generated password or None), not cached."""
    return page(
        request,
        "teacher/slips.html",
        headers={"Cache-Control": "no-store"},  # the passwords: not kept by the browser's cache
        user=user,
        created=created,
        title=title,
        sign_in_url=str(request.base_url).rstrip("/") + "/login",
    )


@router.get("/teacher/users")
def users_page(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """Every account, and the forms to create one, import a class and reset a password."""
    return _users_page(request, session, user)


@router.post("/teacher/users", dependencies=csrf)
def create_one(
    request: Request,
    name: str = Form(""),
    display_name: str = Form(""),
    role: str = Form(Role.STUDENT),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Create one account (the API's ``UserIn`` rules; a teacher: students only) and show its slip."""
    form = UsersForm(name=name, display_name=display_name, role=role)
    try:
        body = UserIn(name=name.strip(), display_name=display_name.strip() or None, role=role)  # type: ignore[arg-type]
        created = users.create_accounts(session, user, [users.NewAccount(body.name, body.display_name, body.role)])
    except ValidationError as exc:
        form.error = validation_message(exc)
        return _users_page(request, session, user, form, 422)
    except users.NotAllowed as exc:
        form.error = str(exc)
        return _users_page(request, session, user, form, 403)
    except AccountError as exc:
        session.rollback()
        form.error = str(exc)
        return _users_page(request, session, user, form, 409 if "exists" in str(exc) else 422)
    session.commit()
    return slips(request, user, created, f"New account {name}")


@router.post("/teacher/users/import", dependencies=csrf)
async def import_class(
    request: Request,
    file: UploadFile | None = None,
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Create every student of an uploaded class CSV (``judge.users.parse_class_csv``), all or none,
    and show their password slips; a bad file is answered on the page, naming the row."""
    try:
        created = users.create_accounts(session, user, await uploaded_accounts(file))
    except FormError as exc:
        return _users_page(request, session, user, UsersForm(error=str(exc)), 422)
    except (AccountError, users.NotAllowed) as exc:
        session.rollback()
        return _users_page(request, session, user, UsersForm(error=f"{exc}; nobody was imported"), 422)
    session.commit()
    return slips(request, user, created, f"{len(created)} new accounts from {file.filename if file else ''}")


@router.post("/teacher/users/{name}/password", dependencies=csrf)
def reset_password(
    request: Request, name: str, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Give the account a new generated password (``judge.users.reset_password``) and show its slip."""
    try:
        target = seen_user(session, user, name)
    except ClassRuleError as exc:
        return _users_page(request, session, user, UsersForm(error=exc.message), exc.status)
    try:
        password = users.reset_password(session, user, target)
    except users.NotAllowed as exc:
        return _users_page(request, session, user, UsersForm(error=str(exc)), 403)
    session.commit()
    return slips(request, user, [(target, password)], f"New password of {name}")


@router.post("/teacher/users/{name}/{change}", dependencies=csrf)
def set_active(
    request: Request, name: str, change: str, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Deactivate (``change`` ``deactivate``: its tokens end, it cannot sign in, its submissions stay)
    or reactivate (``reactivate``) an account (``judge.users.set_active``), then show the accounts."""
    if change not in ("deactivate", "reactivate"):
        return _users_page(request, session, user, UsersForm(error=f"no action {change[:20]!r}"), 404)
    try:
        users.set_active(session, user, seen_user(session, user, name), change == "reactivate")
    except ClassRuleError as exc:
        return _users_page(request, session, user, UsersForm(error=exc.message), exc.status)
    except users.NotAllowed as exc:
        return _users_page(request, session, user, UsersForm(error=str(exc)), 403)
    session.commit()
    return redirect("/teacher/users")
