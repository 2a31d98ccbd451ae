"""How the store writes: one write transaction (``write``), JSON text (``dump``), times
(``now``, ``utc``) and tokens."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo

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
    """This moment as the store keeps times (``stamp``)."""
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
    """A moment as the store keeps times: UTC to the millisecond, always 29 characters
    (``2026-11-23T20:14:05.123+00:00``, the year written with four digits), so that the text
    sorts as the moments do."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def utc(stored: str) -> str:
    """A stored time as the API gives it: ``2026-11-23T20:14:05.123+00:00`` → ``2026-11-23T20:14:05Z``,
    the year always with four digits (``strftime`` writes the year 1 as "1", which nothing reads back).
    A moment the store keeps is in UTC already; one with another offset that would leave the calendar
    when moved to UTC (the year 1 at +05:00) keeps its clock's reading."""
    moment = datetime.fromisoformat(stored)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        moment = moment.replace(tzinfo=UTC)
    return moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def in_zone(moment: datetime, zone: tzinfo | None) -> datetime:
    """A moment on the clocks of ``zone`` (None: this computer's); in UTC where that would leave the
    calendar (the last hours of the year 9999 in Tokyo, the first of the year 1 in New York)."""
    try:
        return moment.astimezone(zone)
    except OverflowError:
        return moment.astimezone(UTC)
