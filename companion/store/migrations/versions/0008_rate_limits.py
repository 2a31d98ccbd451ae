"""Rate limits counted in the database, shared by every worker (see companion/ratelimit.py).

Revision ID: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    """One fixed-window counter per limited key (an address and a limit)."""
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("hits", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),  # seconds since the epoch
    )
