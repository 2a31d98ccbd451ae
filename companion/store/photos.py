"""A play's photos (the final board, the paper score sheet): kept in the database with their play,
at most ``PER_PLAY`` each, as the bytes the service made safe (``service.photos``: resized, without
EXIF). Deleted with their play, and with the plays of a player who is forgotten.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.rules.errors import RuleError
from companion.rules.sentences import NP_
from companion.store import base
from companion.store.db import links, play_photos, play_players, remembered
from companion.store.links import Link, link_from_row, phone_digest

PER_PLAY = 4  # photos one play keeps: the board, the score sheet, the table, the winners
ALT_LENGTH = 200  # characters of a photo's text alternative: a sentence or two


@dataclass(frozen=True)
class Photo:
    """One photo of a play as its page shows it: ``number`` is its place among the play's photos
    (1 for the first), ``alt`` its uploader's text alternative (None: the page says its own),
    ``digest`` a hash of its bytes (its address changes when they do)."""

    id: int
    play_id: str
    number: int
    media_type: str
    width: int
    height: int
    size: int
    digest: str
    alt: str | None


@dataclass(frozen=True)
class Picture:
    """A photo's bytes made safe to keep (``service.photos.prepared``), with what the page needs."""

    content: bytes
    media_type: str
    width: int
    height: int


def play_photos_of(conn: Connection, play_id: str) -> list[Photo]:
    """A play's photos, the first added first (without their bytes)."""
    rows = conn.execute(
        sa.select(*_SHOWN).where(play_photos.c.play_id == play_id).order_by(play_photos.c.id)
    ).all()
    return [_photo(row, number) for number, row in enumerate(rows, start=1)]


def photos_of_plays(conn: Connection, play_ids: list[str]) -> dict[str, list[tuple[Photo, bytes]]]:
    """The photos of these plays with their bytes, by play (for Castellan's export)."""
    found: dict[str, list[tuple[Photo, bytes]]] = {}
    for start in range(0, len(play_ids), CHUNK):
        rows = conn.execute(
            sa.select(*_SHOWN, play_photos.c.content)
            .where(play_photos.c.play_id.in_(play_ids[start : start + CHUNK]))
            .order_by(play_photos.c.play_id, play_photos.c.id)
        ).all()
        for row in rows:
            kept = found.setdefault(row.play_id, [])
            kept.append((_photo(row, len(kept) + 1), bytes(row.content)))
    return found


CHUNK = 500  # plays asked for at once: well under every database's bound on a query's parameters


def content(conn: Connection, photo_id: int, digest: str) -> tuple[str, bytes] | None:
    """A photo's media type and bytes, when ``digest`` is still its digest; else None."""
    row = conn.execute(
        sa.select(play_photos.c.media_type, play_photos.c.content).where(
            play_photos.c.id == photo_id, play_photos.c.digest == digest
        )
    ).first()
    return None if row is None else (row.media_type, bytes(row.content))


def add_photos(conn: Connection, play_id: str, pictures: list[Picture], alts: list[str | None]) -> list[int]:
    """Keep these pictures with the play (one alternative text each, None for the page's own); their
    ids. ``RuleError`` (nothing added) when the play would have more than ``PER_PLAY``."""
    with base.write(conn):
        held = conn.execute(
            sa.select(sa.func.count()).select_from(play_photos).where(play_photos.c.play_id == play_id)
        ).scalar_one()
        check_room(held, len(pictures))
        return [_insert(conn, play_id, picture, alt) for picture, alt in zip(pictures, alts, strict=True)]


def check_room(held: int, adding: int, number: int | None = None) -> None:
    """``RuleError`` when a play holding ``held`` photos cannot take ``adding`` more (``number``: the
    play's place in an imported file, to name it)."""
    if held + adding <= PER_PLAY:
        return
    if number is not None:
        raise RuleError(
            "too_many_photos",
            NP_(
                "Play number %(number)s of the file has %(count)s photo; a play keeps at most %(most)s.",
                "Play number %(number)s of the file has %(count)s photos; a play keeps at most %(most)s.",
            ),
            "photos",
            count=adding,
            number=number,
            most=PER_PLAY,
        )
    raise RuleError(
        "too_many_photos",
        NP_(
            "This play has %(count)s photo already, and keeps at most %(most)s: delete one to add another.",
            "This play has %(count)s photos already, and keeps at most %(most)s: delete one to add another.",
        ),
        "photo",
        count=held,
        most=PER_PLAY,
    )


