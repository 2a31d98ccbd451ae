"""Fort's tools over the JSON API (/api/v1/fort/...): the rules module's answers, with their schemas."""

from __future__ import annotations

from companion import api
from companion.rules import fort

_CARD = {"type": "string", "example": "10H", "description": "A card: rank A 2-10 J Q K + suit S H D C."}
_CARDS = {"type": "array", "items": _CARD}
_SIDE = {
    "type": "object",
    "required": ["army"],
    "properties": {
        "army": {"type": "integer", "minimum": 0, "maximum": 52, "description": "Cards in the army."},
        "fort": {"type": "integer", "minimum": 0, "maximum": 52, "description": "Cards in the fort."},
        "campaign": {"type": "boolean", "default": False},
    },
}
_SIDE_WINNER = {"type": "string", "enum": ["attacker", "defender", "tie"]}


@api.endpoint(
    "/fort/battle",
    summary="Check a challenge, settle the battle, and say where every soldier and the target go.",
    request_schema={
        "type": "object",
        "required": ["attacker", "defender", "soldiers"],
        "properties": {
            "attacker": {**_SIDE, "required": ["army", "fort"], "example": {"army": 5, "fort": 3}},
            "defender": {**_SIDE, "example": {"army": 4}},
            "target": {
                "type": "object",
                "nullable": True,
                "description": "The card challenged and the height of the watchtower it tops; omit for a battle between campaigns.",
                "required": ["card", "height"],
                "properties": {"card": _CARD, "height": {"type": "integer", "minimum": 1, "maximum": 4}},
                "example": {"card": "9H", "height": 1},
            },
            "challenge": {
                "type": "integer",
                "minimum": 1,
                "description": "This attacker's 1st, 2nd or 3rd challenge for this card (4 or more is refused).",
                "example": 1,
            },
            "size": {
                "type": "integer",
                "description": "Optional: soldiers each; defaults to the attacker's.",
            },
            "soldiers": {
                "type": "object",
                "required": ["attacker", "defender"],
                "description": "In laid-down pairs; [] for a vulnerable fort.",
                "properties": {"attacker": _CARDS, "defender": _CARDS},
                "example": {"attacker": ["7S", "KH"], "defender": ["AD", "2C"]},
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["kind", "pairs", "result", "moves", "replaced", "attacker_out"],
        "properties": {
            "kind": {"type": "string", "enum": ["battle", "taken"]},
            "pairs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"attacker": _CARD, "defender": _CARD, "winner": _SIDE_WINNER},
                },
            },
            "result": {"type": "string", "enum": ["attacker", "defender", "draw"]},
            "moves": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"card": _CARD, "to": {"type": "string", "enum": list(fort.DESTINATIONS)}},
                },
            },
            "replaced": {"type": "boolean"},
            "attacker_out": {"type": "boolean"},
        },
    },
    tag="fort",
)
def battle_api(body: object) -> dict:
    """``POST /api/v1/fort/battle``."""
    return fort.api_battle(body)


@api.endpoint(
    "/fort/showdown",
    summary="Even out the armies, play each position, and name the winner or the cards the tied draw.",
    request_schema={
        "type": "object",
        "required": ["armies"],
        "properties": {
            "armies": {
                "type": "object",
                "description": "2 to 4 players, each army top card first.",
                "additionalProperties": _CARDS,
                "example": {"p1": ["5H", "JC", "2D"], "p2": ["9C", "4S", "QH", "6D"]},
            },
            "watchtowers": {
                "type": "object",
                "description": "Optional: each player's watchtower rank (2-10, J, Q, K, A).",
                "additionalProperties": {"type": "string", "example": "8"},
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["laid", "to_barracks", "positions", "tricks", "winner", "tied", "draws"],
        "properties": {
            "laid": {"type": "object", "additionalProperties": _CARDS},
            "to_barracks": _CARDS,
            "positions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "cards": {"type": "object", "additionalProperties": _CARD},
                        "winner": {"type": "string", "nullable": True},
                    },
                },
            },
            "tricks": {"type": "object", "additionalProperties": {"type": "integer"}},
            "winner": {"type": "string", "nullable": True},
            "tied": {"type": "array", "items": {"type": "string"}},
            "draws": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    },
    tag="fort",
)
def showdown_api(body: object) -> dict:
    """``POST /api/v1/fort/showdown``."""
    return fort.api_showdown(body)
