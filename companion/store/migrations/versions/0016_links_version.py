"""``tables.links_version``: bumps when a seat's link is first opened, claimed or freed, so the
referee's poll sees the invitations change without reading the links (issue 37).

Revision ID: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"


def upgrade() -> None:
    """Add ``tables.links_version``, 0 for every table."""
    op.add_column("tables", sa.Column("links_version", sa.Integer, nullable=False, server_default="0"))
