"""A finished table remembers its rematch: ``tables.rematch_id``, so Rematch tapped twice opens one table.

Revision ID: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    """Add ``tables.rematch_id``: the table its Rematch started (none yet for every existing table)."""
    op.add_column("tables", sa.Column("rematch_id", sa.Text))
