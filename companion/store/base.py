"""How the store writes: one write transaction (``write``), JSON text (``dump``), times
(``now``, ``utc``) and tokens."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy.engine import Connection


def new_token() -> str:
    """An unguessable identifier: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_shaped(token: str) -> bool:
    """Whether ``token`` could be a link's token at all; anything else is not looked up."""
    return 10 <= len(token) <= 64


@contextmanager
def write(conn: Connection) -> Iterator[Connection]:
    """One write transaction, committed on leaving (rolled back on an exception).

    A read this request began holds no lock and is ended first. On SQLite the transaction
    takes the write lock from its start (``BEGIN IMMEDIATE``, see ``companion.db``); on
    PostgreSQL ``_current`` locks the table's row.
    """
    if conn.in_transaction():
        conn.rollback()
    conn.info["immediate"] = True
    try:
        with conn.begin():
            yield conn
    finally:
        conn.info.pop("immediate", None)


def dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def utc(stamp: str) -> str:
    """A stored time as the API gives it: ``2026-11-23T20:14:05.123+00:00`` → ``2026-11-23T20:14:05Z``."""
    return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
