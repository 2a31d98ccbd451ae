"""The ways into a table: the referee's link, the viewer's, and one per private seat (``Link``),
and the claim a phone lays on a seat's link.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.store import base
from companion.store.base import token_shaped
from companion.store.db import (
    Sql,
    links,
    run,
    tables,
)

ROLES = ("referee", "viewer", "seat")


@dataclass(frozen=True)
class Link:
    """One way into a table: who holds it decides what they may see and do."""

    token: str
    table_id: str
    role: str  # "referee" (can act), "viewer" (read-only) or "seat" (a player's private link)
    seat: str | None
    label: str
    claimed_by: str | None = None  # a digest of the phone that claimed this seat (see ``claim_seat``)
    joined: bool = False  # the link has been opened (recorded for seats: see mark_joined)
    joined_at: str | None = None  # when it was first opened (UTC, ISO 8601)

    @property
    def viewer(self) -> str:
        """The name the rules module's ``view`` and ``apply`` know this link by."""
        return self.seat if self.role == "seat" else self.role


def find_link(conn: Connection, token: str) -> Link | None:
    """The link with this token, or None."""
    if not token_shaped(token):
        return None
    row = run(conn, _LINK, {"token": token}).fetchone()
    return link_from_row(row) if row else None


def link_and_game(conn: Connection, token: str) -> tuple[Link, str] | None:
    """The link with this token and its table's game, in one lookup (a change reads its table
    under the lock: nothing more is needed before it), or None."""
    if not token_shaped(token):
        return None
    row = run(conn, _LINK_AND_GAME, {"token": token}).fetchone()
    return (link_from_row(row[:-1]), row[-1]) if row else None


def table_links(conn: Connection, table_id: str) -> list[Link]:
    """Every link of a table: referee, viewer, then the seats in creation order."""
    return [link_from_row(row) for row in run(conn, _TABLE_LINKS, {"table_id": table_id})]


def claim_seat(conn: Connection, link: Link, phone: str) -> bool:
    """Claim a seat's link for ``phone`` (a browser's secret identity) if no phone has; True if it is this one's.

    Only a digest of ``phone`` is stored. The claim is one conditional UPDATE, so two
    phones opening the link at once cannot both get it. A claim made bumps the table's links' version.
    """
    digest = phone_digest(phone)
    if link.claimed_by is not None:  # the usual case, read without taking the write lock
        return link.claimed_by == digest
    with base.write(conn):
        made = conn.execute(
            links.update()
            .where(links.c.token == link.token, links.c.claimed_by.is_(None))
            .values(claimed_by=digest)
        )
        _links_changed(conn, link, made.rowcount)
        claimed = conn.execute(sa.select(links.c.claimed_by).where(links.c.token == link.token)).scalar()
    return claimed == digest


def mark_joined(conn: Connection, link: Link) -> None:
    """Note that a seat's link has been opened (once: later visits write nothing), and bump the
    table's links' version: the referee's next poll shows it opened."""
    if link.role == "seat" and not link.joined:
        with base.write(conn):
            made = conn.execute(
                links.update()
                .where(links.c.token == link.token, links.c.joined_at.is_(None))
                .values(joined_at=base.now())
            )
            _links_changed(conn, link, made.rowcount)


def _links_changed(conn: Connection, link: Link, changed: int) -> None:
    """After ``changed`` rows of ``link``'s table's links were written: a new links' version."""
    if changed:
        conn.execute(
            tables.update()
            .where(tables.c.id == link.table_id)
            .values(links_version=tables.c.links_version + 1)
        )


def phone_digest(phone: str) -> str:
    """What the database keeps of a browser's secret identity."""
    return hashlib.sha256(phone.encode()).hexdigest()


def link_from_row(row: tuple) -> Link:
    """A link from a row of ``_LINK_COLUMNS``."""
    token, table_id, role, seat, label, claimed_by, joined_at = row
    return Link(token, table_id, role, seat, label, claimed_by, joined_at is not None, joined_at)


# The store's most frequent statements, run on the driver itself (see ``companion.db.Sql``): a
# poll, a page and a move are made of these. Rows are tuples, in the order of these columns.
_LINK_COLUMNS = "token, table_id, role, seat, label, claimed_by, joined_at"


_LINK = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE token = :token")


_LINK_AND_GAME = Sql(
    "SELECT l.token, l.table_id, l.role, l.seat, l.label, l.claimed_by, l.joined_at, t.game"
    " FROM links l JOIN tables t ON t.id = l.table_id WHERE l.token = :token"
)


_TABLE_LINKS = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = :table_id ORDER BY position")


REFEREE_LINK = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = :table_id AND role = 'referee'")


CLAIMED_SEAT = Sql(
    f"SELECT {_LINK_COLUMNS} FROM links"
    " WHERE table_id = :table_id AND role = 'seat' AND seat = :seat AND claimed_by IS NOT NULL"
)
