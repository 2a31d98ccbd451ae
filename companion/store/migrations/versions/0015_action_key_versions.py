"""A move's key remembers the table version its move produced: ``action_keys.version``, so that a
repeated page form (a move whose answer was lost, sent again from the phone's outbox) can say which
version its move made, and the phone's next queued move goes on that one, not on a newer table.

Revision ID: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"


def upgrade() -> None:
    """Add ``action_keys.version`` (unknown for the keys already recorded, which a day sweeps away)."""
    op.add_column("action_keys", sa.Column("version", sa.Integer))
