"""Every play's result, oldest first, for the ratings and rivalries (``service.ratings``), and a
fingerprint of them that changes whenever a result the ratings read does: a play written,
withdrawn, imported or deleted, two players merged, a result rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.store.db import play_players
from companion.store.db import players as player_rows
from companion.store.db import plays as play_rows


@dataclass(frozen=True)
class Result:
    """One seat of one play, as the ratings read it: the play (its id, game, end and which way its
    scores count) and the seat (its place in the result, the player's id, team, score, win)."""

    play_id: str
    game: str
    finished: str
    lowest_wins: bool
    position: int
    player_id: int
    team: str | None
    score: int | None
    winner: bool


def every_result(conn: Connection) -> list[Result]:
    """Every seat of every play, the plays in the order they ended, to the second (then by id, so
    that two plays ended in the same second come in one order on every server, exported and
    imported or not), each play's seats in the result's order."""
    rows = conn.execute(
        sa.select(
            play_rows.c.id,
            play_rows.c.game,
            play_rows.c.finished,
            play_rows.c.lowest_wins,
            play_players.c.position,
            play_players.c.player_id,
            play_players.c.team,
            play_players.c.score,
            play_players.c.winner,
        )
        .select_from(play_players.join(play_rows, play_rows.c.id == play_players.c.play_id))
        # To the second, as an export keeps a play's end: a server importing it orders the same.
        .order_by(sa.func.substr(play_rows.c.finished, 1, 19), play_rows.c.id, play_players.c.position)
    )
    return [
        Result(
            row.id,
            row.game,
            row.finished,
            bool(row.lowest_wins),
            row.position,
            row.player_id,
            row.team,
            row.score,
            bool(row.winner),
        )
        for row in rows
    ]


def results_fingerprint(conn: Connection) -> tuple:
    """A few sums over every seat of every play, read in one pass of an index-sized table: a play
    added or withdrawn changes the count, a merge the players' sums (the one kept has another id),
    a result rewritten the winners' and scores' sums or the last end. Two different histories
    with one fingerprint would need every one of these sums to agree."""
    winner_id = sa.case((play_players.c.winner, play_players.c.player_id), else_=0)
    return tuple(
        conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(play_players.c.player_id), 0),
                sa.func.coalesce(sa.func.sum(play_players.c.player_id * (play_players.c.position + 1)), 0),
                sa.func.coalesce(sa.func.sum(winner_id * (play_players.c.position + 1)), 0),
                sa.func.coalesce(
                    sa.func.sum(play_players.c.score % 1_000_003), 0
                ),  # bounded: never overflows
                sa.func.count(play_players.c.team),
                sa.func.min(play_players.c.finished),
                sa.func.max(play_players.c.finished),
                sa.func.max(play_players.c.play_id),
            )
        ).one()
    )


def names_of(conn: Connection, player_ids: list[int]) -> dict[int, str]:
    """The names of these players, by id (a player merged away since is left out)."""
    names: dict[int, str] = {}
    for start in range(0, len(player_ids), 500):
        chunk = player_ids[start : start + 500]
        names |= dict(
            conn.execute(
                sa.select(player_rows.c.id, player_rows.c.name).where(player_rows.c.id.in_(chunk))
            ).all()
        )
    return names
