"""Classes: a teacher's groups of students, and which students and classes each account sees. The
API (``judge.api.classes``, ``judge.api.users``), the teacher's pages and the CLI apply these rules;
``judge.contests`` reads a contest's classes from the same tables (its participants).

Who sees what (and so who manages what):
- an admin sees and manages every class and every account;
- a teacher sees and manages the classes it owns and the students in them ("its students"), and the
  students in no class at all (nobody's yet: so that it can put them in a class). It never sees
  another teacher's class, nor a student who is only in other teachers' classes: such a student
  does not exist as far as the teacher can tell (404);
- a student sees the classes it is in (name and teacher, never who else is in them).

A class holds students only; a student may be in several classes. A class's name is unique among its
teacher's classes. Every function here flushes and leaves the commit to its caller.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, delete, false, or_, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge import board
from judge.auth import same_name
from judge.models import ClassMember, ContestClass, SchoolClass, User
from judge.schemas import storable
from judge.users import NewAccount, create_accounts
from judge.vocabulary import Role

MAX_CLASS_NAME = 200


class ClassRuleError(Exception):
    """A request a class rule refuses: the HTTP ``status`` and a one-line reason."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# -- who sees whom --------------------------------------------------------------------------------
def owned_students(teacher_id: int):
    """SELECT of the ids of the students in the classes of the teacher ``teacher_id``."""
    return (
        select(ClassMember.user_id)
        .join(SchoolClass, SchoolClass.id == ClassMember.class_id)
        .where(SchoolClass.owner_id == teacher_id)
    )


def students_seen(actor: User) -> ColumnElement[bool]:
    """SQL condition on ``User``: the students ``actor`` sees (module docstring): every one for an
    admin; for a teacher its students and the students in no class; for a student itself."""
    if actor.role == Role.ADMIN:
        return User.role == Role.STUDENT
    if actor.role == Role.TEACHER:
        in_no_class = User.id.not_in(select(ClassMember.user_id))
        return and_(User.role == Role.STUDENT, or_(User.id.in_(owned_students(actor.id)), in_no_class))
    return User.id == actor.id


def users_seen(actor: User) -> ColumnElement[bool]:
    """SQL condition on ``User``: the accounts ``actor`` sees: all for an admin; itself and
    ``students_seen`` for anyone else."""
    if actor.role == Role.ADMIN:
        return true()
    return or_(User.id == actor.id, students_seen(actor))


def sees_user(session: Session, actor: User, user: User) -> bool:
    """Whether ``actor`` sees the account ``user`` (``users_seen``)."""
    return session.scalar(select(User.id).where(User.id == user.id, users_seen(actor))) is not None


def seen_user(session: Session, actor: User, name: str) -> User:
    """The account called ``name`` if ``actor`` sees it; raises ClassRuleError 404 otherwise (an
    account hidden from ``actor`` answers as one that does not exist)."""
    user = session.scalar(select(User).where(same_name(name), users_seen(actor))) if storable(name) else None
    if user is None:
        raise ClassRuleError(404, f"no user {name[:64]!r}")
    return user


def classes_seen(actor: User) -> ColumnElement[bool]:
    """SQL condition on ``SchoolClass``: every class for an admin, its own for a teacher, those it is in
    for a student."""
    if actor.role == Role.ADMIN:
        return true()
    if actor.role == Role.TEACHER:
        return SchoolClass.owner_id == actor.id
    if actor.role == Role.STUDENT:
        return SchoolClass.id.in_(select(ClassMember.class_id).where(ClassMember.user_id == actor.id))
    return false()


def manages(actor: User, school_class: SchoolClass) -> bool:
    """Whether ``actor`` may change ``school_class``: an admin any, a teacher its own."""
    return actor.role == Role.ADMIN or (actor.role == Role.TEACHER and school_class.owner_id == actor.id)


