"""Tables over the JSON API (../shared/api.md, "Tables"): create, read, act, undo, finish, claim, log;
and, beyond the contract, the referee's pause and resume of the table's clock (docs/history.md, "Clock").

A link's token is the key, and the table service (``companion.service.tables``) decides what it
may see and do, as on the pages: this module reads the JSON, calls the service with typed values
and answers in JSON; a refusal of the service's is its status with ``{"error": {code, message}}``.
A seat's link claimed by a phone answers only a program that sends the claim's secret in the
``Seat-Claim`` header, which ``POST /tables/<seat token>/claim`` gives to a program claiming a free
seat. A change sent with an ``Idempotency-Key`` header is applied once and a repeat gets the first
answer (``store.Once``); the answer leaves only after the commit. Options are JSON values, checked
against the game's schema and read by the same ``table_options`` as the page's start form.
"""

from __future__ import annotations

from datetime import datetime

from flask import Response, current_app, jsonify, make_response, request, url_for

from companion import api, store
from companion.api import Refused, bp, json_body
from companion.http import security
from companion.http.context import get_db, registry
from companion.http.requests import public_base_url
from companion.i18n import say
from companion.rules import clock
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.service import schemas
from companion.service import tables as service
from companion.service.games import Game

MAX_KEY = 200  # an Idempotency-Key is a UUID or so; anything longer is a mistake
CLAIM_HEADER = "Seat-Claim"  # the secret of a seat's claim, proving a program holds it


@bp.post("/tables")
@security.limited("tables")
def create():
    """Create a table: ``{"game", "options", "private"?}`` → 201 with its links and the referee's table."""
    body = _object(json_body(), "body")
    slug = body.get("game")
    game = registry().games.get(slug) if isinstance(slug, str) else None  # [1] cannot be looked up
    if game is None or not game.has_tables:
        playable = ", ".join(slug for slug, known in registry().games.items() if known.has_tables)
        raise Refused(422, "unknown_game", N_("The game must be one of: %(games)s."), "game", games=playable)
    fields = body.get("options", {})
    if game.options_schema is not None:
        schemas.check(game.options_schema, fields, "options")
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise Refused(
            422,
            "bad_private",
            N_("“private” is true (the table stays out of the history) or false."),
            "private",
        )
    table, links = service.create(get_db(), game, _options(fields), private)
    security.count("tables")
    referee, viewer, seats = links[0], links[1], links[2:]
    answer = {
        "game": game.slug,
        "links": {
            "referee": _address(referee),
            "viewer": _address(viewer),
            "seats": [{"seat": link.seat, "name": link.label, **_address(link)} for link in seats],
        },
        "table": table_answer(referee, table, game),
    }
    return jsonify(answer), 201


@bp.get("/tables/<token>")
def read(token: str):
    """The table as this link may see it, with an ETag; 304 while nothing changed.

    The 304 reads only the table's version, so a program polling an idle table costs one lookup.
    """
    link, game = _open(token)
    etag = f"table-{store.table_version(get_db(), link.table_id)}"
    if request.if_none_match.contains(etag):
        response = make_response("", 304)
    else:
        table = store.get_table(get_db(), link.table_id)
        etag = f"table-{table.version}"
        response = jsonify(table_answer(link, table, game))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.post("/tables/<token>/actions")
def act(token: str):
    """Apply an action: ``{"action", "version"}`` → the table after it (409 stale, 422 refused, 403).

    The table is read once, locked, by the change itself: here only the link and its game."""
    link, game = _open(token)
    body = _object(json_body(), "body")
    return _change(
        link,
        game,
        lambda once: service.act(get_db(), link, game, body.get("action"), _version(body), once),
    )


@bp.post("/tables/<token>/undo")
def undo(token: str):
    """The referee takes back the last entry still in force: ``{"version"}`` → the table after it."""
    link, game = _open(token)
    body = _object(json_body(), "body")
    return _change(link, game, lambda once: service.undo(get_db(), link, game, _version(body), once))


