"""Plays over the JSON API (../shared/api.md, "Plays"): the history as JSON and as CSV.

Every table that ended is a play (see ``store``, "Players and plays"); these endpoints read
them, newest first, filtered by game and by player, a page at a time. A filter that makes
no sense is a 422 in the contract's error shape, never a 500.
"""

from __future__ import annotations

import csv
import io

from flask import Response, jsonify, request

from companion import api, store
from companion.api import Refused, bp
from companion.http.context import get_db, registry
from companion.rules.numbers import whole_number
from companion.rules.sentences import N_
from companion.service import ratings

# The contract's eight columns; ``?with=began`` adds who began as a ninth, so that a reader of the
# contract's header gets it exactly.
CSV_HEADER = ("play", "game", "started", "finished", "player", "team", "score", "winner")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run as a formula


@bp.get("/plays")
def plays():
    """``{"plays": [...], "next": id | null}``: the plays newest first; ``next`` is the ``before`` of the next page."""
    game, player, limit, before = _filters(default_limit=store.PLAYS_PAGE)
    found = store.list_plays(get_db(), game, player, limit + 1, before)
    more = len(found) > limit
    found = found[:limit]
    answers = ratings.with_ratings(get_db(), [play_answer(play) for play in found])
    return jsonify({"plays": answers, "next": found[-1].id if more else None})


def play_answer(play: store.Play) -> dict:
    """A play in the API's shape (``Play`` in the OpenAPI document)."""
    return {
        "id": play.id,
        "game": play.game,
        "started": play.started,
        "finished": play.finished,
        "players": [
            {
                "name": seat.name,
                "score": seat.score,
                "winner": seat.winner,
                "team": seat.team,
                "player": seat.player_id,
                "thinking_seconds": seat.thinking_seconds,
            }
            for seat in play.players
        ],
        "details": play.details,
        "first_player": play.first_player,
    }


@bp.get("/plays.csv")
def plays_csv():
    """The same plays as CSV, one row per player per play (every play unless ``limit`` is given)."""
    game, player, limit, before = _filters(default_limit=None)
    began = request.args.get("with") == "began"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow((*CSV_HEADER, "began") if began else CSV_HEADER)
    left = limit
    while left is None or left > 0:
        page = min(store.MAX_PAGE, left) if left is not None else store.MAX_PAGE
        found = store.list_plays(get_db(), game, player, page, before)
        for play in found:
            for position, seat in enumerate(play.players):
                row = [
                    _cell(play.id),  # an imported id may begin with "-"
                    play.game,
                    play.started,
                    play.finished,
                    _cell(seat.name),
                    _cell(seat.team or ""),
                    "" if seat.score is None else seat.score,
                    "true" if seat.winner else "false",
                ]
                writer.writerow([*row, _began(play, position)] if began else row)
        if len(found) < page:
            break
        before = found[-1].id
        left = None if left is None else left - len(found)
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="castellan-plays.csv"'
    return response


def _began(play: store.Play, position: int) -> str:
    """The ``began`` cell: ``true`` for who began, ``false`` for the others, empty when not known."""
    if play.first_player is None:
        return ""
    return "true" if position == play.first_player else "false"


def _cell(text: str) -> str:
    """A name as a CSV cell a spreadsheet shows rather than runs: "=1+1" becomes "'=1+1"."""
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


