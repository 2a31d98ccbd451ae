"""Square Tactics's tools over the JSON API (/api/v1/tactics/...): the rules module's answers, with their schemas."""

from __future__ import annotations

from companion import api
from companion.rules import tactics

_EDGES = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": 9},
    "minItems": 4,
    "maxItems": 4,
    "description": "top, right, bottom, left, as the card's owner reads them",
    "example": [5, 3, 7, 2],
}
_CARD = {
    "type": "object",
    "required": ["owner", "edges"],
    "properties": {"owner": {"type": "string", "example": "p2"}, "edges": _EDGES},
}
_BOARD = {
    "type": "object",
    "description": "Cells (A1 top-left, as seat S sees the board) to the card on them.",
    "propertyNames": {"pattern": "^[A-Da-d][1-4]$"},
    "additionalProperties": _CARD,
    "example": {"B2": {"owner": "p2", "edges": [3, 4, 6, 2]}},
}
_PLAYER_SCORE = {
    "type": "object",
    "required": ["total", "captured", "position"],
    "properties": {key: {"type": "integer"} for key in ("total", "captured", "position")},
}
_SIZE = {"type": "integer", "enum": [3, 4], "description": "3 for two players, 4 for four."}


@api.endpoint(
    "/tactics/play",
    summary="Play a card on the board: each comparison step, the cells captured and the board after.",
    request_schema={
        "type": "object",
        "required": ["size", "seats", "board", "play"],
        "properties": {
            "size": _SIZE,
            "seats": {
                "type": "object",
                "description": "Players to seats: S N on 3x3, S W N E on 4x4.",
                "additionalProperties": {"type": "string", "enum": ["S", "N", "W", "E"]},
                "example": {"p1": "S", "p2": "N"},
            },
            "board": _BOARD,
            "play": {
                "type": "object",
                "required": ["player", "cell", "edges"],
                "properties": {
                    "player": {"type": "string", "example": "p1"},
                    "cell": {"type": "string", "example": "B3"},
                    "edges": _EDGES,
                    "hand": {
                        "type": "array",
                        "items": _EDGES,
                        "description": "Optional: the cards the player holds.",
                    },
                },
            },
            "turn": {
                "type": "string",
                "description": "Optional: whose turn it is; another player's play is refused.",
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["steps", "captured", "board"],
        "properties": {
            "steps": {
                "type": "array",
                "description": "Edges that met an opponent's card, in order, ending at a stop.",
                "items": {
                    "type": "object",
                    "required": ["edge", "cell", "mine", "theirs", "result"],
                    "properties": {
                        "edge": {"type": "string", "enum": list(tactics.EDGES)},
                        "cell": {"type": "string"},
                        "mine": {"type": "integer"},
                        "theirs": {"type": "integer"},
                        "result": {"type": "string", "enum": ["capture", "equal", "stop"]},
                    },
                },
            },
            "captured": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Sorted column, then row.",
            },
            "board": _BOARD,
        },
    },
    tag="tactics",
)
def play(body: object) -> dict:
    """``POST /api/v1/tactics/play``."""
    return tactics.api_play(body)


@api.endpoint(
    "/tactics/score",
    summary="Each player's points at the end of a game (captures plus the cells held) and the winner.",
    request_schema={
        "type": "object",
        "required": ["size", "board"],
        "properties": {
            "size": _SIZE,
            "board": _BOARD,
            "captured": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0},
                "example": {"p1": 2, "p2": 1},
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["scores", "winner"],
        "properties": {
            "scores": {
                "type": "object",
                "additionalProperties": _PLAYER_SCORE,
                "example": {"p1": {"total": 9, "captured": 2, "position": 7}},
            },
            "winner": {"type": "string", "nullable": True, "description": "null on a draw"},
        },
    },
    tag="tactics",
)
def score(body: object) -> dict:
    """``POST /api/v1/tactics/score``."""
    return tactics.api_score(body)
