"""Plays: a table that ended (by its rules, or finished by its referee), written in the same
transaction as the change that ends it (``record_play``) and withdrawn by the undo that reopens
it; the history's lists, pages and figures; plays imported from another server.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from types import ModuleType
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.rules import clock
from companion.rules.errors import RuleError
from companion.rules.numbers import within_bounds
from companion.rules.sentences import N_
from companion.store import base, imports, photos
from companion.store.base import token_shaped, utc
from companion.store.db import (
    Sql,
    play_players,
    run,
    run_many,
    table_clocks,
)
from companion.store.db import players as player_rows
from companion.store.db import plays as play_rows
from companion.store.roster import MAX_PAGE, checked_name, find_or_add_player, find_player, name_key

if TYPE_CHECKING:
    from companion.store.tables import Table


MAX_DETAILS = 256 * 1024  # bytes of one imported play's details: a long score pad's rounds take a few


PLAYS_PAGE = 50  # plays per page of the history, unless asked for fewer


# An imported play's id: what this server's own ids are made of (hexadecimal), and what is safe in
# a link, an attribute and a spreadsheet's cell alike.
PLAY_ID = re.compile(r"[A-Za-z0-9_-]{10,64}")
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # an imported play's dates: from then
YEARS_AHEAD = 50  # to the end of the year this many years from now


@dataclass(frozen=True)
class PlaySeat:
    """One player of a play, in the result's order: their name and id on this server (``player_id``:
    renaming or merging them changes every play at once), their score and team if the game has
    them, whether they won, and ``thinking_seconds``: how long the table's turn timer or chess clock
    counted them thinking, pauses left out (None: the table had no such clock, or the play was kept
    before Castellan kept it)."""

    name: str
    score: int | None
    winner: bool
    team: str | None
    player_id: int
    thinking_seconds: int | None = None


@dataclass(frozen=True)
class Play:
    """A table that ended (or a play imported from another server): its game, when it started and
    ended (ISO 8601 in UTC, ``…Z``), its players and the game's own details (``rules.play_details``);
    ``first_player``: the place in ``players`` of who began (None: not known, as for the plays kept
    before Castellan kept it)."""

    id: str
    game: str
    started: str
    finished: str
    players: tuple[PlaySeat, ...]
    details: dict
    first_player: int | None = None
    seconds: int | None = None  # how long it was played: its start to its end, less the referee's pauses

    @property
    def lowest_wins(self) -> bool:
        """Whether this play's scores count down (see ``lowest_wins``)."""
        return lowest_wins(self.details)


def list_plays(
    conn: Connection,
    game: str | None = None,
    player: str | int | None = None,
    limit: int = PLAYS_PAGE,
    before: str | None = None,
) -> list[Play]:
    """The plays, newest first; ``game`` and ``player`` (a name or an id) filter, ``before`` (a
    play's id) starts after that play: the next page."""
    scope = _plays_query(conn, game, player)
    if scope is None:
        return []
    query, finished, play_id = scope
    if before is not None:
        anchor = conn.execute(
            sa.select(play_rows.c.finished, play_rows.c.id).where(play_rows.c.id == before)
        ).first()
        if anchor is None:
            return []
        query = query.where(sa.tuple_(finished, play_id) < sa.tuple_(anchor.finished, anchor.id))
    rows = conn.execute(
        query.order_by(finished.desc(), play_id.desc()).limit(max(1, min(int(limit), MAX_PAGE)))
    ).all()
    unique = list(
        {row.id: row for row in rows}.values()
    )  # a player seated twice in one play (merged) is one play
    return _read_plays(conn, unique)


def count_plays(conn: Connection, game: str | None = None, player: str | int | None = None) -> int:
    """How many plays ``list_plays`` would go through with these filters."""
    scope = _plays_query(conn, game, player)
    if scope is None:
        return 0
    query, _finished, play_id = scope
    return conn.execute(query.with_only_columns(sa.func.count(sa.distinct(play_id)))).scalar()


