"""Rate limits counted in Castellan's own database, so every worker and every machine shares them.

A limit (http.security) keeps its counts in a ``limits`` storage; the in-memory one is per process, so
with N workers an address could make N times its limit. This storage (``castellan://`` followed
by the quoted ``CASTELLAN_DATABASE``) keeps one fixed-window counter per key in the
``rate_limits`` table: one short write per limited request (a table created, a sheet built),
nothing for any other request. A count is taken before the work, in one statement (the row is locked
while it changes), and given back when the work was refused (a negative ``amount``).
"""

from __future__ import annotations

import time
from urllib.parse import quote, unquote

import sqlalchemy as sa
from limits.storage import Storage
from sqlalchemy.engine import Connection

from companion.store import db

SCHEME = "castellan"

# One statement, so that requests at once each see the count the others left (a lock on the row).
# A count given back (``amount`` below 0) after its window ended leaves the new window at 0.
_INCREMENT = sa.text(
    "INSERT INTO rate_limits (key, hits, expires_at) VALUES (:key, :fresh, :expires)"
    " ON CONFLICT (key) DO UPDATE SET"
    " hits = CASE WHEN rate_limits.expires_at <= :now THEN :fresh ELSE rate_limits.hits + :amount END,"
    " expires_at = CASE WHEN rate_limits.expires_at <= :now THEN :expires ELSE rate_limits.expires_at END"
    " RETURNING hits, expires_at"
)


def add_hits(conn: Connection, key: str, amount: int, window: float, now: float) -> tuple[int, float]:
    """Inside a transaction: count ``amount`` more hits in the key's window of ``window`` seconds (a
    new window if the last one ended; a negative ``amount`` gives hits back), in one statement:
    the count after it, and when its window ends."""
    params = {"key": key, "amount": amount, "fresh": max(amount, 0), "expires": now + window, "now": now}
    row = conn.execute(_INCREMENT, params).one()
    return row.hits, row.expires_at


def storage_uri(database: str) -> str:
    """The ``limits`` storage URI that counts in ``database``."""
    return f"{SCHEME}://{quote(str(database), safe='')}"


class DatabaseStorage(Storage):
    """A ``limits`` storage for fixed windows, in the ``rate_limits`` table."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **_options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.database = unquote(uri.split("://", 1)[1])

    @property
    def base_exceptions(self) -> type[Exception]:
        return sa.exc.SQLAlchemyError

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Count ``amount`` more hits in the key's window (a new window if the last one ended); a
        negative ``amount`` gives hits back. The count after it."""
        now = time.time()
        with db.connect(self.database) as conn:
            conn.info["immediate"] = True  # SQLite: take the write lock at once, never upgrade to it
            try:
                with conn.begin():
                    return add_hits(conn, key, amount, expiry, now)[0]
            finally:
                conn.info.pop("immediate", None)

    def get(self, key: str) -> int:
        """The hits in the key's current window (0 once it ended)."""
        with db.connect(self.database) as conn:
            row = conn.execute(
                sa.select(db.rate_limits.c.hits).where(
                    db.rate_limits.c.key == key, db.rate_limits.c.expires_at > time.time()
                )
            ).first()
        return row.hits if row else 0

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (now, if it has none)."""
        with db.connect(self.database) as conn:
            expires = conn.execute(
                sa.select(db.rate_limits.c.expires_at).where(db.rate_limits.c.key == key)
            ).scalar()
        return expires if expires is not None else time.time()

    def check(self) -> bool:
        """True when the database answers."""
        try:
            with db.connect(self.database) as conn:
                conn.execute(sa.text("SELECT 1"))
        except sa.exc.SQLAlchemyError:
            return False
        return True

    def reset(self) -> int:
        """Forget every count; how many keys there were."""
        with db.connect(self.database) as conn, conn.begin():
            return conn.execute(db.rate_limits.delete()).rowcount

    def clear(self, key: str) -> None:
        """Forget one key's count."""
        with db.connect(self.database) as conn, conn.begin():
            conn.execute(db.rate_limits.delete().where(db.rate_limits.c.key == key))
