"""``/api/v1/classes``: a teacher's classes and their students: list, create, read, rename, delete a
class, put students in it (existing ones by name, or a class list that also creates the new ones),
take one out. Who sees and manages which is ``judge.classes``' (a class the caller does not see
answers 404); a contest's ``classes`` take part in it (``judge.api.contests``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, HTTPException, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from judge import classes as rules
from judge import users
from judge.api.errors import answers
from judge.api.users import UserCreated, UserIn, UserOut, user_out
from judge.auth import AccountError, current_user, db_session, jury_user
from judge.models import SchoolClass, User
from judge.schemas import MAX_IMPORTED_USERS, PathId, RequestBody, Text

router = APIRouter(prefix="/api/v1", tags=["classes"])


class ClassIn(RequestBody):
    """A new class: its name and (an admin only) the teacher who owns it (default: the caller)."""

    name: Text = Field(min_length=1, max_length=rules.MAX_CLASS_NAME)
    teacher: Text | None = Field(default=None, max_length=64)


class ClassPatch(RequestBody):
    """A class's new name."""

    name: Text = Field(min_length=1, max_length=rules.MAX_CLASS_NAME)


class StudentsIn(RequestBody):
    """Existing students to put in a class, by login name."""

    students: list[Text] = Field(min_length=1, max_length=MAX_IMPORTED_USERS)


class ClassOut(BaseModel):
    """A class: id, name, its teacher's login name, how many students; ``students`` for those who
    manage it (null for a student in it, who never sees the others)."""

    id: int
    name: str
    teacher: str | None
    size: int
    students: list[UserOut] | None


class ImportOut(BaseModel):
    """A class list put in a class: the accounts created (generated passwords shown this once) and
    the existing students added."""

    created: list[UserCreated]
    added: list[UserOut]


def class_out(session: Session, school_class: SchoolClass, viewer: User) -> ClassOut:
    """The API view of ``school_class`` for ``viewer``."""
    members = rules.students(session, school_class)
    return ClassOut(
        id=school_class.id,
        name=school_class.name,
        teacher=rules.teacher_name(session, school_class),
        size=len(members),
        students=[user_out(u) for u in members] if rules.manages(viewer, school_class) else None,
    )


@router.get("/classes", response_model=list[ClassOut])
def list_classes(user: User = Depends(current_user), session: Session = Depends(db_session)):
    """The classes the caller sees: every one for an admin, its own for a teacher, the ones it is in
    for a student."""
    return [class_out(session, c, user) for c in rules.classes_for(session, user)]


@router.post("/classes", status_code=201, response_model=ClassOut, responses=answers(403, 404, 409))
def add_class(body: ClassIn, user: User = Depends(jury_user), session: Session = Depends(db_session)):
    """Create a class owned by the caller (an admin may name another teacher); 409 when that teacher
    has a class of that name already."""
    school_class = rules.create_class(session, user, body.name, body.teacher)
    session.commit()
    return class_out(session, school_class, user)


@router.get("/classes/{class_id}", response_model=ClassOut)
def get_class(class_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """A class the caller sees, with its students for those who manage it."""
    return class_out(session, rules.visible_class(session, user, class_id), user)


@router.patch("/classes/{class_id}", response_model=ClassOut, responses=answers(403, 409))
def rename_class(
    class_id: PathId, body: ClassPatch, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Rename a class (its teacher or an admin)."""
    school_class = rules.managed_class(session, user, class_id)
    rules.rename_class(session, school_class, body.name)
    session.commit()
    return class_out(session, school_class, user)


@router.delete("/classes/{class_id}", status_code=204, responses=answers(403))
def delete_class(class_id: PathId, user: User = Depends(current_user), session: Session = Depends(db_session)):
    """Delete a class (its teacher or an admin): its students keep their accounts and submissions;
    the contests it took part in no longer count them."""
    rules.delete_class(session, rules.managed_class(session, user, class_id))
    session.commit()
    return Response(status_code=204)


@router.post("/classes/{class_id}/students", response_model=ClassOut, responses=answers(403, 422))
def add_students(
    class_id: PathId, body: StudentsIn, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Put existing students in a class, all or none: 404 names the first account the caller does
    not see, 422 the first that is no student; one already in the class stays."""
    school_class = rules.managed_class(session, user, class_id)
    rules.add_students(session, user, school_class, body.students)
    session.commit()
    return class_out(session, school_class, user)


@router.post("/classes/{class_id}/import", status_code=201, response_model=ImportOut, responses=answers(403, 409, 422))
def import_class(
    class_id: PathId,
    body: Annotated[list[UserIn], Body(max_length=MAX_IMPORTED_USERS)],
    user: User = Depends(current_user),
    session: Session = Depends(db_session),
):
    """A class list (the rows of a class CSV: name, display name, password) into a class, all or
    none: a student the caller sees joins as it is (no password), every other name is created as a
    new student whose generated password is returned once. 409 for a name taken by an account the
    caller does not see or an existing student given a password, 422 for a row that is no student."""
    school_class = rules.managed_class(session, user, class_id)
    accounts = [users.NewAccount(a.name, a.display_name, a.role, a.password) for a in body]
    try:
        created, added = rules.import_students(session, user, school_class, accounts)
        session.commit()
    except users.NotAllowed as exc:
        session.rollback()
        raise HTTPException(403, str(exc)) from exc
    except AccountError as exc:
        session.rollback()
        raise HTTPException(409 if "exists" in str(exc) else 422, str(exc)) from exc
    except rules.ClassRuleError:
        session.rollback()
        raise
    return ImportOut(
        created=[UserCreated(user=user_out(u), password=p) for u, p in created], added=[user_out(u) for u in added]
    )


@router.delete("/classes/{class_id}/students/{name}", status_code=204, responses=answers(403))
def remove_student(
    class_id: PathId, name: str, user: User = Depends(current_user), session: Session = Depends(db_session)
):
    """Take a student out of a class (its teacher or an admin); the account and its submissions stay."""
    rules.remove_student(session, rules.managed_class(session, user, class_id), name)
    session.commit()
    return Response(status_code=204)