@bp.post("/tables/<token>/finish")
def finish(token: str):
    """The referee finishes the table (the score pad's only end): ``{"version"}`` → the finished table."""
    link, game = _open(token)
    table = store.get_table(get_db(), link.table_id)
    body = _object(json_body(), "body")
    return _change(link, game, lambda once: service.finish(get_db(), link, table, game, _version(body), once))


@bp.post("/tables/<token>/pause")
def pause(token: str):
    """The referee pauses the table, for dinner: ``{}`` → the table (``paused`` true). An extension of
    the contract: the pause is left out of the play's length and of every player's thinking time."""
    return _set_paused(token, True)


@bp.post("/tables/<token>/resume")
def resume(token: str):
    """The referee resumes a paused table: ``{}`` → the table (``paused`` false). An extension."""
    return _set_paused(token, False)


def _set_paused(token: str, paused: bool):
    """Pause or resume through the table service (the referee's link only: 403 otherwise); a second
    pause, or resuming a running table, changes nothing and answers the table as it is."""
    link, game = _open(token)
    _object(json_body(), "body")
    service.set_paused(get_db(), link, paused)
    return jsonify(table_answer(link, store.get_table(get_db(), link.table_id), game))


@bp.post("/tables/<token>/claim")
def claim(token: str):
    """A program claims a player's seat: ``{}`` → the claim's secret, for the ``Seat-Claim`` header of
    its later requests through this link, and the table as the seat sees it."""
    who = _program()
    link, game = service.open_link(get_db(), registry().games, token, who)
    _object(json_body(), "body")
    secret = service.claim(get_db(), link, game, who)
    table = store.get_table(get_db(), link.table_id)
    return jsonify({"claim": secret, "table": table_answer(link, table, game)})


@bp.get("/tables/<token>/log")
def log(token: str):
    """Every entry of the table's log, oldest first, in the history page's words (never a secret)."""
    link, game = _open(token)
    entries = reversed(service.log(get_db(), link, game))
    return jsonify(
        {
            "actions": [
                {
                    "n": entry["seq"],
                    "at": _utc(entry["at"]),
                    "by": entry["actor"],
                    "text": say(entry["description"]),
                    "undone": entry["undone"],
                }
                for entry in entries
            ]
        }
    )


@bp.errorhandler(Refused)
def _refused(refused: Refused):
    return refused.answer()


@bp.errorhandler(service.Refusal)
def _service_refusal(refused: service.Refusal):
    return jsonify({"error": refused.as_dict(say)}), refused.status


@bp.errorhandler(RuleError)
def _rule_error(refused: RuleError):
    return jsonify({"error": refused.as_dict(say)}), 422


def table_answer(link: store.Link, table: store.Table, game: Game) -> dict:
    """The answer of ``GET /tables/<token>``: the table as ``link`` may see it."""
    result = service.result(table, game)
    return {
        "game": game.slug,
        "version": table.version,
        "role": link.role,
        "seat": link.seat,
        "finished": table.finished or result is not None,
        "private": table.private,
        "paused": clock.is_paused(store.table_clock(get_db(), table.id)),
        "result": result,
        "view": service.seen(link, table, game),
    }


def _change(link: store.Link, game: Game, change):
    """Run one change of the table, applied once per ``Idempotency-Key``; answer with the table after it.

    The answer kept with the key is the answer sent: the view is made once."""
    made: dict[int, dict] = {}

    def answer(table: store.Table) -> dict:
        if table.version not in made:
            made[table.version] = table_answer(link, table, game)
        return made[table.version]

    once = _once(link, answer)
    try:
        table = change(once)
    except store.StaleTable as stale:
        raise Refused(
            409, "stale_table", str(stale), extra={"table": table_answer(link, stale.table, game)}
        ) from None
    except store.Repeated as repeat:
        # A key first used by this link's page form kept no answer: the table as it is now.
        first = repeat.answer or table_answer(link, store.get_table(get_db(), link.table_id), game)
        response = jsonify(first)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    return _written(answer(table))


