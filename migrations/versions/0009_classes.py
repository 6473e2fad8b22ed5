"""classes of students, classes as contest participants, deactivated accounts

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 02:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False))
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], name="fk_classes_owner", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner_id", "name", name="uq_classes_owner_name"),
    )
    op.create_table(
        "class_members",
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], name="fk_class_members_class", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_class_members_user", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("class_id", "user_id"),
    )
    op.create_index("ix_class_members_user_id", "class_members", ["user_id"])
    op.create_table(
        "contest_classes",
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contests.id"], name="fk_contest_classes_contest", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], name="fk_contest_classes_class", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("contest_id", "class_id"),
    )


def downgrade() -> None:
    op.drop_table("contest_classes")
    op.drop_index("ix_class_members_user_id", table_name="class_members")
    op.drop_table("class_members")
    op.drop_table("classes")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("active")
