"""scoreboard cells stamped with the board version that wrote them, and a base version per contest

Revision ID: 0014_board_stamps
Revises: 0013_board
Create Date: 2026-12-02 01:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_board_stamps"
down_revision = "0013_board"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("board_base_version", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("board_cells", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="0", nullable=False))
    op.create_index("ix_board_cells_stamp", "board_cells", ["contest_id", "version"])
    # every contest's summary rows are derived from its submissions, stamped
    from sqlalchemy.orm import Session

    from judge import board
    from judge.models import Contest

    session = Session(bind=op.get_bind())
    for contest in session.query(Contest).all():
        board.rebuild(session, contest)
    session.flush()


def downgrade() -> None:
    op.drop_index("ix_board_cells_stamp", table_name="board_cells")
    with op.batch_alter_table("board_cells", schema=None) as batch_op:
        batch_op.drop_column("version")
    with op.batch_alter_table("contests", schema=None) as batch_op:
        batch_op.drop_column("board_base_version")
