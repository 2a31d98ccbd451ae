"""SQLite connections and versioned schema migrations.

Migrations are the numbered files in ``companion/migrations`` (``0001_name.sql`` ...).
``PRAGMA user_version`` records the last one applied, so a database written by an older
Castellan opens and is brought up to date, and one from a newer Castellan is refused.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# Each serving thread keeps its connections open between requests: opening one (and setting its
# pragmas) cost more than answering an unchanged poll. A few databases per thread at most.
_KEPT_PER_THREAD = 4
_kept = threading.local()


def migrations() -> list[tuple[int, str]]:
    """Every migration as ``(number, sql)``, in order."""
    found = []
    for entry in resources.files("companion").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the database in WAL mode, so readers never wait for a writer."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def kept_connection(path: str | Path) -> sqlite3.Connection:
    """This thread's open connection to ``path``, opened on first use and kept for the next request."""
    kept: OrderedDict = getattr(_kept, "connections", None) or OrderedDict()
    _kept.connections = kept
    key = str(path)
    conn = kept.pop(key, None) or connect(path)
    kept[key] = conn
    while len(kept) > _KEPT_PER_THREAD:
        kept.popitem(last=False)[1].close()
    return conn


def release(conn: sqlite3.Connection) -> None:
    """Hand a kept connection back after a request: nothing it began may outlive the request."""
    if conn.in_transaction:
        conn.rollback()


def schema_version(conn: sqlite3.Connection) -> int:
    """The number of the last migration applied to this database."""
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, upto: int | None = None) -> int:
    """Apply the migrations this database lacks (up to ``upto``); return its version.

    Each migration runs in its own transaction with the version bump, so a failure
    leaves the database at the last good version.
    """
    current = schema_version(conn)
    known = migrations()
    newest = known[-1][0] if known else 0
    if current > newest:
        raise RuntimeError(
            f"This database was written by a newer Castellan (schema {current}, this one knows {newest})."
        )
    for number, sql in known:
        if number <= current or (upto is not None and number > upto):
            continue
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number:d};\nCOMMIT;")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        current = number
    return current
