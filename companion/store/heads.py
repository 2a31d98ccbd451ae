"""The states this process keeps decoded after changing a table (``HEADS``), so that its next change
starts from them instead of reading and decoding the whole state again, and the encoder that writes
a state's JSON text reusing the text of the parts it shares with the state before (``TEXTS``).

A version names one state for good, so a state kept under the version the database holds is the
state the database holds, whichever worker wrote it.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from companion.store import base, jsontext

if TYPE_CHECKING:
    from companion.store.tables import Table


HEADS_KEPT = 64  # tables whose state this process keeps decoded after changing them (see Heads)


class Head(NamedTuple):
    """A table as ``Heads`` keeps it after a committed change."""

    version: int
    state: dict
    before: dict | None  # the state the move that made this version was made on
    options: dict
    entry: dict | None  # that move's log entry
    pieces: tuple[str, ...]  # the state's JSON text as written in state_pieces
    head_seq: int  # the log's last entry in force at this version


class Heads:
    """The decoded state of the tables this process changed last, by table and version, and
    after a move, the state it was made on (for its undo).

    A version names one state for good: it grows with every change, and a state is kept here
    only once its change is committed, so a state kept under the version the database holds
    is the state the database holds (whichever worker wrote it), and the state before it is
    the state the table's last move was made on. The states are shared, never changed: the
    rules modules' ``apply`` and ``view`` never change the state they are given
    (tests/rules/test_all_games.py). At most ``size`` tables are kept, the least recently
    changed forgotten first.
    """

    def __init__(self, size: int):
        self.size, self.kept, self.lock = size, {}, threading.Lock()

    def at(self, table_id: str, version: int) -> Head | None:
        """What is kept of the table at ``version`` (its state and options, neither decoded again), or None."""
        head = self.kept.get(table_id)
        return head if head is not None and head.version == version else None

    def state(self, table_id: str, version: int) -> dict | None:
        head = self.at(table_id, version)
        return head.state if head else None

    def before(self, table_id: str, version: int) -> dict | None:
        """The state the move that made ``version`` was made on, if this process made it."""
        head = self.at(table_id, version)
        return head.before if head else None

    def entry(self, table_id: str, version: int) -> dict | None:
        """The log entry of the move that made ``version``, if this process made it (as ``history`` reads it)."""
        head = self.at(table_id, version)
        return head.entry if head else None

    def keep(
        self, table: Table, pieces: tuple[str, ...], before: dict | None = None, entry: dict | None = None
    ) -> Table:
        """Keep a table's state after a committed change, and its text's ``pieces`` as written
        (``before``: the state a move was made on, ``entry``: that move's log entry)."""
        with self.lock:
            self.kept.pop(table.id, None)
            self.kept[table.id] = Head(
                table.version, table.state, before, table.options, entry, pieces, table.head_seq
            )
            if len(self.kept) > self.size:
                del self.kept[next(iter(self.kept))]
        return table

    def forget(self, table_id: str) -> None:
        with self.lock:
            self.kept.pop(table_id, None)


HEADS = Heads(HEADS_KEPT)


TEXTS = jsontext.Encoder(HEADS_KEPT)


def state_text(rules: ModuleType, state: dict, kept: bool) -> str:
    """The state's JSON text. For a game whose moves share with the state before them what they
    leave unchanged (``SHARED_STATES``), from a state kept decoded here (``kept``: a move's, or
    an undo's that replays from a snapshot kept here), the text of the parts already written is
    reused; the text is the same. A state decoded afresh is written whole: its parts are all
    new to the encoder, and ``json.dumps`` writes them faster.
    """
    return TEXTS.dumps(state) if kept and getattr(rules, "SHARED_STATES", False) else base.dump(state)


def answer_text(answer: dict) -> str:
    """The JSON text of an answer that shows a table (the API's): the parts it shares with a state
    written here (a score pad's rounds, Forteresse's shots) cost nothing more to write. The same JSON
    as ``json.dumps`` writes with sorted keys, compact, in UTF-8."""
    try:
        return TEXTS.dumps(answer)
    except TypeError:  # a view keyed by other than strings: written as JSON writes it
        return base.dump(answer)


def forget_head(table_id: str) -> None:
    """Forget the states kept for a table, after its state was written otherwise than by this module."""
    HEADS.forget(table_id)
