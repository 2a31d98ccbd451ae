"""Every move exactly once: a change may carry a key the phone chose (``Once``). Under the table's
lock the key is looked up (``check_key``: a repeat raises ``Repeated`` with the first answer), and
it is recorded in the same transaction as the change (``record_key``), with the answer to give a
repeat and the table version the change produced. Keys are recorded for ``KEY_LIFETIME``, then swept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection

from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.store import base
from companion.store.db import (
    Sql,
    run,
)

if TYPE_CHECKING:
    from companion.store.tables import Table


KEY_LIFETIME = timedelta(days=2)  # a phone retries within seconds; a day is the promise, two the margin


@dataclass(frozen=True)
class Once:
    """An action's key, for applying it exactly once: ``answer(table)`` is what a repeat gets back."""

    key: str
    token: str  # the link that acts: a key used through one link answers no other
    answer: Callable[[Table], dict] | None = None


class Repeated(Exception):
    """This key was already used on this table: the action was applied once, before; ``answer`` is
    what was answered then (None when the first request did not ask for one to be recorded), and
    ``version`` the table's version that action produced (None for a key recorded before it was kept)."""

    def __init__(self, answer: dict | None, version: int | None = None):
        super().__init__(N_("This action was already recorded."))
        self.answer = answer
        self.version = version


def check_key(conn: Connection, table_id: str, once: Once) -> None:
    """Under the table's lock, before a change: ``Repeated`` (with the answer recorded) if ``once``'s
    key was used on this table through the same link, ``RuleError`` if through another."""
    recorded = run(conn, _RECORDED_KEY, {"table_id": table_id, "key": once.key}).fetchone()
    if recorded is not None:
        token, answer, version = recorded
        if token != once.token:
            raise RuleError(
                "idempotency_key_reused",
                "This Idempotency-Key was already used through another link: choose a new key for every action.",
            )
        raise Repeated(json.loads(answer) if answer is not None else None, version)


def record_key(conn: Connection, table: Table, once: Once | None) -> Table:
    """The table after a change, with the change's key and answer recorded in the same transaction.

    Keys older than ``KEY_LIFETIME`` are swept on the way: no phone retries that late.
    """
    if once is not None:
        now = datetime.now(UTC)
        run(conn, _EXPIRED_KEYS, {"before": (now - KEY_LIFETIME).isoformat()})
        answer = base.dump(once.answer(table)) if once.answer else None
        run(
            conn,
            _RECORD_KEY,
            {
                "table_id": table.id,
                "key": once.key,
                "token": once.token,
                "answer": answer,
                "created_at": now.isoformat(timespec="milliseconds"),
                "version": table.version,
            },
        )
    return table


_RECORDED_KEY = Sql(
    "SELECT token, answer, version FROM action_keys WHERE table_id = :table_id AND key = :key"
)


_EXPIRED_KEYS = Sql("DELETE FROM action_keys WHERE created_at < :before")


_RECORD_KEY = Sql(
    "INSERT INTO action_keys (table_id, key, token, answer, created_at, version)"
    " VALUES (:table_id, :key, :token, :answer, :created_at, :version)"
)
