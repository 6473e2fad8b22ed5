"""The ``judge class`` commands (create, list, show, add, import, remove, delete) and ``judge user
deactivate`` / ``reactivate``: thin commands over ``judge.classes`` and ``judge.users``, registered on
``judge.cli``'s app. The command line acts for the server's administrator (every class and account);
``judge class list --teacher NAME`` shows what that teacher sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from judge.cli import _commands, _db, _store_accounts, app, fail, user_app
from judge.terminal import out, say, table

if TYPE_CHECKING:  # sqlalchemy is imported by the commands that use it: a quick start for --help
    from sqlalchemy.orm import Session

T = TypeVar("T")
class_app = _commands("Classes: create, list, show, add students, import a class list, remove one, delete.")
app.add_typer(class_app, name="class")


def _server():
    """The acting account of the command line: an administrator that is no row of the database."""
    from judge.models import User
    from judge.vocabulary import Role

    return User(id=0, name="(command line)", display_name="command line", role=Role.ADMIN)


def _class(session, class_id: int):
    from judge.classes import ClassRuleError, visible_class
    from judge.schemas import MAX_ROW_ID

    if not 1 <= class_id <= MAX_ROW_ID:
        fail(f"no class {class_id}")
    try:
        return visible_class(session, _server(), class_id)
    except ClassRuleError as exc:
        fail(exc.message)


def _named(session, name: str, role: str | None = None):
    """The account ``name`` (of ``role`` when given); exits 1 when there is none."""
    from sqlalchemy import select

    from judge.auth import same_name
    from judge.models import User

    user = session.scalar(select(User).where(same_name(name)))
    if user is None or (role is not None and user.role != role):
        fail(f"no {role or 'user'} {name!r}")
    return user


def _change(change: Callable[[Session], T]) -> T:
    """Run ``change`` (a ``judge.classes`` rule) on a session and commit; a refusal exits 1 with its reason."""
    from judge.classes import ClassRuleError

    with _db() as session:
        try:
            result = change(session)
            session.commit()
        except ClassRuleError as exc:
            fail(exc.message)
    return result


@class_app.command("create")
def class_create(
    name: str = typer.Argument(..., help="class name, e.g. 10A"),
    teacher: str = typer.Option(..., help="login name of the teacher who owns it"),
) -> None:
    """Create a class owned by a teacher and print its id."""
    from judge.classes import create_class

    def create(session: Session) -> str:
        owner = _named(session, teacher)
        if owner.role == "student":
            fail(f"{teacher} is a student: a class belongs to a teacher")
        school_class = create_class(session, owner, name)
        return f"class {school_class.id}: {school_class.name} (teacher {owner.name})"

    say(_change(create))


@class_app.command("list")
def class_list(teacher: str = typer.Option("", help="only what this teacher sees (its own classes)")) -> None:
    """Classes: id, name, teacher, number of students."""
    from judge.classes import classes_for, students, teacher_name

    with _db() as session:
        viewer = _named(session, teacher) if teacher else _server()
        for c in classes_for(session, viewer):
            say(f"{c.id}\t{c.name}\t{teacher_name(session, c) or '-'}\t{len(students(session, c))} students")


@class_app.command("show")
def class_show(class_id: int = typer.Argument(...)) -> None:
    """A class's students: name, display name, and whether the account is deactivated."""
    from judge.classes import students

    with _db() as session:
        school_class = _class(session, class_id)
        rows = [(u.name, u.display_name, "" if u.active else "deactivated") for u in students(session, school_class)]
    out().print(table(f"class {class_id}: {school_class.name}", ("user", "display name", "state"), rows))


@class_app.command("add")
def class_add(class_id: int = typer.Argument(...), names: list[str] = typer.Argument(..., help="students")) -> None:
    """Put existing students in a class (all or none)."""
    from judge.classes import add_students

    added = _change(lambda session: add_students(session, _server(), _class(session, class_id), names))
    say(f"{len(added)} students added to class {class_id}")


@class_app.command("import")
def class_import(
    class_id: int = typer.Argument(...),
    file: Path = typer.Argument(..., help="CSV: name, display name, optional password (a header row is skipped)"),
    passwords: Path = typer.Option(None, help="also write the generated passwords to this new file (mode 600)"),
) -> None:
    """Put a class list in a class, all or none: existing students join, new names become students
    whose generated passwords are printed once."""
    from judge.auth import AccountError
    from judge.classes import ClassRuleError, import_students
    from judge.users import NotAllowed, parse_class_csv

    if not file.is_file():
        fail(f"{file}: no such file")
    try:
        accounts = parse_class_csv(file.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as exc:
        fail(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 CSV")
    except AccountError as exc:
        fail(f"{file}, {exc}; nobody was imported")
    with _db() as session:
        try:
            created, added = import_students(session, _server(), _class(session, class_id), accounts)
        except (AccountError, ClassRuleError, NotAllowed) as exc:
            fail(f"{file}, {getattr(exc, 'message', exc)}; nobody was imported")
        if created:
            _store_accounts(session, created, passwords)
        else:
            session.commit()
    say(f"class {class_id}: {len(created)} new students, {len(added)} existing students added")


@class_app.command("remove")
def class_remove(class_id: int = typer.Argument(...), name: str = typer.Argument(...)) -> None:
    """Take a student out of a class (the account and its submissions stay)."""
    from judge.classes import remove_student

    _change(lambda session: remove_student(session, _class(session, class_id), name))
    say(f"{name} removed from class {class_id}")


@class_app.command("delete")
def class_delete(class_id: int = typer.Argument(...)) -> None:
    """Delete a class; its students keep their accounts and submissions."""
    from judge.classes import delete_class

    _change(lambda session: delete_class(session, _class(session, class_id)))
    say(f"class {class_id} deleted")


def _set_active(name: str, active: bool) -> None:
    from judge.users import NotAllowed, set_active

    with _db() as session:
        try:
            set_active(session, _server(), _named(session, name), active)
        except NotAllowed as exc:
            fail(str(exc))
        session.commit()
    say(f"{name} {'reactivated' if active else 'deactivated: its tokens ended, it cannot sign in'}")


@user_app.command("deactivate")
def user_deactivate(name: str = typer.Argument(...)) -> None:
    """Deactivate an account: its tokens end at once and it cannot sign in; its submissions stay."""
    _set_active(name, False)


@user_app.command("reactivate")
def user_reactivate(name: str = typer.Argument(...)) -> None:
    """Let a deactivated account sign in again."""
    _set_active(name, True)