def play(conn: Connection, play_id: str) -> Play | None:
    """One play, or None."""
    if not isinstance(play_id, str) or not token_shaped(play_id):
        return None
    row = run(conn, _PLAY, {"id": play_id}).fetchone()
    if row is None:
        return None
    # What _read_plays gives for a page of plays, read for the one play a table's end shows.
    return _read_play(
        *row[:5], [_read_seat(*seat) for seat in run(conn, _PLAY_SEATS, {"id": play_id}).fetchall()], *row[5:]
    )


def table_play(conn: Connection, table_id: str) -> Play | None:
    """The play a table became (as ``play`` gives it), or None while it is on, or if it is private."""
    return play(conn, _play_id(table_id))


def player_stats(conn: Connection, player_id: int) -> dict:
    """A player's record: plays, wins, win rate; per game and direction (``games``: a list, by game,
    high-is-good first) plays, wins, average and best score; and the players they played against most
    (``{"name", "id", "plays"}``, at most 5).

    A game's plays whose scores count down (``lowest_wins``, a "lowest total wins" score pad) are a
    row of their own: their best score is their lowest, and it is never compared with, nor averaged
    into, the scores of the plays where the highest wins.
    """
    wins_column = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0))
    rows = conn.execute(
        sa.select(
            play_rows.c.game,
            play_rows.c.lowest_wins,
            sa.func.count().label("plays"),
            wins_column.label("wins"),
            sa.func.avg(play_players.c.score).label("average"),
            sa.func.max(play_players.c.score).label("highest"),
            sa.func.min(play_players.c.score).label("lowest"),
        )
        .select_from(play_players.join(play_rows, play_rows.c.id == play_players.c.play_id))
        .where(play_players.c.player_id == player_id)
        .group_by(play_rows.c.game, play_rows.c.lowest_wins)
        .order_by(play_rows.c.game, play_rows.c.lowest_wins)
    ).all()
    per_game = [
        {
            "game": row.game,
            "lowest_wins": bool(row.lowest_wins),
            "plays": row.plays,
            "wins": int(row.wins),
            "win_rate": int(row.wins) / row.plays,
            "average_score": None if row.average is None else float(row.average),
            "best_score": row.lowest if row.lowest_wins else row.highest,
        }
        for row in rows
    ]
    total, wins = sum(row.plays for row in rows), sum(int(row.wins) for row in rows)
    mine = sa.select(play_players.c.play_id).where(play_players.c.player_id == player_id)
    met = sa.func.count(sa.distinct(play_players.c.play_id)).label("plays")
    opponents = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name, met)
        .select_from(play_players.join(player_rows, player_rows.c.id == play_players.c.player_id))
        .where(play_players.c.play_id.in_(mine), play_players.c.player_id != player_id)
        .group_by(player_rows.c.id, player_rows.c.name)
        .order_by(met.desc(), player_rows.c.name)
        .limit(5)
    ).all()
    return {
        "plays": total,
        "wins": wins,
        "win_rate": wins / total if total else None,
        "games": per_game,
        "opponents": [{"id": row.id, "name": row.name, "plays": row.plays} for row in opponents],
    }


def player_days(conn: Connection, player_id: int, zone: tzinfo | None = None) -> list[tuple[str, int, int]]:
    """A player's record day by day, oldest first: (``2026-11-23``, plays, wins), the wins over time
    of their page. A day is the reader's: midnight in ``zone`` (their phone's time zone; UTC when
    none). One row per day played, however many plays a day had."""
    # Counted by the minute in SQL (every time zone is a whole number of minutes from UTC), then
    # each minute put on its day in the zone: a play at 23:30 in Warsaw is that day's, not the next.
    minute = sa.func.substr(play_players.c.finished, 1, 16).label("minute")
    wins = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0))
    rows = conn.execute(
        sa.select(minute, sa.func.count().label("plays"), wins.label("wins"))
        .where(play_players.c.player_id == player_id)
        .group_by(minute)
        .order_by(minute)
    )
    days: dict[str, list[int]] = {}
    for row in rows:
        moment = datetime.fromisoformat(row.minute).replace(tzinfo=UTC)
        counted = days.setdefault(base.in_zone(moment, zone or UTC).date().isoformat(), [0, 0])
        counted[0] += row.plays
        counted[1] += int(row.wins)
    return [(day, plays, wins) for day, (plays, wins) in sorted(days.items())]


