"""clarifications: contest questions, their answers, and announcements

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 02:45:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clarifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("asker_id", sa.Integer(), nullable=True),
        sa.Column("problem_id", sa.String(length=64), nullable=True),
        sa.Column("question", sa.Text(), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("public", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("answered_by", sa.Integer(), nullable=True),
        sa.Column("asked_at", sa.DateTime(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=True),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["asker_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["problem_id"], ["problems.id"]),
        sa.ForeignKeyConstraint(["answered_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_clarifications_contest_changed", "clarifications", ["contest_id", "changed_at"])
    op.create_index("ix_clarifications_asker", "clarifications", ["asker_id", "asked_at"])


def downgrade() -> None:
    op.drop_index("ix_clarifications_asker", table_name="clarifications")
    op.drop_index("ix_clarifications_contest_changed", table_name="clarifications")
    op.drop_table("clarifications")
