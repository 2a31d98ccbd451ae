"""What the store keeps of a browser: the tables it created or joined, for its home page (under a
digest of its secret identity, never the identity), until the sweep (``forget_untouched``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.store import base
from companion.store.db import links, remembered, tables
from companion.store.links import Link, find_link, phone_digest
from companion.store.tables import Table, get_table


def remember(conn: Connection, phone: str, token: str, keep: int) -> None:
    """Add a link to the tables a browser (``phone``, its secret identity) opened; it keeps its ``keep`` newest."""
    digest = phone_digest(phone)
    with base.write(conn):
        conn.execute(
            sa.text(
                "INSERT INTO remembered (phone, token, seen_at) VALUES (:phone, :token, :now)"
                " ON CONFLICT (phone, token) DO UPDATE SET seen_at = excluded.seen_at"
            ),
            {"phone": digest, "token": token, "now": base.now()},
        )
        newest = (
            sa.select(remembered.c.token)
            .where(remembered.c.phone == digest)
            .order_by(remembered.c.seen_at.desc())
            .limit(keep)
        )
        conn.execute(
            remembered.delete().where(remembered.c.phone == digest, remembered.c.token.not_in(newest))
        )


def forget_untouched(conn: Connection, untouched_for: timedelta) -> int:
    """Take out of every browser's list the tables nobody touched for ``untouched_for``, and the links
    that are gone; how many rows went.

    The sweep (``sweep``) deletes the unfinished ones with their rows; a finished table stays as a play
    (the history lists it), but no longer on the home pages of the phones that played it.
    """
    cutoff = base.stamp(datetime.now(UTC) - untouched_for)
    kept = sa.select(links.c.token).join(tables, tables.c.id == links.c.table_id)
    with base.write(conn):
        return conn.execute(
            remembered.delete().where(remembered.c.token.not_in(kept.where(tables.c.updated_at >= cutoff)))
        ).rowcount


def remembered_tables(conn: Connection, phone: str) -> list[tuple[Link, Table]]:
    """The tables a browser created or joined (see ``remember``), the last changed first."""
    tokens = conn.execute(
        sa.select(remembered.c.token).where(remembered.c.phone == phone_digest(phone))
    ).scalars()
    return tables_for_tokens(conn, list(tokens))


def tables_for_tokens(conn: Connection, tokens: list[str]) -> list[tuple[Link, Table]]:
    """The tables reached by these links (the ones a browser created or joined), newest first."""
    found = []
    for token in tokens:
        link = find_link(conn, token)
        if link is not None:
            found.append((link, get_table(conn, link.table_id)))
    return sorted(found, key=lambda pair: pair[1].updated_at, reverse=True)