def game_stats(conn: Connection, game: str) -> dict:
    """A game's record: plays, the winners' table (``{"id", "name", "wins", "plays"}``, most wins
    first, at most 10) and the average length of a play in seconds (None with no play)."""
    played, seconds = conn.execute(
        sa.select(sa.func.count(), sa.func.avg(play_rows.c.seconds)).where(play_rows.c.game == game)
    ).one()
    wins = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0)).label("wins")
    count = sa.func.count(play_players.c.play_id).label("plays")
    winners = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name, wins, count)
        .select_from(
            play_players.join(play_rows, play_rows.c.id == play_players.c.play_id).join(
                player_rows, player_rows.c.id == play_players.c.player_id
            )
        )
        .where(play_rows.c.game == game)
        .group_by(player_rows.c.id, player_rows.c.name)
        .having(wins > 0)
        .order_by(wins.desc(), count, player_rows.c.name)
        .limit(10)
    ).all()
    return {
        "plays": played,
        "winners": [
            {"id": row.id, "name": row.name, "wins": int(row.wins), "plays": row.plays} for row in winners
        ],
        "average_seconds": None if seconds is None else float(seconds),
    }


def import_plays(
    conn: Connection,
    imported: list[dict],
    bounds: imports.ImportBounds | None = None,
    address: str | None = None,
) -> int:
    """Add plays exported by a Castellan server (each a play of its file: ``{"id", "game",
    "started", "finished", "players": [{"name", "team", "score", "winner"}], "details"}``, and
    ``first_player`` and each player's ``thinking_seconds`` where they are known); how many were new.

    A play already here (same id) is skipped, so importing a file twice adds nothing twice.
    A play's players are found by name, or created. ``RuleError`` for a play that is not in
    that shape, or (with ``bounds``) for a file that would add more new players than a file may, or
    more plays or new players than ``address`` may still add this hour (``imports.OverQuota``):
    then nothing is added.

    The plays are written ``IMPORT_CHUNK`` at a time, each chunk its own short transaction, so that
    a move on another table waits for one chunk at most, never for the whole file. A file cut short
    (the server stopped midway) has its first chunks here: importing it again adds the rest.
    """
    checked = list(
        {
            entry["id"]: entry for entry in (_imported(entry, index) for index, entry in enumerate(imported))
        }.values()
    )
    new = _not_here(conn, checked)
    if bounds is not None:
        players = _new_names(conn, new)
        imports.check_file(bounds, len(players))
        imports.take(conn, bounds, address or "", len(new), len(players))
    added = 0
    for start in range(0, len(new), IMPORT_CHUNK):
        if start and conn.dialect.name == "sqlite":
            # SQLite wakes a move waiting for the lock every 100 ms at most: left free this long,
            # the lock goes to the move, not straight back to the next chunk.
            time.sleep(IMPORT_PAUSE)
        with base.write(conn):
            added += _write_imported(conn, _not_here(conn, new[start : start + IMPORT_CHUNK]))
    return added


IMPORT_CHUNK = 500  # plays per write of an import: about a quarter of a second of the write lock
IMPORT_PAUSE = 0.1  # seconds the lock is left free between two chunks (SQLite)


