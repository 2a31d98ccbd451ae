"""The data step a migration leaves to the store: run once, after migrating a database that was
below a revision, in the same transaction as the migrations.

A migration is frozen (it imports nothing of the app), but some data can only be read with live
code: the tables that ended before plays were kept (migration 0009) become plays, and that needs
each game's rules to read its state. So 0009 only changes the schema, and ``db.migrate``, which
knows the revision before and after, runs ``step(before, after)`` on the schema as this store
expects it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.store import db
from companion.store.db import tables
from companion.store.plays import record_play
from companion.store.roster import find_or_add_player, name_key
from companion.store.tables import get_table


def migrate(database: str, upto: str = "head") -> str:
    """Bring the database up to the newest migration (or ``upto``), its data filled in as the
    migrations leave to the store (``step``); return its revision. What every start runs."""
    return db.migrate(database, upto, data_step=step)


PLAYS_KEPT_FROM = 9  # the migration from which a table that ends becomes a play


def step(before: str | None, after: str) -> Callable[[Connection], int] | None:
    """What to run after migrating from revision ``before`` (None: an empty database) to ``after``,
    or None: the backfill of the plays when the migration crossed 0009."""
    if before is not None and int(before) < PLAYS_KEPT_FROM <= int(after):
        return lambda conn: record_past_plays(conn, rules_for)
    return None


def rules_for(game: str) -> ModuleType | None:
    """The game's rules module, or None for a game this Castellan does not know."""
    try:
        module = importlib.import_module(f"companion.rules.{game}")
    except (ImportError, ValueError):
        return None
    return module if hasattr(module, "result") and hasattr(module, "play_details") else None


def record_past_plays(conn: Connection, rules_for: Callable[[str], ModuleType | None]) -> int:
    """In the caller's transaction: a play for every table that ended before plays were kept, ended
    when it was last changed, and the names typed at every table's start remembered; how many plays.
    ``rules_for(game)`` is the game's rules module (None: passed over), and so is a table whose state
    its rules cannot read."""
    recorded = 0
    for table_id in list(conn.execute(sa.select(tables.c.id).order_by(tables.c.created_at)).scalars()):
        table = get_table(conn, table_id)
        rules = rules_for(table.game)
        try:
            names = rules.names(table.state) if rules else []
            ended = rules is not None and rules.result(table.state, table.finished) is not None
        except Exception:  # noqa: BLE001 -- a state from an older Castellan its rules no longer read
            continue
        for name in sorted(names, key=name_key):
            find_or_add_player(conn, name, offered=True)
        if ended and not table.private:
            ended_at = table.finished_at or table.updated_at
            record_play(conn, rules, table, table.state, table.finished, False, ended_at)
            recorded += 1
    return recorded
