"""A play's photos: ``play_photos``, each photo's bytes (resized, without EXIF) kept in the database
with its play, so that a backup of the database and Castellan's export hold them.

Revision ID: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"


def upgrade() -> None:
    """Add ``play_photos``: one row per photo, its bytes a BLOB (SQLite) or ``bytea`` (PostgreSQL)."""
    op.create_table(
        "play_photos",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("play_id", sa.Text, sa.ForeignKey("plays.id"), nullable=False),
        sa.Column("media_type", sa.Text, nullable=False),  # image/jpeg, image/png or image/webp
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),  # bytes of content
        sa.Column("digest", sa.Text, nullable=False),  # of content: part of the photo's address
        sa.Column("alt", sa.Text),  # the uploader's text alternative (none: the page says its own)
        sa.Column("added", sa.Text, nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
    )
    op.create_index("play_photos_by_play", "play_photos", ["play_id", "id"])