def _written(answer: dict) -> Response:
    """A change's answer, written by the store (the parts it shares with the state it just wrote,
    such as a long score pad's rounds, cost nothing more): a move's answer costs what the move changed."""
    return current_app.response_class(store.answer_text(answer) + "\n", mimetype="application/json")


def _once(link: store.Link, answer) -> store.Once | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY or not key.isprintable():
        raise Refused(
            422,
            "bad_idempotency_key",
            N_("An Idempotency-Key is 1 to %(most)s printable characters."),
            most=MAX_KEY,
        )
    return store.Once(key, link.token, answer)


def _open(token: str) -> tuple[store.Link, Game]:
    """The link and its game, as the service lets this program in (its claim, if it sent one)."""
    return service.open_link(get_db(), registry().games, token, _program())


def _program() -> service.Program:
    """This request's program, with the claim's secret it sent (``Seat-Claim``), if any."""
    return service.Program(request.headers.get(CLAIM_HEADER) or None)


def _object(value: object, field: str) -> dict:
    if not isinstance(value, dict):
        raise Refused(422, "bad_body", N_("Send a JSON object, as the API document shows."), field)
    return value


def _version(body: dict) -> int | None:
    """The version a change was chosen on, or None when none was sent (the service says what then)."""
    version = body.get("version")
    return None if isinstance(version, bool) or not isinstance(version, int) else version


def _options(options: object) -> dict:
    """The creation options as sent, typed: each text, a whole number, true or false (or null: left
    out), or a list of text and whole numbers; the game's ``table_options`` reads them."""
    for key, value in _object(options, "options").items():
        for item in value if isinstance(value, list) else [value]:
            if not (isinstance(item, str | int) or (item is None and not isinstance(value, list))):
                raise Refused(
                    422,
                    "bad_options",
                    N_("An option is text, a whole number, true or false, or a list of them."),
                    f"options.{key}",
                )
    return options


def _address(link: store.Link) -> dict:
    return {"token": link.token, "url": public_base_url() + url_for("tables.show", token=link.token)}


def _utc(stamp: str) -> str:
    """``2026-11-23T20:14:05.123+00:00`` → ``2026-11-23T20:14:05Z``."""
    return datetime.fromisoformat(stamp).strftime("%Y-%m-%dT%H:%M:%SZ")