def pictures_of(entry: dict, refuse: Callable[[], RuleError]) -> list[tuple[Picture, str | None]]:
    """An imported play's photos as the service checked them (pairs of a ``Picture`` and its text
    alternative, at most ``PER_PLAY``); ``refuse()`` is raised for anything else."""
    found = entry.get("photos", ())
    if (
        not isinstance(found, list | tuple)
        or len(found) > PER_PLAY
        or not all(
            isinstance(pair, tuple)
            and len(pair) == 2
            and isinstance(pair[0], Picture)
            and (pair[1] is None or isinstance(pair[1], str))
            for pair in found
        )
    ):
        raise refuse()
    return list(found)


def add_imported(conn: Connection, entries: list[dict]) -> None:
    """Inside an import's write: the photos these new plays brought (``entry["photos"]``: pairs of a
    ``Picture`` and its alternative text, checked by the service)."""
    for entry in entries:
        for picture, alt in entry.get("photos", ()):
            _insert(conn, entry["id"], picture, alt)


def delete_photo(conn: Connection, play_id: str, photo_id: int) -> bool:
    """Delete one photo of a play; whether there was such a photo."""
    with base.write(conn):
        gone = conn.execute(
            play_photos.delete().where(play_photos.c.id == photo_id, play_photos.c.play_id == play_id)
        )
    return gone.rowcount > 0


def drop_play_photos(conn: Connection, play_id: str) -> None:
    """Inside a write that deletes or withdraws a play: its photos go first (they hang on it)."""
    conn.execute(play_photos.delete().where(play_photos.c.play_id == play_id))


def drop_player_photos(conn: Connection, player_id: int) -> None:
    """Inside the write that forgets a player: the photos of every play they were in."""
    theirs = sa.select(play_players.c.play_id).where(play_players.c.player_id == player_id)
    conn.execute(play_photos.delete().where(play_photos.c.play_id.in_(theirs)))


def player_photo_count(conn: Connection, player_id: int) -> int:
    """How many photos the plays of this player hold (what forgetting them deletes)."""
    theirs = sa.select(play_players.c.play_id).where(play_players.c.player_id == player_id)
    return conn.execute(
        sa.select(sa.func.count()).select_from(play_photos).where(play_photos.c.play_id.in_(theirs))
    ).scalar_one()


def total(conn: Connection) -> tuple[int, int]:
    """Every photo kept: how many, and how many bytes they take."""
    count, size = conn.execute(sa.select(sa.func.count(), sa.func.sum(play_photos.c.size))).one()
    return count, int(size or 0)


def remembered_links(conn: Connection, phone: str, table_id: str) -> list[Link]:
    """The links to this table that a browser (``phone``, its secret identity) opened: how the
    pages know that it is the table's referee or one of its players."""
    rows = conn.execute(
        sa.select(
            links.c.token,
            links.c.table_id,
            links.c.role,
            links.c.seat,
            links.c.label,
            links.c.claimed_by,
            links.c.joined_at,
        )
        .select_from(remembered.join(links, links.c.token == remembered.c.token))
        .where(remembered.c.phone == phone_digest(phone), links.c.table_id == table_id)
        .order_by(links.c.position)
    ).all()
    return [link_from_row(tuple(row)) for row in rows]


def digest_of(data: bytes) -> str:
    """A photo's digest: part of its address, so that an address always names the same bytes."""
    return hashlib.sha256(data).hexdigest()[:20]


_SHOWN = (
    play_photos.c.id,
    play_photos.c.play_id,
    play_photos.c.media_type,
    play_photos.c.width,
    play_photos.c.height,
    play_photos.c.size,
    play_photos.c.digest,
    play_photos.c.alt,
)


def _photo(row: sa.Row, number: int) -> Photo:
    return Photo(
        row.id, row.play_id, number, row.media_type, row.width, row.height, row.size, row.digest, row.alt
    )


def _insert(conn: Connection, play_id: str, picture: Picture, alt: str | None) -> int:
    """Inside a write: one photo kept with its play; its id."""
    return conn.execute(
        play_photos.insert()
        .values(
            play_id=play_id,
            media_type=picture.media_type,
            width=picture.width,
            height=picture.height,
            size=len(picture.content),
            digest=digest_of(picture.content),
            alt=alt or None,
            added=base.now(),
            content=picture.content,
        )
        .returning(play_photos.c.id)
    ).scalar_one()
