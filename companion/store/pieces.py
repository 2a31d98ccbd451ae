"""A table's state as stored: its JSON text cut into pieces of ``PIECE`` characters
(``state_pieces``). A change writes only the pieces whose text differs from the pieces stored, and
deletes those past the new text's end: a move that adds to a long list rewrites one or two.
"""

from __future__ import annotations

import json

from sqlalchemy.engine import Connection

from companion.store import base, heads
from companion.store.db import (
    Sql,
    run,
)

PIECE = 1800  # characters of a state's text a row of state_pieces holds: within a SQLite page, under the 2 kB past which PostgreSQL compresses a row


def cut(text: str) -> tuple[str, ...]:
    """A state's JSON text in the pieces a change writes it in."""
    return tuple([text[start : start + PIECE] for start in range(0, len(text), PIECE)])


def write_state(
    conn: Connection, table_id: str, text: str, stored: tuple[str, ...], head: dict | None = None
) -> tuple[str, ...]:
    """Write a state's JSON ``text`` as the table's, in pieces of ``PIECE`` characters, over the
    pieces ``stored`` now (as read, or as this process wrote them): only the pieces whose text
    differs are written, in one statement, and those past the new text's end deleted. A move
    that adds to the end of a long list (the rounds of a score pad, the shots of Forteresse:
    the keys after it are short) rewrites the last piece or two, whatever the state's length.
    With ``head`` (``SET_HEAD``'s parameters) the table's row is updated too, on PostgreSQL in
    the same statement (one round trip). The new pieces."""
    pieces = cut(text)
    changed = [
        number for number, piece in enumerate(pieces) if number >= len(stored) or stored[number] != piece
    ]
    shorter = len(stored) > len(pieces)
    params = {"table_id": table_id, "count": len(pieces), **(head or {})}
    for row, number in enumerate(changed):
        params[f"p{row}"], params[f"t{row}"] = number, pieces[number]
    statements = [_put_pieces(len(changed))] if changed else []
    statements += [_DROP_PIECES] if shorter else []
    if head is not None:
        together = statements and conn.dialect.name == "postgresql"
        statements = [_with_head(len(changed), shorter)] if together else [*statements, SET_HEAD]
    for statement in statements:
        run(conn, statement, params)
    return pieces


def _put_pieces(count: int) -> Sql:
    """The statement writing ``count`` pieces of a state (new ones inserted, others replaced)."""
    statement = _PUT_PIECES.get(count)
    if statement is None:
        rows = ", ".join(f"(:table_id, :p{row}, :t{row})" for row in range(count))
        statement = _PUT_PIECES[count] = Sql(
            f"INSERT INTO state_pieces (table_id, piece, text) VALUES {rows}"
            " ON CONFLICT (table_id, piece) DO UPDATE SET text = excluded.text"
        )
    return statement


def _with_head(count: int, cut: bool) -> Sql:
    """PostgreSQL: ``count`` pieces written (see ``_put_pieces``), those past the end deleted if
    ``cut``, and the table's row updated (``SET_HEAD``), in one statement."""
    statement = _WITH_HEAD.get((count, cut))
    if statement is None:
        changes = ([_put_pieces(count).sqlite] if count else []) + ([_DROP_PIECES.sqlite] if cut else [])
        statement = _WITH_HEAD[count, cut] = Sql(
            "WITH "
            + ", ".join(f"change{n} AS ({change})" for n, change in enumerate(changes))
            + " "
            + SET_HEAD.sqlite
        )
    return statement


def stored_state(conn: Connection, table_id: str) -> dict:
    """The table's state as the database holds it, read and decoded afresh (not the one kept here)."""
    return json.loads("".join(stored_pieces(conn, table_id)))


def stored_pieces(conn: Connection, table_id: str) -> tuple[str, ...]:
    return tuple([piece for (piece,) in run(conn, _PIECES, {"table_id": table_id})])


def replace_state(conn: Connection, table_id: str, state: dict) -> None:
    """Write ``state`` as the table's without a move and without a new version: what tests do to
    break a table on purpose (a version names one state, which this breaks); the state kept
    here for the table is forgotten."""
    with base.write(conn):
        write_state(conn, table_id, base.dump(state), stored_pieces(conn, table_id))
    heads.forget_head(table_id)


_PIECES = Sql("SELECT text FROM state_pieces WHERE table_id = :table_id ORDER BY piece")


_PUT_PIECES: dict[int, Sql] = {}  # by the number of pieces written (see _put_pieces)


_WITH_HEAD: dict[
    tuple[int, bool], Sql
] = {}  # PostgreSQL: by the pieces written and whether some go (see _with_head)


_DROP_PIECES = Sql("DELETE FROM state_pieces WHERE table_id = :table_id AND piece >= :count")


SET_HEAD = Sql(
    "UPDATE tables SET head_seq = :head_seq, version = :version, updated_at = :updated_at WHERE id = :id"
)