def _not_here(conn: Connection, entries: list[dict]) -> list[dict]:
    """The checked plays whose ids this server does not have yet."""
    present: set[str] = set()
    for start in range(0, len(entries), MAX_PAGE):
        ids = [entry["id"] for entry in entries[start : start + MAX_PAGE]]
        present |= set(conn.execute(sa.select(play_rows.c.id).where(play_rows.c.id.in_(ids))).scalars())
    return [entry for entry in entries if entry["id"] not in present]


def _new_names(conn: Connection, entries: list[dict]) -> set[str]:
    """The name keys of these plays' players that no player here has yet."""
    keys = sorted({name_key(seat["name"]) for entry in entries for seat in entry["players"]})
    known: set[str] = set()
    for start in range(0, len(keys), MAX_PAGE):
        chunk = keys[start : start + MAX_PAGE]
        known |= set(conn.execute(sa.select(player_rows.c.key).where(player_rows.c.key.in_(chunk))).scalars())
    return set(keys) - known


def _write_imported(conn: Connection, new: list[dict]) -> int:
    """Inside a write: these checked plays (none of them here yet), and their players; how many."""
    if not new:
        return 0
    conn.execute(
        play_rows.insert(),
        [
            {
                "id": entry["id"],
                "table_id": None,
                "game": entry["game"],
                "started": entry["started"],
                "finished": entry["finished"],
                "seconds": entry["seconds"],
                "details": base.dump(entry["details"]),
                "lowest_wins": lowest_wins(entry["details"]),
                "first_player": entry["first_player"],
            }
            for entry in new
        ],
    )
    # Players found (or made) in the order of their keys, as everywhere: two transactions adding
    # the same new names never wait for each other in a circle.
    names = {name_key(seat["name"]): seat["name"] for entry in new for seat in entry["players"]}
    known = {key: find_or_add_player(conn, names[key]) for key in sorted(names)}
    conn.execute(
        play_players.insert(),
        [
            {
                "play_id": entry["id"],
                "position": position,
                "player_id": known[name_key(seat["name"])],
                "finished": entry["finished"],
                "team": seat["team"],
                "score": seat["score"],
                "winner": seat["winner"],
                "thinking_seconds": seat["thinking_seconds"],
            }
            for entry in new
            for position, seat in enumerate(entry["players"])
        ],
    )
    photos.add_imported(conn, new)
    return len(new)


def record_play(
    conn: Connection,
    rules: ModuleType,
    table: Table,
    state: dict,
    finished: bool,
    withdraw: bool,
    ended_at: str | None = None,
) -> None:
    """Inside a change's transaction: the table's play as the new state says (written when the
    game is over, ending now or ``ended_at``; withdrawn when it is not, if ``withdraw``: the table
    was a play before; never for a private table), with which way its scores count (``lowest_wins``)."""
    if table.private:
        return
    result = rules.result(state, finished)
    if result is None and not withdraw:  # a game going on, as it was: nothing to write (most moves)
        return
    play_id = _play_id(table.id)
    if result is None:
        if withdraw:
            photos.drop_play_photos(conn, play_id)
            run(conn, _DROP_PLAY_SEATS, {"id": play_id})
            run(conn, _DROP_PLAY, {"id": play_id})
        return
    play_details = rules.play_details(state)
    values = {"id": play_id, "details": base.dump(play_details), "lowest_wins": lowest_wins(play_details)}
    found = run(conn, _PLAY_FINISHED, values).fetchone()
    timed = _table_clock(conn, table.id)
    if found is None:
        kept = ended_at or base.now()
        values |= {
            "table_id": table.id,
            "game": table.game,
            "started": table.created_at,
            "finished": kept,
            "seconds": int(clock.in_play(timed, table.created_at, kept)),
            "first_player": _first_player(rules, state, len(result["players"])),
        }
        run(conn, _ADD_PLAY, values)
    else:
        kept = found[0]
        run(conn, _SET_PLAY_DETAILS, values)
        run(conn, _DROP_PLAY_SEATS, values)
    _write_play_players(conn, play_id, kept, result["players"], _thinking(timed, result["players"], kept))


