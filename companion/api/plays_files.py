"""The plays as files over the API (../shared/api.md, "Plays"): Castellan's own export and its
import on another server, and the file BG Stats imports. The documents are made in
``companion.plays_export``; here are the routes, their query parameters and their refusals.

GET  /api/v1/plays/export.json    every play, in Castellan's versioned export
POST /api/v1/plays/import         that export as the JSON body: adds the plays not here yet
GET  /api/v1/plays/bgstats.json   the plays as a BG Stats file (``?game=&player=&tz=&me=``)
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Response, current_app, jsonify, request

from companion import api, store
from companion.api import Refused, bp, json_body
from companion.api import plays as plays_api
from companion.http import security
from companion.http.context import get_db, registry
from companion.i18n import say
from companion.rules.sentences import N_
from companion.service import plays_export, ratings

MAX_ZONE = 64  # "America/Argentina/ComodRivadavia" is 32


@bp.get("/plays/export.json")
def plays_export_file():
    """Every play of this server, as the file another Castellan server imports."""
    document = plays_export.castellan_document(plays_export.every_play(get_db()), get_db())
    ratings.with_ratings(get_db(), document["plays"])
    return _download(document, f"castellan-plays-{_today()}.json")


@bp.post("/plays/import")
@security.takes_upload(plays_export.MAX_FILE_BYTES)
@security.limited("imports")
def plays_import():
    """Add the plays of a Castellan export that are not here yet: ``{"imported", "skipped", "plays"}``."""
    security.count("imports")  # read and checked, refused or not: a few a minute from one address
    try:
        added, total = plays_export.import_document(
            get_db(), json_body(), registry().games, current_app.config["IMPORT_BOUNDS"], request.remote_addr
        )  # any other RuleError is the API's 422
    except store.OverQuota as over:  # this address's hour is used up: ask again when it ends
        return jsonify({"error": over.as_dict(say)}), 429, {"Retry-After": str(over.retry_after)}
    return {"imported": added, "skipped": total - added, "plays": total}


@bp.get("/plays/bgstats.json")
def plays_bgstats():
    """The plays (``?game=``, ``?player=`` as ``/plays``) as a file the BG Stats app imports;
    ``?tz=Europe/Warsaw`` gives its dates in that time zone, ``?me=Ola`` marks Ola as the app's owner."""
    game, player, _limit, _before = plays_api._filters(default_limit=None)  # checked as /plays checks them
    plays = plays_export.every_play(get_db(), game=game, player=player)
    document = plays_export.bgstats_document(
        plays,
        {known.slug: known.name for known in registry().ordered()},
        location=current_app.config.get("LOCATION_NAME") or plays_export.DEFAULT_LOCATION,
        zone=_zone(request.args.get("tz")),
        me=request.args.get("me") or None,
    )
    return _download(document, f"castellan-{_today()}.bgsplay")


def _zone(name: str | None):
    """The time zone named (``Europe/Warsaw``), or None for this server's own."""
    if not name:
        return None
    try:
        if len(name) > MAX_ZONE:
            raise ValueError(name)
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):
        raise Refused(
            422,
            "unknown_time_zone",
            N_("There is no time zone called %(zone)s: give one such as Europe/Warsaw."),
            "tz",
            zone=name[:MAX_ZONE],
        ) from None


def _download(document: dict, filename: str) -> Response:
    response = Response(json.dumps(document, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


_FILTERS = [
    {
        "name": "game",
        "in": "query",
        "schema": {"type": "string"},
        "description": "Only this game's plays (its slug).",
    },
    {
        "name": "player",
        "in": "query",
        "schema": {"type": "string"},
        "description": "Only this player's plays (a name or an id).",
    },
]
api.document(
    "/plays/export.json",
    {
        "get": {
            "summary": "Every play of this server, as the file another Castellan server imports.",
            "tags": ["plays"],
            "operationId": "plays_export",
            "responses": {
                "200": {
                    "description": "The export: {format, version, plays}; a play with photos carries them in base64.",
                    "content": {"application/json": {}},
                }
            },
        }
    },
)
api.document(
    "/plays/import",
    {
        "post": {
            "summary": "Add the plays of a Castellan export that are not on this server yet.",
            "tags": ["plays"],
            "operationId": "plays_import",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            "responses": {
                "200": {
                    "description": "How many plays were added and how many were already here.",
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "imported": {"type": "integer"},
                                    "skipped": {"type": "integer"},
                                    "plays": {"type": "integer"},
                                },
                            }
                        }
                    },
                },
                "400": api.error_response("Malformed JSON."),
                "413": api.error_response("The file is larger than an import takes."),
                "415": api.error_response("The body is not declared as application/json."),
                "422": api.error_response(
                    "The file is not a Castellan export of plays, or holds more plays or new players"
                    " than one file may, or a photo Castellan cannot keep; the message says why (and"
                    " names the play at fault)."
                ),
                "429": api.error_response(
                    "This address imported too many files this minute, or the file would take it past"
                    " the plays or new players it may import in an hour; Retry-After says when to ask again."
                ),
            },
        }
    },
)
api.document(
    "/plays/bgstats.json",
    {
        "get": {
            "summary": "The plays as a file the BG Stats app imports.",
            "tags": ["plays"],
            "operationId": "plays_bgstats",
            "parameters": [
                *_FILTERS,
                {
                    "name": "tz",
                    "in": "query",
                    "schema": {"type": "string"},
                    "description": "The time zone of the file's dates (default: the server's).",
                },
                {
                    "name": "me",
                    "in": "query",
                    "schema": {"type": "string"},
                    "description": "The player who owns the BG Stats app.",
                },
            ],
            "responses": {
                "200": {
                    "description": "A BG Stats file: games, players, locations, plays.",
                    "content": {"application/json": {}},
                },
                "422": api.error_response("An unknown game or time zone."),
            },
        }
    },
)
