"""Forteresse's tools over the JSON API (/api/v1/forteresse/...): the rules module's answers, with their schemas."""

from __future__ import annotations

from companion import api
from companion.rules import forteresse

_CELL = {"type": "string", "pattern": "^[A-Ga-g][1-7]$", "example": "C4"}
_CELLS = {"type": "array", "items": _CELL}
_FORTRESS = {
    "type": "object",
    "required": ["walls", "besieged"],
    "properties": {
        "walls": {**_CELLS, "maxItems": 10, "description": "Cells of B2-F6."},
        "besieged": {**_CELLS, "maxItems": 5, "description": "Cells of B2-F6."},
    },
}
_SEAT_POINTS = {
    "type": "object",
    "required": ["a", "b"],
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
}
_TALLY = {
    "type": "object",
    "required": ["killed", "cannons", "rifles"],
    "properties": {
        "killed": {"type": "integer", "minimum": 0, "maximum": 5},
        "cannons": {"type": "integer", "minimum": 0, "maximum": 24},
        "rifles": {"type": "integer", "minimum": 0, "maximum": 24},
    },
}


@api.endpoint(
    "/forteresse/setup",
    summary="Check a fortress drawn for a round: exactly 10 walls and 5 besieged on distinct cells of B2-F6.",
    request_schema={
        "type": "object",
        "required": ["walls", "besieged"],
        "properties": {
            "walls": {
                **_CELLS,
                "minItems": 10,
                "maxItems": 10,
                "example": forteresse.EXAMPLE_FORTRESS["walls"],
            },
            "besieged": {
                **_CELLS,
                "minItems": 5,
                "maxItems": 5,
                "example": forteresse.EXAMPLE_FORTRESS["besieged"],
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["valid"],
        "properties": {"valid": {"type": "boolean", "enum": [True]}},
    },
    tag="forteresse",
)
def setup(body: object) -> dict:
    """``POST /api/v1/forteresse/setup``."""
    return forteresse.api_setup(body)


@api.endpoint(
    "/forteresse/shot",
    summary="Resolve one shot on a fortress (in any state of a round): what the defender announces, and the fortress after it.",
    request_schema={
        "type": "object",
        "required": ["fortress", "shot"],
        "properties": {
            "fortress": {**_FORTRESS, "example": forteresse.EXAMPLE_FORTRESS},
            "used": {
                **_CELLS,
                "description": "Optional: the firing cells this shooter already used this round.",
            },
            "shot": {
                "type": "object",
                "required": ["from", "direction", "weapon"],
                "properties": {
                    "from": {**_CELL, "example": "A3", "description": "One of the 24 firing cells."},
                    "direction": {"type": "string", "enum": list(forteresse.DIRECTIONS), "example": "NE"},
                    "weapon": {"type": "string", "enum": list(forteresse.WEAPONS)},
                },
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["outcome", "cell", "fortress", "announcement"],
        "properties": {
            "outcome": {"type": "string", "enum": list(forteresse.OUTCOMES)},
            "cell": {
                **_CELL,
                "nullable": True,
                "description": "Null for “wall” (a rifle on a wall) and “miss”.",
            },
            "fortress": {
                **_FORTRESS,
                "description": "The fortress after the shot, cells sorted column then row.",
            },
            "announcement": {"type": "string", "example": "Wall destroyed at B2."},
        },
    },
    tag="forteresse",
)
def shot(body: object) -> dict:
    """``POST /api/v1/forteresse/shot``."""
    return forteresse.api_shot(body)


@api.endpoint(
    "/forteresse/score",
    summary="Points per round, totals and winner from each player's kills, cannons and rifles in 1 or 2 rounds.",
    request_schema={
        "type": "object",
        "required": ["rounds"],
        "properties": {
            "rounds": {
                "type": "array",
                "minItems": 1,
                "maxItems": 2,
                "items": {"type": "object", "required": ["a", "b"], "properties": {"a": _TALLY, "b": _TALLY}},
                "example": [
                    {
                        "a": {"killed": 5, "cannons": 6, "rifles": 2},
                        "b": {"killed": 3, "cannons": 14, "rifles": 10},
                    }
                ],
            }
        },
    },
    response_schema={
        "type": "object",
        "required": ["rounds", "totals", "winner"],
        "properties": {
            "rounds": {"type": "array", "items": _SEAT_POINTS},
            "totals": {**_SEAT_POINTS, "example": {"a": 87, "b": 41}},
            "winner": {"type": "string", "enum": ["a", "b"], "nullable": True},
        },
    },
    tag="forteresse",
)
def score(body: object) -> dict:
    """``POST /api/v1/forteresse/score``."""
    return forteresse.api_score(body)
