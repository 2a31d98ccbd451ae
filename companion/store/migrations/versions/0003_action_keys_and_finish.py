"""Every move exactly once (Idempotency-Keys), and a table the referee finished.

Revision ID: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    """An action sent with a key is recorded with it in the same transaction, so a repeat finds it."""
    op.create_table(
        "action_keys",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("key", sa.Text, primary_key=True),  # chosen by the phone
        sa.Column("token", sa.Text, nullable=False),  # the link that used it
        sa.Column("answer", sa.Text),  # JSON: the API's first answer (NULL for a page's form)
        sa.Column("created_at", sa.Text, nullable=False),
    )
    op.create_index("action_keys_by_age", "action_keys", ["created_at"])
    # NULL while the table is open.
    op.add_column("tables", sa.Column("finished_at", sa.Text))
    # What a log entry is: a move of the game, or the referee finishing the table.
    op.add_column("actions", sa.Column("kind", sa.Text, nullable=False, server_default="move"))
