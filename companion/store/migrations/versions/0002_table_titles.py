"""A table's title (the players' names), shown in the home page's list of tables.

Revision ID: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    """Add ``tables.title``."""
    op.add_column("tables", sa.Column("title", sa.Text, nullable=False, server_default=""))
