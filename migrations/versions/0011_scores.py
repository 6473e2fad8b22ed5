"""a submission's score by the package's grading, and test group names as long as the format's

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 03:30:00

Submissions keep ``score`` and ``max_score`` (points on the package's own scale: the Kattis problem
package format's grading of test groups), read by the IOI scoreboard from its covering index, which
gains the two columns. ``test_results.test_group`` holds a nested group's path under ``data/``
(``secret/group1/part2``), up to 200 characters.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = [
    "contest_id",
    "user_id",
    "problem_id",
    "id",
    "status",
    "verdict",
    "is_jury",
    "created_at",
    "attempt",
    "finished_at",
    "tests_passed",
    "tests_total",
]


def upgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("score", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("max_score", sa.Float(), nullable=True))
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index("ix_submissions_scoreboard")
        batch_op.create_index("ix_submissions_scoreboard", [*COLUMNS, "score", "max_score"], unique=False)
    with op.batch_alter_table("test_results", schema=None) as batch_op:
        batch_op.alter_column("test_group", existing_type=sa.String(32), type_=sa.String(200))


def downgrade() -> None:
    with op.batch_alter_table("test_results", schema=None) as batch_op:
        batch_op.alter_column("test_group", existing_type=sa.String(200), type_=sa.String(32))
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index("ix_submissions_scoreboard")
        batch_op.create_index("ix_submissions_scoreboard", COLUMNS, unique=False)
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_column("max_score")
        batch_op.drop_column("score")
