"""problems can be unloaded (archived): hidden from lists, closed to submissions, kept whole

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 03:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("problems", schema=None) as batch_op:
        batch_op.add_column(sa.Column("archived", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("problems", schema=None) as batch_op:
        batch_op.drop_column("archived")
