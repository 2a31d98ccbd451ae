"""A play keeps each seat's thinking time: ``play_players.thinking_seconds``, the whole seconds the
table's turn timer or chess clock counted for that player (pauses left out).

The plays kept before this version, and the plays of tables that had no such clock, keep it empty:
nobody timed them, and their pages say nothing about thinking.

Revision ID: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"


def upgrade() -> None:
    """Add ``play_players.thinking_seconds`` (empty for every seat kept so far: nobody timed it)."""
    op.add_column("play_players", sa.Column("thinking_seconds", sa.Integer))