def _filters(default_limit: int | None) -> tuple[str | None, str | None, int | None, str | None]:
    """``game``, ``player``, ``limit`` and ``before`` from the query string, checked."""
    args = request.args
    game = args.get("game") or None
    if game is not None and (game not in registry().games or not registry().games[game].has_tables):
        playable = ", ".join(slug for slug, known in registry().games.items() if known.has_tables)
        raise Refused(422, "unknown_game", N_("The game must be one of: %(games)s."), "game", games=playable)
    player = args.get("player") or None
    if player is not None and len(player) > store.PLAYER_NAME_LENGTH:
        raise Refused(
            422,
            "bad_player",
            N_("A player's name is 1 to %(most)s characters."),
            "player",
            most=store.PLAYER_NAME_LENGTH,
        )
    limit = default_limit
    if args.get("limit"):
        text = args["limit"]
        if not 1 <= (whole_number(text) or 0) <= store.MAX_PAGE:
            raise Refused(
                422,
                "bad_limit",
                N_("The limit is a whole number from %(least)s to %(most)s."),
                "limit",
                least=1,
                most=store.MAX_PAGE,
            )
        limit = int(text)
    before = args.get("before") or None
    if before is not None and store.play(get_db(), before) is None:
        raise Refused(
            422,
            "unknown_play",
            N_("There is no play with the id given as “before”: give a play's id, as “next” gave it."),
            "before",
        )
    return game, player, limit, before


def describe() -> None:
    """Put the plays endpoints in the OpenAPI document."""
    play = api.schema("Play", _PLAY_SCHEMA)
    filters = [
        {
            "name": "game",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "Only this game's plays (a game's slug: castle, fort, forteresse, scorepad, tactics, zamek).",
        },
        {
            "name": "player",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "Only the plays of this player: a name (in any capitals) or a player's id.",
        },
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "schema": {"type": "integer", "minimum": 1, "maximum": store.MAX_PAGE},
            "description": f"How many plays (JSON: {store.PLAYS_PAGE} unless given; CSV: all unless given).",
        },
        {
            "name": "before",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "Start after this play (its id): the previous answer's `next`, for the next page.",
        },
    ]
    refused = api.error_response(
        "A filter that makes no sense (an unknown game, a limit out of range); the message says why."
    )
    api.document(
        "/plays",
        {
            "get": {
                "summary": "The plays (tables that ended), newest first, filtered by game and player, a page at a time.",
                "tags": ["plays"],
                "parameters": filters,
                "responses": {
                    "200": {
                        "description": "A page of plays, and the `before` of the next page (null on the last).",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["plays", "next"],
                                    "properties": {
                                        "plays": {"type": "array", "items": play},
                                        "next": {"type": ["string", "null"]},
                                    },
                                }
                            }
                        },
                    },
                    "422": refused,
                },
            }
        },
    )
    api.document(
        "/plays.csv",
        {
            "get": {
                "summary": "The plays as CSV, one row per player per play: play,game,started,finished,player,team,score,winner (with=began adds began).",
                "tags": ["plays"],
                "parameters": [
                    *filters,
                    {
                        "name": "with",
                        "in": "query",
                        "schema": {"enum": ["began"]},
                        "description": "`began`: a ninth column, true for who began, false for the others, empty when not known.",
                    },
                ],
                "responses": {
                    "200": {
                        "description": "CSV with a header row; `winner` is true or false.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    "422": refused,
                },
            }
        },
    )


_PLAY_SCHEMA = {
    "type": "object",
    "required": ["id", "game", "started", "finished", "players", "details"],
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string"},
        "started": {
            "type": "string",
            "format": "date-time",
            "description": "When the table was created (UTC).",
        },
        "finished": {"type": "string", "format": "date-time", "description": "When the table ended (UTC)."},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "score", "winner", "team"],
                "properties": {
                    "name": {"type": "string"},
                    "score": {"type": ["integer", "null"]},
                    "winner": {"type": "boolean"},
                    "team": {"type": ["string", "null"]},
                    "player": {"type": "integer", "description": "The player's id on this server."},
                    "rating": ratings.RATING_SCHEMA,
                    "thinking_seconds": {
                        "type": ["integer", "null"],
                        "description": "How long the table's turn timer or chess clock counted this player "
                        "thinking, in seconds, pauses left out; null when the table had no such clock (or "
                        "the play was kept before Castellan kept it).",
                    },
                },
            },
        },
        "details": {
            "type": "object",
            "description": "The game's own details (rounds, captured ranks, tie-break...).",
        },
        "first_player": {
            "type": ["integer", "null"],
            "description": "Who began: a place in `players` (0 for the first); null when not known (plays kept before Castellan kept it).",
        },
    },
}
