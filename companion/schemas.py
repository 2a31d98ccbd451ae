"""JSON schemas of what a table takes: each game's creation options and actions, and their check.

Action schemas say the shape (fields and their types) and leave lengths and values to the
rules module, whose refusals speak the player's words. Each game declares two schemas next to the form readers its pages use (``Game.options_schema``,
``Game.action_schema``), built from the pieces here. The OpenAPI document publishes them;
``check`` holds an API request's options, and every action, whether the page's form produced
it or a program sent it as JSON, to its game's schema before the rules module sees it, so the
two ways in cannot drift apart.
"""

from __future__ import annotations

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from companion.rules.errors import N_, Either, Message, RuleError

CARD = {"type": "string", "description": "A card: AS, 10H, QD, 7C (T for 10, any case, ♠♥♦♣ too)."}
CELL = {"type": "string", "description": "A cell: column letter and row number, A1 top-left."}
NAME = {"type": "string", "maxLength": 200, "description": "A player's or a team's name."}
TEXT = {"type": "string"}
WHOLE = {"type": ["integer", "string"], "description": "A whole number (as a form sends it, text is fine)."}
FLAG = {"type": "boolean", "description": "true to choose it (a ticked box on the form)."}
MEMBER = {
    "member": {"type": "string", "description": "A seat link only: which phone of the team acts."},
    "member_name": {"type": "string", "description": "A seat link only: that phone's player."},
}


def cards(description: str) -> dict:
    """A list of cards."""
    return {"type": "array", "items": CARD, "description": description}


def by_player(value: dict, description: str) -> dict:
    """An object from player ids (``p1`` …) to ``value``."""
    return {"type": "object", "additionalProperties": value, "description": description}


def action(kind: str, description: str, required: dict | None = None, optional: dict | None = None) -> dict:
    """One kind of action: ``{"type": kind, ...}`` with exactly these fields."""
    required, optional = required or {}, optional or {}
    return {
        "type": "object",
        "description": description,
        "required": ["type", *required],
        "properties": {"type": {"const": kind}, **required, **optional},
        "additionalProperties": False,
    }


def actions(*kinds: dict) -> dict:
    """Every action of a game: exactly one of ``kinds`` (told apart by their ``type``)."""
    return {"type": "object", "oneOf": list(kinds)}


def options(description: str, fields: dict, required: tuple[str, ...] = ()) -> dict:
    """A game's creation options: the fields of its start form, as JSON values."""
    return {
        "type": "object",
        "description": description,
        "required": list(required),
        "properties": fields,
        "additionalProperties": False,
    }


def check(schema: dict, value: object, what: str) -> None:
    """Refuse ``value`` with a ``RuleError`` naming the first place where it does not fit ``schema``.

    For a game's actions the variant is chosen by the action's ``type``, so the refusal
    speaks of the fields of that kind of action.
    """
    if "oneOf" in schema:
        kinds = {variant["properties"]["type"]["const"]: variant for variant in schema["oneOf"]}
        kind = value.get("type") if isinstance(value, dict) else None
        if not isinstance(kind, str) or kind not in kinds:
            names = ", ".join(kinds)
            raise RuleError(
                "unknown_action", N_("An action is an object whose type is one of: %(names)s."), f"{what}.type",
                names=names,
            )
        schema = kinds[kind]
    error = best_match(Draft202012Validator(schema).iter_errors(value))
    if error is not None:
        path = ".".join(str(part) for part in error.absolute_path)
        field = f"{what}.{path}" if path else what
        raise RuleError(f"bad_{what}", _sentence(error, what, path or what), field)


_TYPE_WORDS = {"string": N_("text"), "integer": N_("a whole number"), "number": N_("a number"), "array": N_("a list"),
               "object": N_("an object"), "boolean": N_("true or false"), "null": N_("left out")}
# One whole sentence per complaint and per part of a request (``what``: the options or the action).
_SENTENCES = {
    "options": {
        "type": N_("In the options, “%(name)s” must be %(kinds)s."),
        "required": N_("The options lack a field they need: %(missing)s."),
        "additionalProperties": N_("The options have fields this game does not take: %(extra)s."),
        "enum": N_("In the options, “%(name)s” must be one of: %(choices)s."),
        "maxLength": N_("In the options, “%(name)s” may be at most %(limit)s characters long."),
        "maxItems": N_("In the options, the number of entries in “%(name)s” may be at most %(limit)s."),
        "minItems": N_("In the options, the number of entries in “%(name)s” must be at least %(limit)s."),
        "maximum": N_("In the options, “%(name)s” may be at most %(limit)s."),
        "minimum": N_("In the options, “%(name)s” must be at least %(limit)s."),
        None: N_("In the options, “%(name)s” does not have the form the API document gives it."),
    },
    "action": {
        "type": N_("In the action, “%(name)s” must be %(kinds)s."),
        "required": N_("The action lacks a field it needs: %(missing)s."),
        "additionalProperties": N_("The action has fields this game does not take: %(extra)s."),
        "enum": N_("In the action, “%(name)s” must be one of: %(choices)s."),
        "maxLength": N_("In the action, “%(name)s” may be at most %(limit)s characters long."),
        "maxItems": N_("In the action, the number of entries in “%(name)s” may be at most %(limit)s."),
        "minItems": N_("In the action, the number of entries in “%(name)s” must be at least %(limit)s."),
        "maximum": N_("In the action, “%(name)s” may be at most %(limit)s."),
        "minimum": N_("In the action, “%(name)s” must be at least %(limit)s."),
        None: N_("In the action, “%(name)s” does not have the form the API document gives it."),
    },
}


def _sentence(error, what: str, name: str) -> Message:
    """The schema's complaint as one sentence for a person."""
    sentences = _SENTENCES[what]
    validator = "enum" if error.validator == "const" else error.validator
    template = sentences.get(validator, sentences[None])
    if validator == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return Message(template, name=name, kinds=Either(_TYPE_WORDS[kind] for kind in kinds))
    if validator == "required":
        return Message(template, missing=", ".join(key for key in error.validator_value if key not in error.instance))
    if validator == "additionalProperties":
        extra = ", ".join(sorted(key for key in error.instance if key not in error.schema.get("properties", {})))
        return Message(template, extra=extra[:120])
    if validator == "enum":
        allowed = error.validator_value if error.validator == "enum" else [error.validator_value]
        return Message(template, name=name, choices=", ".join(dict.fromkeys(str(choice) for choice in allowed)))
    return Message(template, name=name, limit=error.validator_value)
