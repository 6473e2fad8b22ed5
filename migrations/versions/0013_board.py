"""scoreboards kept: one summary row per (contest, user, problem) and a board version per contest

Revision ID: 0013_board
Revises: 0012
Create Date: 2026-12-01 06:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

from judge.clock import UtcDateTime

revision = "0013_board"
down_revision = "0013_procs"
branch_labels = None
depends_on = None


def _variant(prefix: str) -> list[sa.Column]:
    return [
        sa.Column(f"{prefix}_attempts", sa.Integer(), nullable=False),
        sa.Column(f"{prefix}_pending", sa.Integer(), nullable=False),
        sa.Column(f"{prefix}_score", sa.Float(), nullable=False),
        sa.Column(f"{prefix}_first_id", sa.Integer(), nullable=True),
        sa.Column(f"{prefix}_first_at", UtcDateTime(), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("board_version", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "board_cells",
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem_id", sa.String(length=64), nullable=False),
        *_variant("live"),
        *_variant("frozen"),
        sa.ForeignKeyConstraint(["contest_id"], ["contests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("contest_id", "user_id", "problem_id"),
    )
    # existing contests: their summary rows are derived by 0014_board_stamps, once the rows have all
    # their columns


def downgrade() -> None:
    op.drop_table("board_cells")
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.drop_column("board_version")
