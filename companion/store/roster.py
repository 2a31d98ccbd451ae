"""The players: everyone whose name was typed at a table's start or who played. A player is a name,
however it is capitalised or spaced (``name_key``); renaming, merging and forgetting a player
change every play at once.
"""

from __future__ import annotations

import re
import unicodedata

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.rules.errors import RuleError
from companion.rules.numbers import whole_number
from companion.rules.sentences import N_
from companion.store import base, photos
from companion.store.db import (
    Sql,
    play_players,
    run,
)
from companion.store.db import players as player_rows

PLAYER_NAME_LENGTH = 60


MAX_PAGE = 500


def name_key(name: str) -> str:
    """What two spellings of one name have in common: "Ola", " ola " and "OLA" are one player."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip().casefold()


def player_names(conn: Connection, prefix: str = "", limit: int = 20) -> list[str]:
    """The names to offer when a table starts, those starting with ``prefix``: the most played first."""
    key = name_key(prefix)
    count = sa.func.count(play_players.c.play_id)
    query = (
        sa.select(player_rows.c.name)
        .select_from(player_rows.outerjoin(play_players, play_players.c.player_id == player_rows.c.id))
        .where(player_rows.c.offered)
        .group_by(player_rows.c.id, player_rows.c.name)
        .order_by(count.desc(), player_rows.c.key)
        .limit(max(1, min(int(limit), MAX_PAGE)))
    )
    if key:
        query = query.where(player_rows.c.key.startswith(key, autoescape=True))
    return list(conn.execute(query).scalars())


def players(
    conn: Connection,
    search: str = "",
    after: str | None = None,
    limit: int = MAX_PAGE,
    leave_out: int | None = None,
) -> list[dict]:
    """A page of players by name: ``{"id", "name", "plays", "key"}``, those whose name holds ``search``
    (any spelling of it), after the player whose name key is ``after`` (the last ``key`` of the page
    before), at most ``limit``; ``leave_out`` is a player's id not to list (the one merged into)."""
    query = sa.select(player_rows.c.id, player_rows.c.name, player_rows.c.key).order_by(player_rows.c.key)
    key = name_key(search)
    if key:
        query = query.where(player_rows.c.key.contains(key, autoescape=True))
    if after:
        query = query.where(player_rows.c.key > after)
    if leave_out is not None:
        query = query.where(player_rows.c.id != leave_out)
    page = conn.execute(query.limit(max(1, min(int(limit), MAX_PAGE)))).all()
    counts = dict(
        conn.execute(
            sa.select(play_players.c.player_id, sa.func.count())
            .where(play_players.c.player_id.in_([row.id for row in page]))
            .group_by(play_players.c.player_id)
        ).all()
    )
    return [{"id": row.id, "name": row.name, "plays": counts.get(row.id, 0), "key": row.key} for row in page]


def player(conn: Connection, player_id: int) -> dict | None:
    """One player: ``{"id", "name", "plays"}``, or None."""
    if not _is_id(player_id):
        return None
    row = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name).where(player_rows.c.id == player_id)
    ).first()
    if row is None:
        return None
    count = conn.execute(
        sa.select(sa.func.count()).select_from(play_players).where(play_players.c.player_id == player_id)
    ).scalar()
    return {"id": row.id, "name": row.name, "plays": count}


def find_player(conn: Connection, name_or_id: str | int) -> dict | None:
    """The player with this id (a number) or this name (any spelling of it), or None."""
    if isinstance(name_or_id, int) or whole_number(name_or_id) is not None:
        found = player(conn, int(name_or_id))
        if found is not None or isinstance(name_or_id, int):
            return found
    row_id = conn.execute(
        sa.select(player_rows.c.id).where(player_rows.c.key == name_key(str(name_or_id)))
    ).scalar()
    return None if row_id is None else player(conn, row_id)


