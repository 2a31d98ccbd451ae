"""A table's clock: ``table_clocks``, its pauses (the referee's Pause and Resume), kept beside it.

A table never paused has no row. Revision ID: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"


def upgrade() -> None:
    """Add ``table_clocks``: one row per table paused at least once, its clock as JSON."""
    op.create_table(
        "table_clocks",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("clock", sa.Text, nullable=False),
    )
