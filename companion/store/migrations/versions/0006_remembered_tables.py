"""The tables a browser created or joined, for its home page.

Kept here rather than in the session cookie, which anyone holding it can read: the cookie
keeps only the browser's identity, and this table a digest of it.

Revision ID: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    """Create ``remembered``."""
    op.create_table(
        "remembered",
        sa.Column("phone", sa.Text, primary_key=True),  # sha256 of the browser's session identity
        sa.Column("token", sa.Text, primary_key=True),  # the link it opened
        sa.Column("seen_at", sa.Text, nullable=False),
    )
