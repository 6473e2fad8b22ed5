"""failed logins and open event streams kept in the database, shared by several API processes

Revision ID: 0013_procs
Revises: 0012
Create Date: 2026-12-01 06:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_procs"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key_sha256", sa.String(length=64), nullable=False),
        sa.Column("failed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_login_failures_key", "login_failures", ["key_sha256", "failed_at"])
    op.create_index("ix_login_failures_failed_at", "login_failures", ["failed_at"])
    op.create_table(
        "stream_slots",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key_sha256", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_stream_slots_key", "stream_slots", ["key_sha256", "expires_at"])


def downgrade() -> None:
    op.drop_table("stream_slots")
    op.drop_table("login_failures")
