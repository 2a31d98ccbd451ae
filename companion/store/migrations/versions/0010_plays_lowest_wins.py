"""Each play knows which way its scores count: ``plays.lowest_wins`` (a "lowest total wins" score pad).

A player's best score is their highest where high is good and their lowest where low is good.
A play's direction is what its game's details say (``"lowest_wins": true``, the score pad's); the
plays kept before this version are read the same way.

Revision ID: 0010
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    """Add ``plays.lowest_wins`` (false: high is good) and set it on the plays whose details say so."""
    op.add_column("plays", sa.Column("lowest_wins", sa.Boolean, nullable=False, server_default=sa.false()))
    conn = op.get_bind()
    plays = sa.table(
        "plays", sa.column("id", sa.Text), sa.column("details", sa.Text), sa.column("lowest_wins", sa.Boolean)
    )
    low = [
        row.id
        for row in conn.execute(
            sa.select(plays.c.id, plays.c.details).where(plays.c.details.contains("lowest_wins"))
        )
        if _lowest_wins(row.details)
    ]
    for start in range(0, len(low), 500):
        conn.execute(plays.update().where(plays.c.id.in_(low[start : start + 500])).values(lowest_wins=True))


def _lowest_wins(details: str) -> bool:
    try:
        return json.loads(details).get("lowest_wins") is True
    except (ValueError, AttributeError):
        return False
