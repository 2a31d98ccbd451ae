"""A player's seat link is claimed by the first phone that opens it: another phone is told the seat is taken.

Revision ID: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    """Add ``links.claimed_by``: a digest of that phone's identity (never the identity itself);
    NULL while no phone has opened it, or after the referee released it."""
    op.add_column("links", sa.Column("claimed_by", sa.Text))
