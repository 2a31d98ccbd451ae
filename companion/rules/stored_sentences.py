"""Sentences kept in a table's log, to be said later in each reader's language.

A move's description is a ``Message`` (companion/rules/sentences.py); the store keeps it as JSON
text (``dump``) and gives it back (``load``) with its template and parameters, so that each phone
says it in its own language. This module sits above ``cards`` because a card in a stored sentence
comes back as a ``Card``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from companion.rules.cards import parse, rank_count
from companion.rules.sentences import N_, Either, Message, Plural


def dump(sentence: str | Message) -> str:
    """A sentence as text to store (a move's description): a ``Message`` as JSON, a string as it is."""
    if not isinstance(sentence, Message):
        return str(sentence)
    return json.dumps(_dumpable(sentence), ensure_ascii=False, separators=(",", ":"))


def load(text: str) -> str | Message:
    """A stored sentence back: the ``Message`` that ``dump`` wrote, or the older plain English text."""
    if not text.startswith('{"sentence":'):
        return text
    return _loaded(json.loads(text))


def _dumpable(value: object) -> object:
    if isinstance(value, Message):
        template = list(value.template) if isinstance(value.template, Plural) else value.template
        return {
            "sentence": template,
            "params": {name: _dumpable(param) for name, param in value.params.items()},
        }
    if hasattr(value, "label") and hasattr(value, "suit"):  # a card, by its canonical name
        return {"card": str(value)}
    if isinstance(value, Either):
        return {"either": [_dumpable(item) for item in value]}
    return value


def _four_of_the_rank(params: dict) -> dict:
    """A completed watchtower stored with its rank as a letter (``Message("Q")``) or a number
    ("7"): said now as "4 queens"."""
    rank = params.pop("rank")
    return {**params, "ranks": rank_count(rank.template if isinstance(rank, Message) else str(rank), 4)}


# A sentence a history stored before its English was rewritten: its new template, its parameters'
# new names, and what makes the new parameters of the old ones (if any), so that old moves are
# still said in the reader's language.
_REWRITTEN: dict[str, tuple[str, dict[str, str], Callable[[dict], dict] | None]] = {
    "%(player)s's hand was entered: %(known)s of %(count)s cards known.": (
        N_("%(player)s's hand was entered (cards known: %(known)s of %(total)s)."),
        {"count": "total"},
        None,
    ),
    # Issue 41: English the native reviewers found wrong.
    "%(member)s voted for %(team)s.": (N_("%(member)s of %(team)s voted."), {}, None),
    "The referee ended the game here.": (N_("The referee ended the game."), {}, None),
    "The referee ended the game here; %(number)s went back face down.": (
        N_("The referee ended the game; %(number)s went back face down."),
        {},
        None,
    ),
    "%(name)s held": (N_("%(name)s repelled the attack"), {}, None),
    "%(name)s drew the %(card)s, completing a watchtower of %(rank)ss: free-for-all! %(then)s": (
        N_("%(name)s drew the %(card)s, completing a watchtower of %(ranks)s: free-for-all! %(then)s"),
        {},
        _four_of_the_rank,
    ),
}


def _loaded(value: object) -> object:
    if isinstance(value, dict) and "sentence" in value:
        template = value["sentence"]
        params = {name: _loaded(param) for name, param in value["params"].items()}
        if (
            rewritten := _REWRITTEN.get(template[-1] if isinstance(template, list) else template)
        ) is not None:
            template, renamed, convert = rewritten
            params = {renamed.get(name, name): param for name, param in params.items()}
            params = convert(params) if convert else params
        template = Plural(*template) if isinstance(template, list) else template
        return Message(template, **params)
    if isinstance(value, dict) and "card" in value:
        return parse(value["card"])
    if isinstance(value, dict) and "either" in value:
        return Either(_loaded(item) for item in value["either"])
    return value