def classes_for(session: Session, actor: User) -> list[SchoolClass]:
    """The classes ``actor`` sees (``classes_seen``), by name then id."""
    return list(
        session.scalars(select(SchoolClass).where(classes_seen(actor)).order_by(SchoolClass.name, SchoolClass.id))
    )


def visible_class(session: Session, actor: User, class_id: int) -> SchoolClass:
    """The class ``class_id`` if ``actor`` sees it; raises ClassRuleError 404 otherwise."""
    row = session.scalar(select(SchoolClass).where(SchoolClass.id == class_id, classes_seen(actor)))
    if row is None:
        raise ClassRuleError(404, f"no class {class_id}")
    return row


def managed_class(session: Session, actor: User, class_id: int) -> SchoolClass:
    """The class ``class_id`` if ``actor`` manages it; ClassRuleError 404 when it does not see it,
    403 when it only sees it (a student in it)."""
    row = visible_class(session, actor, class_id)
    if not manages(actor, row):
        raise ClassRuleError(403, "only the class's teacher or an admin may do this")
    return row


def students(session: Session, school_class: SchoolClass) -> list[User]:
    """The students of ``school_class``, by display name then name."""
    return list(
        session.scalars(
            select(User)
            .join(ClassMember, ClassMember.user_id == User.id)
            .where(ClassMember.class_id == school_class.id)
            .order_by(User.display_name, User.name)
        )
    )


def teacher_name(session: Session, school_class: SchoolClass) -> str | None:
    """The login name of the class's teacher (None when its account is gone)."""
    return session.scalar(select(User.name).where(User.id == school_class.owner_id)) if school_class.owner_id else None


# -- changing classes -----------------------------------------------------------------------------
def create_class(session: Session, actor: User, name: str, teacher: str | None = None) -> SchoolClass:
    """A new class called ``name`` (flushed) owned by the teacher named ``teacher`` (default:
    ``actor``). A teacher creates classes for itself only (403 otherwise); an admin for any teacher or
    admin. Raises ClassRuleError: 422 for an empty or unstorable name, 404 for an unknown teacher,
    409 when that teacher already has a class of that name."""
    name = name.strip()
    if not name or len(name) > MAX_CLASS_NAME or not storable(name):
        raise ClassRuleError(422, f"a class name has 1-{MAX_CLASS_NAME} characters")
    owner = actor
    if teacher is not None and teacher != actor.name:
        if actor.role != Role.ADMIN:
            raise ClassRuleError(403, "a teacher creates classes for itself only")
        named = session.scalar(select(User).where(same_name(teacher))) if storable(teacher) else None
        if named is None or named.role == Role.STUDENT:
            raise ClassRuleError(404, f"no teacher {teacher[:64]!r}")
        owner = named
    if owner.role == Role.STUDENT:
        raise ClassRuleError(403, "only a teacher or an admin may create a class")
    return _stored(session, SchoolClass(name=name, owner_id=owner.id), name)


def rename_class(session: Session, school_class: SchoolClass, name: str) -> None:
    """Rename ``school_class`` (flushed); the refusals of ``create_class`` for the name."""
    name = name.strip()
    if not name or len(name) > MAX_CLASS_NAME or not storable(name):
        raise ClassRuleError(422, f"a class name has 1-{MAX_CLASS_NAME} characters")
    school_class.name = name
    _stored(session, school_class, name)


def _stored(session: Session, school_class: SchoolClass, name: str) -> SchoolClass:
    taken = session.scalar(
        select(SchoolClass.id).where(
            SchoolClass.owner_id == school_class.owner_id, SchoolClass.name == name, SchoolClass.id != school_class.id
        )
    )
    if taken is not None:
        raise ClassRuleError(409, f"there is a class called {name!r} already")
    session.add(school_class)
    try:
        session.flush()
    except IntegrityError as exc:  # the same name, created meanwhile
        session.rollback()
        raise ClassRuleError(409, f"there is a class called {name!r} already") from exc
    return school_class


