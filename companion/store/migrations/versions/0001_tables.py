"""The tables, their links, the action log and the snapshots.

Revision ID: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    """A table is one game being played; its state is derived from its action log."""
    op.create_table(
        "tables",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head_seq", sa.Integer, nullable=False, server_default="0"),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
    )
    op.create_table(
        "links",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("seat", sa.Text),
        sa.Column("label", sa.Text, nullable=False),
        sa.CheckConstraint("role IN ('referee', 'viewer', 'seat')", name="links_role"),
    )
    op.create_index("links_by_table", "links", ["table_id"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("undone_at", sa.Text),
    )
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
    )
