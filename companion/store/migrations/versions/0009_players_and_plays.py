"""Players and plays: a finished table is kept as a play, with its players remembered by name.

A play is written in the same transaction as the move that ends its table (and withdrawn by
the undo that reopens it); a table created private never becomes one. Every filter of the
history pages and of ``GET /api/v1/plays`` has its index: newest first, by game, by player.

The tables that ended before this version become plays, and the names typed at their start
players: that needs each game's rules to read its state, which a frozen migration cannot import,
so the store does it once the database is migrated (``companion.store.backfill``).

Revision ID: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    """Create ``players``, ``plays`` and ``play_players``; add ``tables.private``."""
    op.add_column("tables", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),  # as shown
        sa.Column(
            "key", sa.Text, nullable=False, unique=True
        ),  # the name normalised: "Ola" and " ola " match
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column(
            "offered", sa.Boolean, nullable=False, server_default=sa.true()
        ),  # a name typed at a start: autocomplete offers it
    )
    op.create_table(
        "plays",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("table_id", sa.Text, unique=True),  # NULL for a play imported from another server
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("started", sa.Text, nullable=False),  # ISO 8601, UTC
        sa.Column("finished", sa.Text, nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),  # how long it lasted, for the average
        sa.Column("details", sa.Text, nullable=False, server_default="{}"),  # JSON: the game's own details
    )
    op.create_index("plays_by_finished", "plays", ["finished", "id"])
    op.create_index("plays_by_game", "plays", ["game", "finished", "id"])
    op.create_table(
        "play_players",
        sa.Column("play_id", sa.Text, sa.ForeignKey("plays.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),  # the result's order
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column(
            "finished", sa.Text, nullable=False
        ),  # the play's, so a player's plays come newest first from the index
        sa.Column("team", sa.Text),
        sa.Column("score", sa.BigInteger),
        sa.Column("winner", sa.Boolean, nullable=False),
    )
    op.create_index("play_players_by_player", "play_players", ["player_id", "finished", "play_id"])
