"""Managing accounts on behalf of someone: who may create which accounts, a class read from CSV,
resetting a password, deactivating and reactivating an account. The API (``judge.api.users``), the
teacher's pages and the CLI apply these.

Who may do what: an admin creates any account and resets or deactivates anyone's but its own; a
teacher creates students, and resets and deactivates the students it sees (``judge.classes``: its
classes' students and students in no class). A generated password is returned once and stored
nowhere (only its Argon2id hash, ``judge.auth``). A deactivated account's tokens end at once and it
cannot sign in; its submissions stay, on scoreboards too.

The class CSV (UTF-8, a byte-order mark allowed): one account per row, ``name, display name,
password``; the display name defaults to the name and a missing password is generated. Blank rows
are skipped, and so is a first row whose first cell is ``name``, ``user``, ``username`` or ``login``
(a header). A message about a row names its line in the file, as an editor numbers lines.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from sqlalchemy.orm import Session

from judge.auth import (
    AccountError,
    add_users,
    check_account,
    end_tokens,
    first_taken,
    prepare_user,
    set_password,
    taken_reason,
)
from judge.models import User
from judge.schemas import storable
from judge.vocabulary import Role

HEADER_NAMES = ("name", "user", "username", "login")


class NotAllowed(PermissionError):
    """An account change the acting user's role does not allow."""


@dataclass(frozen=True)
class NewAccount:
    """An account to create: login ``name``, ``display_name`` (None: the name), ``role``, and a
    ``password`` (None: generate one)."""

    name: str
    display_name: str | None = None
    role: str = Role.STUDENT
    password: str | None = None
    line: int | None = None  # of the class CSV it was read from (1 = the file's first line)

    def place(self, number: int) -> str:
        """Where this account stands, for a message: ``line N`` of its CSV file as an editor counts
        lines, else ``row N`` (``number``: its place in the list it came in, from 1)."""
        return f"line {self.line}" if self.line is not None else f"row {number}"


def parse_class_csv(text: str, role: str = Role.STUDENT) -> list[NewAccount]:
    """The accounts of a class CSV (format in the module docstring), each with ``role``.

    Each account keeps the line of the file its row starts on (``NewAccount.line``), which every
    message about it names. Raises AccountError naming that line for a row without a name, for text
    the database cannot store (a NUL character) and for text the csv module cannot read (a cell over
    its field size limit, 131072 characters).
    """
    reader = csv.reader(text.lstrip("\ufeff").splitlines())
    rows: list[tuple[int, list[str]]] = []  # (the line the row starts on, its cells)
    try:
        start = 1
        for row in reader:
            if any(c.strip() for c in row):
                rows.append((start, row))
            start = reader.line_num + 1  # a quoted cell may span lines
    except csv.Error as exc:
        raise AccountError(f"line {reader.line_num}: not CSV ({exc})") from exc
    if rows and rows[0][1][0].strip().lower() in HEADER_NAMES:
        rows = rows[1:]
    accounts = []
    for line, row in rows:
        cells = [c.strip() for c in row] + ["", ""]
        if not all(storable(c) for c in cells):
            raise AccountError(f"line {line}: holds a NUL character")
        if not cells[0]:
            raise AccountError(f"line {line}: the first column (the user name) is empty")
        accounts.append(NewAccount(cells[0], cells[1] or None, role, cells[2] or None, line))
    return accounts


def may_manage(actor: User, role: str) -> bool:
    """Whether ``actor`` may create an account of ``role`` or reset its password: an admin any, a
    teacher students only."""
    return actor.role == Role.ADMIN or (actor.role == Role.TEACHER and role == Role.STUDENT)


def create_accounts(session: Session, actor: User, accounts: list[NewAccount]) -> list[tuple[User, str | None]]:
    """``add_accounts`` for ``actor``: raises NotAllowed when ``actor`` may not create one of them
    (``may_manage``), else as ``add_accounts``."""
    refused = next((a for a in accounts if not may_manage(actor, a.role)), None)
    if refused is not None:
        raise NotAllowed(f"a {actor.role} may not create {refused.role} accounts")
    return add_accounts(session, accounts)


def add_accounts(session: Session, accounts: list[NewAccount]) -> list[tuple[User, str | None]]:
    """Create every one of ``accounts`` or none (flushed, not committed: the caller commits, or rolls
    back on an error); returns each user with its generated password (None when one was given).

    Every password is hashed before the session writes (``judge.auth.prepare_user``): Argon2 takes
    a while per account, and the database's write lock is then held for the inserts only. The
    session's read transaction is ended before the hashing.

    Raises AccountError for a bad or taken name (its message says where the account stands,
    ``NewAccount.place``, when it comes from a file or with others).
    """

    def numbered(number: int, exc: AccountError) -> AccountError:
        account = accounts[number - 1]
        placed = account.line is not None or len(accounts) > 1
        return AccountError(f"{account.place(number)}: {exc}" if placed else str(exc))

    for number, account in enumerate(accounts, start=1):
        try:
            check_account(account.name, account.role, account.password, account.display_name)
        except AccountError as exc:
            raise numbered(number, exc) from exc
    taken = first_taken(session, [a.name for a in accounts])
    if taken is not None:  # before the slow hashing
        raise numbered(taken + 1, AccountError(taken_reason(session, accounts[taken].name)))
    session.rollback()  # end the read transaction: the hashing below takes a while
    created = [prepare_user(a.name, a.role, a.display_name, a.password) for a in accounts]
    add_users(session, [user for user, _ in created])
    return created


def reset_password(session: Session, actor: User, user: User) -> str:
    """Give ``user`` (an account ``actor`` sees: ``judge.classes.seen_user``) a new generated
    password (returned once) and end its tokens (flushed, not committed). Raises NotAllowed when
    ``actor`` may not (``may_manage``)."""
    if not may_manage(actor, user.role):
        raise NotAllowed(f"a {actor.role} may not reset the password of a {user.role}")
    password = set_password(session, user)
    assert password is not None  # set_password generates one when given none
    session.flush()
    return password


def set_active(session: Session, actor: User, user: User, active: bool) -> None:
    """Deactivate (``active`` False: its tokens end at once, it cannot sign in; its submissions stay)
    or reactivate ``user``, an account ``actor`` sees (``judge.classes.seen_user``); flushed, not
    committed. Raises NotAllowed when ``actor`` may not (``may_manage``) or names itself."""
    if not may_manage(actor, user.role):
        raise NotAllowed(f"a {actor.role} may not deactivate or reactivate a {user.role}")
    if user.id == actor.id:
        raise NotAllowed("you cannot deactivate or reactivate your own account")
    user.active = active
    if not active:
        end_tokens(session, user)
    session.flush()
