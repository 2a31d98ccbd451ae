"""A play keeps who began: ``plays.first_player``, the place in its players' list of who began.

The plays kept before this version did not keep it: theirs stays empty (unknown, and said so).

Revision ID: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    """Add ``plays.first_player`` (empty for every play kept so far: nobody knows who began)."""
    op.add_column("plays", sa.Column("first_player", sa.Integer))
