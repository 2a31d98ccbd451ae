"""A table's state moves from ``tables.state`` to ``state_pieces``: its JSON text in pieces, so a
move rewrites only the pieces it changes (a score pad of 1,000 rounds wrote its 13 kB on every move).

Every existing state becomes one piece (piece 0): the store reads the pieces of a table in order,
whatever their lengths, and its next change of the table cuts the text anew.

Revision ID: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    """Create ``state_pieces``, copy every table's state into it, and drop ``tables.state``."""
    op.create_table(
        "state_pieces",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("piece", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.execute("INSERT INTO state_pieces (table_id, piece, text) SELECT id, 0, state FROM tables")
    op.drop_column("tables", "state")
