"""user names unique whatever their case: a unique index on lower(name)

Revision ID: 0015_user_names
Revises: 0014_board_stamps
Create Date: 2026-12-02 02:00:00.000000

Accounts whose names differ only in case (``Alice`` and ``alice``) would make a case-insensitive
sign-in ambiguous, and only a person can tell which account is whose. So the upgrade refuses while
such accounts exist, names each group and changes nothing: rename one of each group (SQL below) and
upgrade again. No row is changed or removed by this migration.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_user_names"
down_revision = "0014_board_stamps"
branch_labels = None
depends_on = None


class NamesDifferOnlyInCase(RuntimeError):
    """Accounts whose names are one name whatever the case: the index cannot be made."""


def clashes(connection: sa.Connection) -> list[list[tuple[int, str]]]:
    """Each group of accounts (id, name) whose names differ only in case, by id."""
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String))
    lowered = sa.func.lower(users.c.name)
    clashing = sa.select(lowered).group_by(lowered).having(sa.func.count() > 1)
    rows = connection.execute(
        sa.select(users.c.id, users.c.name).where(lowered.in_(clashing)).order_by(lowered, users.c.id)
    ).all()
    groups: dict[str, list[tuple[int, str]]] = {}
    for user_id, name in rows:
        groups.setdefault(name.lower(), []).append((user_id, name))
    return list(groups.values())


def upgrade() -> None:
    groups = clashes(op.get_bind())
    if groups:
        named = "; ".join(", ".join(f"{name} (id {user_id})" for user_id, name in group) for group in groups)
        user_id, name = groups[0][-1]
        raise NamesDifferOnlyInCase(
            "user names must now differ in more than their case, and these accounts do not: "
            f"{named}. Rename all but one of each group, for example "
            f"UPDATE users SET name = '{name}-2' WHERE id = {user_id}; then upgrade again. Nothing was changed."
        )
    op.create_index("uq_users_name_lower", "users", [sa.text("lower(name)")], unique=True)


def downgrade() -> None:
    op.drop_index("uq_users_name_lower", table_name="users")