def delete_play(conn: Connection, play_id: str) -> Play | None:
    """Take a play out of the history for good, with every row that hangs on it (its seats, its
    photos); the play as it was, or None when there is no such play. The one way a play is deleted:
    whatever else a play gains rows in (ratings) is deleted here too."""
    found = play(conn, play_id)
    if found is None:
        return None
    with base.write(conn):
        photos.drop_play_photos(conn, play_id)
        run(conn, _DROP_PLAY_SEATS, {"id": play_id})
        run(conn, _DROP_PLAY, {"id": play_id})
    return found


def table_of_play(conn: Connection, play_id: str) -> str | None:
    """The id of the table a play was (None for an imported play, or no such play)."""
    if not isinstance(play_id, str) or not token_shaped(play_id):
        return None
    return conn.execute(sa.select(play_rows.c.table_id).where(play_rows.c.id == play_id)).scalar()


def _table_clock(conn: Connection, table_id: str) -> dict | None:
    """The table's clock as it ends (``rules.clock``: its pauses and its per-seat clock), or None."""
    kept = conn.execute(sa.select(table_clocks.c.clock).where(table_clocks.c.table_id == table_id)).scalar()
    return None if kept is None else json.loads(kept)


def _thinking(timed: dict | None, entries: list[dict], finished: str) -> list[int | None]:
    """Each of the result's players' thinking time in whole seconds, as the table's turn timer or
    chess clock counted it up to ``finished`` (pauses are not thinking: ``clock.used`` leaves them
    out); a player it never timed thought for 0 seconds. All None for a table without such a clock."""
    if not timed or not timed.get("kind"):
        return [None] * len(entries)
    times = clock.thinking_times(timed, finished)
    return [times.get(entry["name"], 0) for entry in entries]


def _first_player(rules: ModuleType, state: dict, seated: int) -> int | None:
    """Who began, as the rules say: a place among the play's ``seated`` players, or None."""
    first = rules.first_player(state)
    return first if isinstance(first, int) and 0 <= first < seated else None


def lowest_wins(details: object) -> bool:
    """Whether a play's scores count down (the lowest is the best), as its game's details say:
    ``"lowest_wins": true`` (a score pad set to "lowest total wins"). Every other play counts up."""
    return isinstance(details, dict) and details.get("lowest_wins") is True


def _write_play_players(
    conn: Connection, play_id: str, finished: str, entries: list[dict], thinking: list[int | None]
) -> None:
    # Players found (or made) in the order of their keys, as everywhere: two transactions adding
    # the same new names never wait for each other in a circle.
    ids = {
        name: find_or_add_player(conn, name)
        for name in sorted({entry["name"] for entry in entries}, key=name_key)
    }
    run_many(
        conn,
        _ADD_PLAY_SEAT,
        [
            {
                "play_id": play_id,
                "position": position,
                "player_id": ids[entry["name"]],
                "finished": finished,
                "team": entry.get("team"),
                "score": entry.get("score"),
                "winner": bool(entry.get("winner")),
                "thinking_seconds": thinking[position],
            }
            for position, entry in enumerate(entries)
        ],
    )


def _play_id(table_id: str) -> str:
    """A table's play's id: the same each time the table ends, and it does not reveal the table's."""
    return hashlib.sha256(f"play:{table_id}".encode()).hexdigest()[:24]


def _plays_query(
    conn: Connection, game: str | None, player: str | int | None
) -> tuple[sa.Select, sa.Column, sa.Column] | None:
    """The plays with these filters, and the columns to order and page them by: those of the index
    the filter walks (None when the player is unknown: no play)."""
    if player is None:
        query = sa.select(play_rows)
        finished, play_id = play_rows.c.finished, play_rows.c.id
    else:
        found = find_player(conn, player)
        if found is None:
            return None
        query = (
            sa.select(play_rows)
            .select_from(play_players.join(play_rows, play_rows.c.id == play_players.c.play_id))
            .where(play_players.c.player_id == found["id"])
        )
        finished, play_id = play_players.c.finished, play_players.c.play_id
    if game is not None:
        query = query.where(play_rows.c.game == game)
    return query, finished, play_id


