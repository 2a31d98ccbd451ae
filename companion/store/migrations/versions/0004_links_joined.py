"""When a seat's private link was first opened: the referee's invitations fold away once every seat has joined.

Revision ID: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    """Add ``links.joined_at``."""
    op.add_column("links", sa.Column("joined_at", sa.Text))
