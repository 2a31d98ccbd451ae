"""JSON schemas of what a table takes: each game's creation options and actions, and their check.

Action schemas say the shape (fields and their types) and leave lengths and values to the
rules module, whose refusals speak the player's words. Each game declares two schemas next to the form readers its pages use (``Game.options_schema``,
``Game.action_schema``), built from the pieces here. The OpenAPI document publishes them;
``check`` holds an API request's options, and every action, whether the page's form produced
it or a program sent it as JSON, to its game's schema before the rules module sees it, so the
two ways in cannot drift apart.
"""

from __future__ import annotations

import functools
import json

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, Either, Message

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


def from_form(schema: dict | None, form: dict) -> dict:
    """A start form's fields as the typed values the API sends for them: a box the schema calls a
    boolean is true when ticked ("yes") and false otherwise; every other field as the form sent it
    (text stays text: a field that takes a number takes its digits too, as the API does)."""
    fields = schema.get("properties", {}) if schema else {}
    return {
        name: value == "yes" if fields.get(name, {}).get("type") == "boolean" else value
        for name, value in form.items()
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
                "unknown_action",
                N_("An action is an object whose type is one of: %(names)s."),
                f"{what}.type",
                names=names,
            )
        schema = kinds[kind]
    if _surely_valid(schema, value):
        return
    error = best_match(_validator(schema).iter_errors(value))
    if error is not None:
        path = ".".join(str(part) for part in error.absolute_path)
        field = f"{what}.{path}" if path else what
        raise RuleError(f"bad_{what}", _sentence(error, what, path or what), field)


# The keywords ``_surely_valid`` knows; a schema using any other is left to jsonschema.
_KNOWN = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "const",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "description",
        "title",
    }
)
_CONTAINERS = {"string": str, "array": list, "object": dict}


def _surely_valid(schema: object, value: object) -> bool:
    """True when ``value`` fits ``schema`` for certain, checked in a few microseconds; False when it
    may not (jsonschema then decides, and names the place).

    jsonschema took a third of a millisecond to accept a score pad's round. This knows the
    keywords the games' schemas use and answers True only where JSON Schema surely agrees:
    a number that is a float, a ``const`` that is not text, an integer or null, any keyword
    it does not know, and anything refused, go to jsonschema.
    """
    if not isinstance(schema, dict) or not schema.keys() <= _KNOWN:
        return False
    kinds = schema.get("type")
    if kinds is not None and not any(
        _surely_of(kind, value) for kind in ([kinds] if isinstance(kinds, str) else kinds)
    ):
        return False
    if "const" in schema and not _surely_same(schema["const"], value):
        return False
    if "enum" in schema and not any(_surely_same(choice, value) for choice in schema["enum"]):
        return False
    if isinstance(value, dict):
        fields, others = schema.get("properties", {}), schema.get("additionalProperties", True)
        if not all(name in value for name in schema.get("required", ())):
            return False
        for name, item in value.items():
            inner = fields.get(name, others)
            if inner is False or (inner is not True and not _surely_valid(inner, item)):
                return False
    elif isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return False
        if "items" in schema and not all(_surely_valid(schema["items"], item) for item in value):
            return False
    elif isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            return False
    elif type(value) is int:
        if not schema.get("minimum", value) <= value <= schema.get("maximum", value):
            return False
    elif "minimum" in schema or "maximum" in schema:
        return False
    return True


def _surely_of(kind: str, value: object) -> bool:
    if kind == "integer":
        return type(value) is int  # 1.0 is an integer too in JSON Schema: jsonschema decides
    if kind == "boolean":
        return type(value) is bool
    if kind == "null":
        return value is None
    container = _CONTAINERS.get(kind)
    return container is not None and isinstance(value, container)


def _surely_same(expected: object, value: object) -> bool:
    # True == 1 in Python but not in JSON Schema: only text, integers and null compared here.
    return type(expected) in (str, int, type(None)) and type(value) is type(expected) and value == expected


def _validator(schema: dict) -> Draft202012Validator:
    """The validator of a schema, made once per schema (by its JSON text, the keys in their order):
    making one took a sixth of an API move's time. Only a value ``_surely_valid`` is unsure of (a
    refusal, as a rule) gets here, so writing the key costs no move that holds."""
    return _validator_of(json.dumps(schema))


@functools.lru_cache(maxsize=256)  # the games' schemas: a few dozen
def _validator_of(text: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(text))


_TYPE_WORDS = {
    "string": N_("text"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "array": N_("a list"),
    "object": N_("an object"),
    "boolean": N_("true or false"),
    "null": N_("left out"),
}
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
        return Message(
            template, missing=", ".join(key for key in error.validator_value if key not in error.instance)
        )
    if validator == "additionalProperties":
        extra = ", ".join(
            sorted(key for key in error.instance if key not in error.schema.get("properties", {}))
        )
        return Message(template, extra=extra[:120])
    if validator == "enum":
        allowed = error.validator_value if error.validator == "enum" else [error.validator_value]
        return Message(
            template, name=name, choices=", ".join(dict.fromkeys(str(choice) for choice in allowed))
        )
    return Message(template, name=name, limit=error.validator_value)