def add_students(session: Session, actor: User, school_class: SchoolClass, names: list[str]) -> list[User]:
    """Put the students called ``names`` in ``school_class`` (flushed; one already in it stays);
    returns the students newly added. All or none: ClassRuleError 404 names the first account
    ``actor`` does not see (``users_seen``), 422 the first that is no student."""
    found = [seen_user(session, actor, name) for name in dict.fromkeys(n.strip() for n in names if n.strip())]
    not_student = next((u for u in found if u.role != Role.STUDENT), None)
    if not_student is not None:
        raise ClassRuleError(422, f"{not_student.name} is a {not_student.role}: a class holds students only")
    present = set(session.scalars(select(ClassMember.user_id).where(ClassMember.class_id == school_class.id)))
    added = [u for u in found if u.id not in present]
    session.add_all(ClassMember(class_id=school_class.id, user_id=u.id) for u in added)
    session.flush()
    _boards_changed(session, school_class)
    return added


def _boards_changed(session: Session, school_class: SchoolClass) -> None:
    """Bump the board version of the contests ``school_class`` takes part in (their rows changed)."""
    contests = select(ContestClass.contest_id).where(ContestClass.class_id == school_class.id)
    board.bump(session, session.scalars(contests).all())


def import_students(
    session: Session, actor: User, school_class: SchoolClass, accounts: list[NewAccount]
) -> tuple[list[tuple[User, str | None]], list[User]]:
    """A class list (``judge.users.parse_class_csv``'s rows) into ``school_class`` (flushed; the
    caller commits, or rolls back on an error): a name ``actor`` sees as a student is added as it
    is, every other name is created as a new student (``judge.users.create_accounts``, passwords
    generated where none is given). Returns (the created accounts with their generated passwords,
    the existing students added).

    All or none. Raises ClassRuleError 409 for a row giving a password to an existing student (a
    password changes by a reset only), 422 for a row that is no student, AccountError and NotAllowed
    as ``create_accounts`` (a name taken by an account ``actor`` does not see: "already exists").
    """
    existing: list[User] = []
    new: list[NewAccount] = []
    for number, account in enumerate(accounts, start=1):
        if account.role != Role.STUDENT:
            raise ClassRuleError(422, f"{account.place(number)}: a class holds students only")
        found = session.scalar(select(User).where(same_name(account.name), students_seen(actor)))
        if found is None:
            new.append(account)
        elif account.password is not None:
            raise ClassRuleError(409, f"{account.place(number)}: {account.name} exists already: leave its password out")
        else:
            existing.append(found)
    created = create_accounts(session, actor, new) if new else []
    added = add_students(session, actor, school_class, [u.name for u in existing] + [u.name for u, _ in created])
    return created, [u for u in added if u in existing]


def remove_student(session: Session, school_class: SchoolClass, name: str) -> None:
    """Take the student ``name`` out of ``school_class`` (flushed; the account and its submissions stay).
    Raises ClassRuleError 404 when no such student is in it."""
    user_id = (
        session.scalar(
            select(User.id)
            .join(ClassMember, ClassMember.user_id == User.id)
            .where(ClassMember.class_id == school_class.id, same_name(name))
        )
        if storable(name)
        else None
    )
    if user_id is None:
        raise ClassRuleError(404, f"class {school_class.id} has no student {name[:64]!r}")
    session.execute(delete(ClassMember).where(ClassMember.class_id == school_class.id, ClassMember.user_id == user_id))
    session.flush()
    _boards_changed(session, school_class)


def delete_class(session: Session, school_class: SchoolClass) -> None:
    """Delete ``school_class`` (flushed): its students keep their accounts and submissions, and the
    contests it took part in no longer count them (a contest left with no class and no named
    participant has nobody taking part)."""
    _boards_changed(session, school_class)
    session.execute(delete(ClassMember).where(ClassMember.class_id == school_class.id))
    session.execute(delete(ContestClass).where(ContestClass.class_id == school_class.id))
    session.delete(school_class)
    session.flush()