def _read_plays(conn: Connection, rows: list[sa.Row]) -> list[Play]:
    """The plays of these stored rows, their players read in one query."""
    ids = [row.id for row in rows]
    seated: dict[str, list[PlaySeat]] = {play_id: [] for play_id in ids}
    if ids:
        for row in conn.execute(
            sa.select(play_players, player_rows.c.name)
            .select_from(play_players.join(player_rows, player_rows.c.id == play_players.c.player_id))
            .where(play_players.c.play_id.in_(ids))
            .order_by(play_players.c.play_id, play_players.c.position)
        ):
            seated[row.play_id].append(
                _read_seat(row.name, row.score, row.winner, row.team, row.player_id, row.thinking_seconds)
            )
    return [
        _read_play(
            row.id,
            row.game,
            row.started,
            row.finished,
            row.details,
            seated[row.id],
            row.first_player,
            row.seconds,
        )
        for row in rows
    ]


def _read_seat(
    name: str, score: int | None, winner: object, team: str | None, player_id: int, thinking: int | None
) -> PlaySeat:
    """One seat of a play, from its stored row's values (a database's winner may be 0 or 1)."""
    return PlaySeat(name, score, bool(winner), team, player_id, thinking)


def _read_play(
    play_id: str,
    game: str,
    started: str,
    finished: str,
    details: str,
    seated: list[PlaySeat],
    first_player: int | None = None,
    seconds: int | None = None,
) -> Play:
    """One play, from its stored row's values and its seats."""
    return Play(
        play_id, game, utc(started), utc(finished), tuple(seated), json.loads(details), first_player, seconds
    )


def _imported(entry: object, index: int) -> dict:
    """One imported play, checked: its id, game, times (kept as stored here), players and details."""

    def refuse() -> RuleError:
        return RuleError(
            "bad_play",
            N_("Play number %(number)s of the file is not a Castellan play."),
            f"plays.{index}",
            number=index + 1,
        )

    if not isinstance(entry, dict):
        raise refuse()
    play_id, game, details = entry.get("id"), entry.get("game"), entry.get("details", {})
    entries = entry.get("players")
    if not isinstance(play_id, str) or not PLAY_ID.fullmatch(play_id):
        raise RuleError(
            "bad_play_id",
            N_(
                "Play number %(number)s of the file has an id Castellan cannot keep: an id is 10 to 64 letters A to Z, digits, hyphens and underscores."
            ),
            f"plays.{index}.id",
            number=index + 1,
        )
    if not (
        isinstance(game, str)
        and 0 < len(game) <= 40
        and isinstance(details, dict)
        and isinstance(entries, list)
        and 0 < len(entries) <= 16
    ):
        raise refuse()
    try:
        if len(base.dump(details).encode("utf-8")) > MAX_DETAILS or not within_bounds(
            details
        ):  # a lone surrogate cannot be stored: refused here
            raise ValueError("details")
        moments = {field: _moment(entry.get(field)) for field in ("started", "finished")}
        names = [checked_name(seat.get("name")) for seat in entries]
    except (RuleError, ValueError, TypeError, AttributeError):
        raise refuse() from None
    started, finished = (_kept_time(moments[field], entry[field], index, field) for field in moments)
    seats = []
    for name, seat in zip(names, entries, strict=True):
        score, team = seat.get("score"), seat.get("team")
        thinking = seat.get("thinking_seconds")  # absent from the files of a Castellan that did not keep it
        if (
            (
                score is not None
                and (isinstance(score, bool) or not isinstance(score, int) or abs(score) >= 2**53)
            )
            or (team is not None and not (isinstance(team, str) and len(team) <= 40 and team.isprintable()))
            or (thinking is not None and not _storable_seconds(thinking))
        ):
            raise refuse()
        seats.append(
            {
                "name": name,
                "score": score,
                "team": team,
                "winner": seat.get("winner") is True,
                "thinking_seconds": thinking,
            }
        )
    seconds = entry.get("seconds")  # time in play: absent where it is the start to the end
    if seconds is None:
        seconds = _seconds(started, finished)
    elif not _storable_seconds(seconds):
        raise refuse()
    first = entry.get("first_player")  # who began: absent from the files of a Castellan that did not keep it
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(seats)
    ):
        raise refuse()
    return {
        "id": play_id,
        "game": game,
        "started": started,
        "finished": finished,
        "players": seats,
        "details": details,
        "first_player": first,
        "seconds": seconds,
        "photos": photos.pictures_of(entry, refuse),  # made safe by the service (service.plays_export)
    }


