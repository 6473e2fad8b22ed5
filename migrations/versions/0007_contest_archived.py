"""contests can be archived

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 00:45:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("archived", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.drop_column("archived")