def describe(games: list[Game]) -> None:
    """Put the table endpoints in the OpenAPI document, with each game's options and actions schemas."""
    playable = [game for game in games if game.has_tables]
    creations, moves = [], []
    for game in playable:
        name = "".join(part.title() for part in game.slug.split("_"))
        options = api.schema(f"{name}Options", game.options_schema or {"type": "object"})
        creations.append(
            {
                "type": "object",
                "title": game.name,
                "required": ["game"],
                "properties": {"game": {"const": game.slug}, "options": options, "private": _PRIVATE},
            }
        )
        moves.append(
            {**api.schema(f"{name}Action", game.action_schema or {"type": "object"}), "title": game.name}
        )
    table = api.schema("Table", _TABLE_SCHEMA)
    token = {
        "name": "token",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": "The link's token: the referee's, the viewer's or a seat's.",
    }
    seat_claim = {
        "name": CLAIM_HEADER,
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The secret of a seat's claim (POST /tables/{token}/claim): a player's seat that a "
        "phone or program has claimed answers only its claimer.",
    }
    claimed = api.error_response(
        "A player's seat claimed by a phone or another program: send its claim's secret in Seat-Claim "
        "(code seat_claimed)."
    )
    key = {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "schema": {"type": "string", "maxLength": MAX_KEY},
        "description": "Any unique text per action: sent again with the same key, the action is applied once "
        "and the answer is the first one. Keys are kept for two days, per table.",
    }
    version = {"version": {"type": "integer", "description": "The table's version the change was chosen on."}}
    malformed = {
        "400": api.error_response("Malformed JSON."),
        "415": api.error_response("The body is not declared as application/json."),
    }
    changed = {
        "200": {"description": "The table after the change, as this link sees it.", "content": _json(table)},
        **malformed,
        "403": api.error_response("This link may not do that (a viewer's link acts, a seat's link undoes)."),
        "404": api.error_response("No table has this token."),
        "409": {
            "description": "The table changed since `version`: nothing was recorded; `table` is how it is now.",
            "content": _json(
                {
                    "allOf": [
                        {"$ref": "#/components/schemas/Error"},
                        {"type": "object", "properties": {"table": table}},
                    ]
                }
            ),
        },
        "422": api.error_response("The rules refuse it, or the table is finished; the message says why."),
    }

    def change(summary: str, body: dict) -> dict:
        return {
            "post": {
                "summary": summary,
                "tags": ["tables"],
                "parameters": [token, key, seat_claim],
                "requestBody": {"required": True, "content": _json(body)},
                "responses": changed,
            }
        }

    api.document(
        "/tables",
        {
            "post": {
                "summary": "Create a table of a game; options as the game's start form takes them.",
                "tags": ["tables"],
                "requestBody": {"required": True, "content": _json({"oneOf": creations})},
                "responses": {
                    "201": {
                        "description": "The table's links and the table as its referee sees it.",
                        "content": _json(_CREATED_SCHEMA),
                    },
                    **malformed,
                    "422": api.error_response("Unknown game or options the game refuses."),
                },
            }
        },
    )
    api.document(
        "/tables/{token}",
        {
            "get": {
                "summary": "The table as this link may see it.",
                "tags": ["tables"],
                "parameters": [token, seat_claim],
                "responses": {
                    "200": {"description": "The table, with an ETag.", "content": _json(table)},
                    "304": {"description": "Nothing changed since the ETag sent in If-None-Match."},
                    "403": claimed,
                    "404": api.error_response("No table has this token."),
                },
            }
        },
    )
    api.document(
        "/tables/{token}/actions",
        change(
            "Apply one action (version may be left out for order-free actions such as a team's vote).",
            {"type": "object", "required": ["action"], "properties": {"action": {"oneOf": moves}, **version}},
        ),
    )
    api.document(
        "/tables/{token}/undo",
        change(
            "The referee takes back the last entry still in force (undoing a finish reopens the table).",
            {"type": "object", "required": ["version"], "properties": version},
        ),
    )
    api.document(
        "/tables/{token}/finish",
        change(
            "The referee finishes the table; a game that ends by its rules finishes by itself.",
            {"type": "object", "required": ["version"], "properties": version},
        ),
    )
    api.document(
        "/tables/{token}/log",
        {
            "get": {
                "summary": "The table's log in the history page's words, with nothing this link may not see.",
                "tags": ["tables"],
                "parameters": [token, seat_claim],
                "responses": {
                    "200": {"description": "Every entry, oldest first.", "content": _json(_LOG_SCHEMA)},
                    "403": claimed,
                    "404": api.error_response("No table has this token."),
                },
            }
        },
    )
    _describe_claim(token, seat_claim, table, malformed, claimed)
    _describe_pause(token, table, malformed)


def _describe_pause(token: dict, table: dict, malformed: dict) -> None:
    """``POST /tables/{token}/pause`` and ``/resume`` in the OpenAPI document: an extension of the
    contract (../shared/api.md has no pause), the referee's only."""
    for path, summary in (
        (
            "pause",
            "Extension (not in the contract): the referee pauses the table, for dinner. Its time does "
            "not count in the play's length nor in any player's thinking time until it is resumed; moves "
            "may still be recorded. Pausing a paused table changes nothing.",
        ),
        (
            "resume",
            "Extension (not in the contract): the referee resumes a paused table. Resuming a "
            "running table changes nothing.",
        ),
    ):
        api.document(
            f"/tables/{{token}}/{path}",
            {
                "post": {
                    "summary": summary,
                    "tags": ["tables"],
                    "parameters": [token],
                    "requestBody": {"required": True, "content": _json({"type": "object"})},
                    "responses": {
                        "200": {
                            "description": "The table as the referee sees it, with `paused`.",
                            "content": _json(table),
                        },
                        **malformed,
                        "403": api.error_response("Not the referee's link (code referee_only)."),
                        "404": api.error_response("No table has this token."),
                        "422": api.error_response("The body is not a JSON object (code bad_body)."),
                    },
                }
            },
        )


