"""Links keep their creation order in a column of their own (PostgreSQL has no ``rowid``).

Revision ID: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    """Add ``links.position``; a SQLite database from before it takes its order from ``rowid``."""
    op.add_column("links", sa.Column("position", sa.Integer, nullable=False, server_default="0"))
    if op.get_bind().dialect.name == "sqlite":
        op.execute("UPDATE links SET position = rowid")