def _storable_seconds(value: object) -> bool:
    """Whether an imported length of time is one this store keeps: 0 to 10⁹ whole seconds."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**9


def _moment(text: object) -> datetime:
    """An imported time (``2026-11-23T20:14:05Z``, any offset) as a datetime; ``ValueError`` without an offset."""
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(text)
    return moment


def _kept_time(moment: datetime, text: str, index: int, field: str) -> str:
    """An imported time as this store keeps it (``base.stamp``), when it is one the history keeps:
    from 1970 to the end of the year ``YEARS_AHEAD`` from now; else ``RuleError`` naming the play."""
    latest = datetime.now(UTC).year + YEARS_AHEAD
    # Compared before it is moved to UTC: the year 1 at +05:00 would leave the calendar on the way.
    if not EARLIEST <= moment < datetime(latest + 1, 1, 1, tzinfo=UTC):
        raise RuleError(
            "bad_play_date",
            N_(
                "Play number %(number)s of the file is dated %(date)s: Castellan keeps plays from 1970 to %(latest)s."
            ),
            f"plays.{index}.{field}",
            number=index + 1,
            date=str(text)[:40],
            latest=str(latest),
        )
    return base.stamp(moment)


def _seconds(started: str, finished: str) -> int:
    """How long a play lasted, in whole seconds."""
    return max(0, int((datetime.fromisoformat(finished) - datetime.fromisoformat(started)).total_seconds()))


# A table's play, written when its game ends (``record_play``) and read back for the page's foot
# (``play``): the moment every phone at the table looks, so without SQLAlchemy Core's compiling
# (4 to 5 ms the first time in a worker).
_PLAY_FINISHED = Sql("SELECT finished FROM plays WHERE id = :id")


_ADD_PLAY = Sql(
    "INSERT INTO plays (id, table_id, game, started, finished, seconds, details, lowest_wins, first_player)"
    " VALUES (:id, :table_id, :game, :started, :finished, :seconds, :details, :lowest_wins, :first_player)"
)
_SET_PLAY_DETAILS = Sql("UPDATE plays SET details = :details, lowest_wins = :lowest_wins WHERE id = :id")
_DROP_PLAY_SEATS = Sql("DELETE FROM play_players WHERE play_id = :id")


_DROP_PLAY = Sql("DELETE FROM plays WHERE id = :id")


_ADD_PLAY_SEAT = Sql(
    "INSERT INTO play_players (play_id, position, player_id, finished, team, score, winner, thinking_seconds)"
    " VALUES (:play_id, :position, :player_id, :finished, :team, :score, :winner, :thinking_seconds)"
)


_PLAY = Sql("SELECT id, game, started, finished, details, first_player, seconds FROM plays WHERE id = :id")


_PLAY_SEATS = Sql(
    "SELECT p.name, s.score, s.winner, s.team, s.player_id, s.thinking_seconds"
    " FROM play_players s JOIN players p ON p.id = s.player_id"
    " WHERE s.play_id = :id ORDER BY s.position"
)