def _describe_claim(token: dict, seat_claim: dict, table: dict, malformed: dict, claimed: dict) -> None:
    """``POST /tables/{token}/claim`` in the OpenAPI document."""
    api.document(
        "/tables/{token}/claim",
        {
            "post": {
                "summary": "Claim a player's seat for this program: its link then answers only the phone or "
                "program holding the claim. Claiming a seat this program holds gives its secret again.",
                "tags": ["tables"],
                "parameters": [token, seat_claim],
                "requestBody": {"required": True, "content": _json({"type": "object"})},
                "responses": {
                    "200": {
                        "description": "The claim's secret, to send in Seat-Claim with every later request "
                        "through this seat's link, and the table as the seat sees it.",
                        "content": _json(
                            {
                                "type": "object",
                                "required": ["claim", "table"],
                                "properties": {"claim": {"type": "string"}, "table": table},
                            }
                        ),
                    },
                    **malformed,
                    "403": claimed,
                    "404": api.error_response("No table has this token."),
                    "422": api.error_response(
                        "Not a player's own seat: the referee's, the viewer's and a team's links are never claimed."
                    ),
                },
            }
        },
    )


def _json(schema: dict) -> dict:
    return {"application/json": {"schema": schema}}


_PRIVATE = {
    "type": "boolean",
    "default": False,
    "description": "Keep this table out of the history: it never becomes a play.",
}
_RESULT_SCHEMA = {
    "type": ["object", "null"],
    "description": "The final score once the table is finished (null while it is on, or when it was abandoned).",
    "properties": {
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "score", "winner", "team"],
                "properties": {
                    "name": {"type": "string"},
                    "score": {"type": "integer"},
                    "winner": {"type": "boolean"},
                    "team": {"type": ["string", "null"]},
                },
            },
        }
    },
}
_TABLE_SCHEMA = {
    "type": "object",
    "required": ["game", "version", "role", "seat", "finished", "result", "view"],
    "properties": {
        "game": {"type": "string"},
        "version": {
            "type": "integer",
            "description": "Goes up with every change; send it back with the next one.",
        },
        "role": {"enum": ["referee", "viewer", "seat"]},
        "seat": {"type": ["string", "null"]},
        "finished": {"type": "boolean"},
        "private": {"type": "boolean", "description": "Kept out of the history: it never becomes a play."},
        "paused": {
            "type": "boolean",
            "description": "The referee paused the table (an extension: POST /tables/{token}/pause and "
            "/resume): its time does not count in the play's length nor in anyone's thinking time.",
        },
        "result": _RESULT_SCHEMA,
        "view": {
            "type": "object",
            "description": "What this link may see: the game's view, as its page shows it.",
        },
    },
}
_ADDRESS = {
    "type": "object",
    "required": ["token", "url"],
    "properties": {"token": {"type": "string"}, "url": {"type": "string"}},
}
_CREATED_SCHEMA = {
    "type": "object",
    "required": ["game", "links", "table"],
    "properties": {
        "game": {"type": "string"},
        "links": {
            "type": "object",
            "properties": {
                "referee": _ADDRESS,
                "viewer": _ADDRESS,
                "seats": {
                    "type": "array",
                    "items": {
                        "allOf": [
                            _ADDRESS,
                            {
                                "type": "object",
                                "properties": {"seat": {"type": "string"}, "name": {"type": "string"}},
                            },
                        ]
                    },
                },
            },
        },
        "table": {"$ref": "#/components/schemas/Table"},
    },
}
_LOG_SCHEMA = {
    "type": "object",
    "required": ["actions"],
    "properties": {
        "actions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["n", "at", "by", "text", "undone"],
                "properties": {
                    "n": {"type": "integer"},
                    "at": {"type": "string", "format": "date-time"},
                    "by": {"type": "string", "description": "referee, or the seat that acted"},
                    "text": {"type": "string"},
                    "undone": {"type": "boolean"},
                },
            },
        }
    },
}
