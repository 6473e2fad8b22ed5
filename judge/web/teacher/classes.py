"""The teacher's classes: the list with a form to create one, and a class's page (its students, put
existing students in it by name, upload a class CSV that also creates the new ones and shows their
password slips, take one out, rename, delete). Who sees and manages which class is
``judge.classes``' (as for ``/api/v1/classes``): another teacher's class answers 404.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Form, Request, UploadFile
from fastapi.responses import Response
from sqlalchemy.orm import Session

from judge import classes as rules
from judge import users
from judge.auth import AccountError, db_session
from judge.models import SchoolClass, User
from judge.schemas import PathId
from judge.web.render import page
from judge.web.routing import PageRoute
from judge.web.teacher.access import FormError, csrf, jury_viewer, redirect
from judge.web.teacher.users import slips, uploaded_accounts

router = APIRouter(route_class=PageRoute, include_in_schema=False)


def _list_page(request: Request, session: Session, user: User, error: str | None = None, status: int = 200) -> Response:
    shown = [
        (c, rules.teacher_name(session, c), len(rules.students(session, c))) for c in rules.classes_for(session, user)
    ]
    return page(request, "teacher/classes.html", status=status, user=user, classes=shown, error=error)


def _class_page(
    request: Request,
    session: Session,
    user: User,
    school_class: SchoolClass,
    error: str | None = None,
    status: int = 200,
) -> Response:
    return page(
        request,
        "teacher/class.html",
        status=status,
        user=user,
        school_class=school_class,
        teacher=rules.teacher_name(session, school_class),
        students=rules.students(session, school_class),
        error=error,
    )


def _changed(
    request: Request, session: Session, user: User, class_id: int, change: Callable[[SchoolClass], object]
) -> Response:
    """Apply ``change`` (a ``judge.classes`` rule) to the class ``class_id`` the viewer manages, commit,
    and go back to the class's page; a refusal shows the page with the reason, nothing changed."""
    try:
        change(rules.managed_class(session, user, class_id))
        session.commit()
    except rules.ClassRuleError as exc:
        session.rollback()
        school_class = rules.managed_class(session, user, class_id)
        return _class_page(request, session, user, school_class, exc.message, exc.status)
    return redirect(f"/teacher/classes/{class_id}")


@router.get("/teacher/classes")
def class_list(request: Request, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """The classes the viewer sees (its own; every one for an admin) and the form to create one."""
    return _list_page(request, session, user)


@router.post("/teacher/classes", dependencies=csrf)
def create_class(
    request: Request, name: str = Form(""), user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """Create a class owned by the viewer and open its page; a refusal shows the list with the reason."""
    try:
        school_class = rules.create_class(session, user, name)
        session.commit()
    except rules.ClassRuleError as exc:
        session.rollback()
        return _list_page(request, session, user, exc.message, exc.status)
    return redirect(f"/teacher/classes/{school_class.id}")


@router.get("/teacher/classes/{class_id}")
def class_page(
    request: Request, class_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)
):
    """A class the viewer manages: its students and the forms that change it."""
    return _class_page(request, session, user, rules.managed_class(session, user, class_id))


@router.post("/teacher/classes/{class_id}/students", dependencies=csrf)
def add_students(
    request: Request,
    class_id: PathId,
    names: str = Form(""),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Put the existing students named in the form (separated by spaces, commas or lines) in the class."""
    names_typed = names.replace(",", " ").split()
    return _changed(request, session, user, class_id, lambda c: rules.add_students(session, user, c, names_typed))


@router.post("/teacher/classes/{class_id}/import", dependencies=csrf)
async def import_class(
    request: Request,
    class_id: PathId,
    file: UploadFile | None = None,
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Put an uploaded class CSV in the class (``judge.classes.import_students``: existing students
    join, new names are created), all or none, and show the new students' password slips."""
    school_class = rules.managed_class(session, user, class_id)
    try:
        created, added = rules.import_students(session, user, school_class, await uploaded_accounts(file))
        session.commit()
    except FormError as exc:
        return _class_page(request, session, user, school_class, str(exc), 422)
    except (AccountError, users.NotAllowed, rules.ClassRuleError) as exc:
        session.rollback()
        status = exc.status if isinstance(exc, rules.ClassRuleError) else 409 if "exists" in str(exc) else 422
        school_class = rules.managed_class(session, user, class_id)
        return _class_page(request, session, user, school_class, f"{exc}; nobody was imported", status)
    title = f"{school_class.name}: {len(created)} new accounts, {len(added)} existing students added"
    return slips(request, user, created, title)


@router.post("/teacher/classes/{class_id}/students/{name}/remove", dependencies=csrf)
def remove_student(
    request: Request,
    class_id: PathId,
    name: str,
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Take a student out of the class (the account and its submissions stay)."""
    return _changed(request, session, user, class_id, lambda c: rules.remove_student(session, c, name))


@router.post("/teacher/classes/{class_id}/rename", dependencies=csrf)
def rename_class(
    request: Request,
    class_id: PathId,
    name: str = Form(""),
    user: User = Depends(jury_viewer),
    session: Session = Depends(db_session),
):
    """Rename the class."""
    return _changed(request, session, user, class_id, lambda c: rules.rename_class(session, c, name))


@router.post("/teacher/classes/{class_id}/delete", dependencies=csrf)
def delete_class(class_id: PathId, user: User = Depends(jury_viewer), session: Session = Depends(db_session)):
    """Delete the class (its students keep their accounts) and go back to the list."""
    rules.delete_class(session, rules.managed_class(session, user, class_id))
    session.commit()
    return redirect("/teacher/classes")
