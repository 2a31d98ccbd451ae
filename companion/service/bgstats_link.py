"""Send to BG Stats: one play as the link BG Stats documents for other apps ("Push plays to BG Stats
from other apps or websites", bgstatsapp.com/support): ``https://app.bgstatsapp.com/createPlay.html
?data=<the play as URL-encoded JSON>``. Tapped on the phone where BG Stats is installed, the app opens
its import dialog with the play filled in. The server never contacts BG Stats: it only writes the link.

The play's JSON: ``sourceName`` (this app), ``sourcePlayId`` (the play's id, so the app knows a play
sent twice), ``playDate`` (its start, ``YYYY-MM-DD HH:MM:SS`` in UTC, as the link's data takes it),
``durationMin``, ``game`` (``name``, ``sourceGameId``, ``highestWins``, ``noPoints``) and ``players``
(``name``, ``sourcePlayerId``, ``score``, ``winner``, ``rank``, ``startPlayer``, and ``team`` where
the game has teams). The ids are those of Castellan's BG Stats file (the same uuids, made from the
game and the player's name), so the app matches the games and players it was sent either way.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from urllib.parse import quote

from companion import store
from companion.service.plays_export import NAMESPACE

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Castellan"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"


def link(play: store.Play, game_name: str, seconds: int | None = None) -> str:
    """The "Send to BG Stats" address of ``play`` (``game_name``: its game's name in English, as the
    file has it; ``seconds``: how long it was played, else its start to its end)."""
    return f"{CREATE_PLAY}?data={quote(json.dumps(play_data(play, game_name, seconds), separators=(',', ':')), safe='')}"


def play_data(play: store.Play, game_name: str, seconds: int | None = None) -> dict:
    """The JSON a link carries for ``play`` (see the module's docstring)."""
    started, finished = _moment(play.started), _moment(play.finished)
    length = (finished - started).total_seconds() if seconds is None else seconds
    lowest = play.lowest_wins
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.id,
        "playDate": started.strftime(PLAY_DATE),
        "durationMin": max(0, round(length / 60)),
        "game": {
            "name": f"{game_name} (lowest total wins)" if lowest else game_name,
            "sourceGameId": _uuid("game", f"{play.game}:lowest" if lowest else play.game),
            "highestWins": not lowest,
            "noPoints": all(seat.score is None for seat in play.players),
        },
        "players": [_player(play, position) for position in range(len(play.players))],
    }


def _player(play: store.Play, position: int) -> dict:
    """One player of the play as the link's data names them."""
    seat = play.players[position]
    entry = {
        "name": seat.name,
        "sourcePlayerId": _uuid("player", store.name_key(seat.name)),
        "winner": seat.winner,
        "rank": _rank(play, position),
        "startPlayer": position == play.first_player,
    }
    if seat.score is not None:
        entry["score"] = seat.score
    if seat.team:
        entry["team"] = seat.team
    return entry


def _rank(play: store.Play, position: int) -> int:
    """1 for the winners, then 1 + how many players did better (by score, the play's way of counting;
    equal scores share a rank, a side's players too)."""
    seat = play.players[position]
    if seat.winner:
        return 1
    winners = sum(1 for other in play.players if other.winner)
    if seat.score is None:
        return winners + 1
    better = sum(
        1
        for other in play.players
        if not other.winner
        and other.score is not None
        and (other.score < seat.score if play.lowest_wins else other.score > seat.score)
    )
    return winners + better + 1


def _uuid(kind: str, key: str) -> str:
    """The uuid Castellan's BG Stats file gives this game or player (``plays_export``'s, same namespace)."""
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
