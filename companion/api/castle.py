"""Castle's tools over the JSON API (/api/v1/castle/...): the rules module's answers, with their schemas."""

from __future__ import annotations

from companion import api
from companion.rules import castle

_CARD = {"type": "string", "example": "10H", "description": "A card: rank A 2-10 J Q K + suit S H D C."}
_PILE_MAP = {
    "type": "object",
    "description": "The 12 piles, A1 to D3.",
    "propertyNames": {"pattern": "^[A-Da-d][1-3]$"},
}
_SIDES = {"type": "object", "properties": {"red": {"type": "integer"}, "black": {"type": "integer"}}}


@api.endpoint(
    "/castle/values",
    summary="Every pile's total value, and the piles where a card may be placed.",
    request_schema={
        "type": "object",
        "required": ["castle"],
        "properties": {
            "castle": {**_PILE_MAP, "additionalProperties": _CARD, "example": castle.EXAMPLE},
            "card": {**_CARD, "example": "QS", "description": "Optional: the card to place."},
        },
    },
    response_schema={
        "type": "object",
        "required": ["values"],
        "properties": {
            "values": {
                **_PILE_MAP,
                "additionalProperties": {"type": "integer", "minimum": -3, "maximum": 17},
            },
            "legal": {
                "type": "array",
                "items": {"type": "string", "example": "B1"},
                "description": "Present when card is given: the piles where it may go, column then row.",
            },
        },
    },
    tag="castle",
)
def values(body: object) -> dict:
    """``POST /api/v1/castle/values``."""
    return castle.api_values(body)


@api.endpoint(
    "/castle/score",
    summary="Each colour's score from the final piles and the cards taken on passes.",
    request_schema={
        "type": "object",
        "required": ["piles"],
        "properties": {
            "piles": {
                **_PILE_MAP,
                "additionalProperties": {"type": "array", "items": _CARD, "minItems": 1},
                "description": "Each of the 12 piles bottom to top: the last card is the top.",
                "example": {pile: [card] for pile, card in castle.EXAMPLE.items()},
            },
            "taken": {
                "type": "object",
                "description": "Optional: the cards each colour took on passes.",
                "properties": {
                    "red": {"type": "array", "items": _CARD},
                    "black": {"type": "array", "items": _CARD},
                },
            },
        },
    },
    response_schema={
        "type": "object",
        "required": ["scores", "winner"],
        "properties": {
            "scores": {**_SIDES, "example": {"red": 12, "black": 7}},
            "winner": {"type": "string", "enum": ["red", "black"], "nullable": True},
        },
    },
    tag="castle",
)
def score(body: object) -> dict:
    """``POST /api/v1/castle/score``."""
    return castle.api_score(body)
