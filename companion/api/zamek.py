"""Zamek's tools over the JSON API (/api/v1/zamek/...): the rules module's answers, with their schemas."""

from __future__ import annotations

from companion import api
from companion.rules import zamek

_CASTLE = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": zamek.HIGHEST},
    "description": "The tile 1, then the castle's cards in ascending order.",
}
_CASTLES = {
    "type": "object",
    "minProperties": 2,
    "maxProperties": 4,
    "additionalProperties": _CASTLE,
    "example": {"p1": [1, 5, 12], "p2": [1, 3]},
}
_NUMBER = {"type": "integer", "minimum": zamek.LOWEST, "maximum": zamek.HIGHEST}
_DECK = {
    "description": 'The shipped deck "default", or a deck: one king, queen and wizard, any knights and princesses.',
    "oneOf": [
        {"type": "string", "enum": ["default"]},
        {
            "type": "object",
            "required": ["king", "queen", "wizard", "knights", "princesses"],
            "properties": {
                "king": _NUMBER,
                "queen": _NUMBER,
                "wizard": _NUMBER,
                "knights": {"type": "array", "items": _NUMBER},
                "princesses": {"type": "array", "items": _NUMBER},
                "id": {"type": "string"},
                "name": {"type": "string"},
                "version": {"type": "integer"},
            },
        },
    ],
    "example": "default",
}
_PLAYER = {"type": "string", "nullable": True, "example": "p1"}
_SCORE = {
    "type": "object",
    "properties": {
        "total": {"type": "integer"},
        "elements": {"type": "integer"},
        "knights": {"type": "integer"},
        "princesses": {"type": "integer"},
        "pairs": {"type": "integer"},
        "king": {"type": "boolean"},
        "queen": {"type": "boolean"},
        "wizard": {"type": "boolean"},
    },
}


@api.endpoint(
    "/zamek/turn",
    summary="One card turned over: added, put back, boxed, or slid in by the wizard.",
    request_schema={
        "type": "object",
        "required": ["castles", "player", "card", "action"],
        "properties": {
            "castles": _CASTLES,
            "player": {"type": "string", "example": "p1"},
            "card": {**_NUMBER, "example": 9},
            "action": {"type": "string", "enum": list(zamek.CHOICES)},
            "deck": _DECK,
            "wizard_used": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Players who used the wizard.",
            },
            "box": {
                "type": "array",
                "items": _NUMBER,
                "description": "Optional: the numbers already in the box.",
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["result", "castles", "winner"],
        "properties": {
            "result": {"type": "string", "enum": ["added", "put_back", "boxed", "inserted"]},
            "castles": _CASTLES,
            "winner": {
                **_PLAYER,
                "description": "Set when a castle has just reached 10 elements (basic game).",
            },
            "box": {"type": "array", "items": _NUMBER},
            "wizard_used": {"type": "array", "items": {"type": "string"}},
        },
    },
    tag="zamek",
)
def turn(body: object) -> dict:
    """``POST /api/v1/zamek/turn``."""
    return zamek.api_turn(body)


@api.endpoint(
    "/zamek/score",
    summary="The extended game's final scores with their breakdown, the winner and the tie-break that decided.",
    request_schema={
        "type": "object",
        "required": ["castles"],
        "properties": {"deck": _DECK, "castles": _CASTLES},
    },
    response_schema={
        "type": "object",
        "required": ["scores", "winner", "decided_by"],
        "properties": {
            "scores": {"type": "object", "additionalProperties": _SCORE},
            "winner": _PLAYER,
            "decided_by": {
                "type": "string",
                "enum": ["score", "king", "queen", "wizard"],
                "nullable": True,
                "description": "null: a draw.",
            },
            "deck": {"type": "object", "description": "The deck scored with: id, name, version."},
        },
    },
    tag="zamek",
)
def score(body: object) -> dict:
    """``POST /api/v1/zamek/score``."""
    return zamek.api_score(body)
