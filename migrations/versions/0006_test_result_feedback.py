"""test result feedback

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 00:00:00.000000

The output validator's structured feedback (its ``feedback.json``, at most 256 KiB) on each test
result, for the pictures of an answer; NULL for older results and validators that write none.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("test_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("feedback", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("test_results", schema=None) as batch_op:
        batch_op.drop_column("feedback")