def rename_player(conn: Connection, player_id: int, name: str) -> dict:
    """Give a player a new name, in every play at once; the player as renamed.

    Refused (``RuleError``) for an empty or too long name, and for a name another player
    already has: those are the same person, to be merged rather than renamed.
    """
    name = checked_name(name)
    with base.write(conn):
        row = _player_row(conn, player_id)
        taken = conn.execute(
            sa.select(player_rows.c.name).where(
                player_rows.c.key == name_key(name), player_rows.c.id != player_id
            )
        ).scalar()
        if taken is not None:
            raise RuleError(
                "name_taken",
                N_(
                    "Another player is already called %(taken)s: if %(name)s and %(taken)s are the same person, merge them instead."
                ),
                "name",
                taken=taken,
                name=row.name,
            )
        conn.execute(
            player_rows.update()
            .where(player_rows.c.id == player_id)
            .values(name=name, key=name_key(name), offered=True)
        )
    return player(conn, player_id)


def merge_players(conn: Connection, keep_id: int, drop_id: int) -> dict:
    """Make two players one: every play of ``drop_id`` becomes ``keep_id``'s, and ``drop_id`` goes.

    Refused (``RuleError``) when both are the same player or either is unknown.
    """
    if keep_id == drop_id:
        raise RuleError("same_player", N_("Choose two different players to merge."), "drop")
    with base.write(conn):
        _player_row(conn, keep_id)
        _player_row(conn, drop_id)
        conn.execute(
            play_players.update().where(play_players.c.player_id == drop_id).values(player_id=keep_id)
        )
        conn.execute(player_rows.delete().where(player_rows.c.id == drop_id))
    return player(conn, keep_id)


def forget_player(conn: Connection, player_id: int) -> dict:
    """Forget a player's name at once: in every play it becomes "Player N" (a number no other
    player's name has), and it is never offered again; the photos of those plays are deleted (a
    face in them may be theirs). The player as now named."""
    with base.write(conn):
        _player_row(conn, player_id)
        taken = set(
            conn.execute(
                sa.select(player_rows.c.key).where(player_rows.c.key.startswith("player "))
            ).scalars()
        )
        number = 1
        while f"player {number}" in taken:
            number += 1
        name = f"Player {number}"
        photos.drop_player_photos(conn, player_id)  # docs/history.md, "Photos": the plays they were in
        conn.execute(
            player_rows.update()
            .where(player_rows.c.id == player_id)
            .values(name=name, key=name_key(name), offered=False)
        )
    return player(conn, player_id)


def find_or_add_player(conn: Connection, name: str, offered: bool = False) -> int:
    """The id of the player with this name (any spelling), created if new. ``offered``: the name
    was typed, so the autocomplete offers it (a default name such as "North" is not)."""
    name = re.sub(r"\s+", " ", name).strip()[:PLAYER_NAME_LENGTH] or "?"
    key = name_key(name)
    row = run(conn, _PLAYER_BY_KEY, {"key": key}).fetchone()
    if row is None:
        # Two tables at once may bring the same new name: the second waits for the first and adds nothing.
        run(conn, _ADD_PLAYER, {"name": name, "key": key, "now": base.now(), "offered": offered})
        row = run(conn, _PLAYER_BY_KEY, {"key": key}).fetchone()
    player_id, was_offered = row
    if offered and not was_offered:
        run(conn, _OFFER_PLAYER, {"id": player_id})
    return player_id


def _player_row(conn: Connection, player_id: int) -> sa.Row:
    row = (
        conn.execute(sa.select(player_rows).where(player_rows.c.id == player_id)).first()
        if _is_id(player_id)
        else None
    )
    if row is None:
        raise RuleError(
            "unknown_player", N_("There is no such player: they may have been merged into another."), "player"
        )
    return row


def checked_name(name: object) -> str:
    name = re.sub(r"\s+", " ", name).strip() if isinstance(name, str) else ""
    if not 0 < len(name) <= PLAYER_NAME_LENGTH or not name.isprintable():
        raise RuleError(
            "bad_name", N_("A player's name is 1 to %(most)s characters."), "name", most=PLAYER_NAME_LENGTH
        )
    return name


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31


_PLAYER_BY_KEY = Sql("SELECT id, offered FROM players WHERE key = :key")


_ADD_PLAYER = Sql(
    "INSERT INTO players (name, key, created_at, offered) VALUES (:name, :key, :now, :offered) ON CONFLICT (key) DO NOTHING"
)


_OFFER_PLAYER = Sql("UPDATE players SET offered = TRUE WHERE id = :id")
