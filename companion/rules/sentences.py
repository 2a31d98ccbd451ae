"""The sentences Castellan says, marked in the code and said later in the reader's language.

The rules stay free of Flask, yet every sentence they say is translated where it is shown
(docs/translating.md). So they mark an English template for ``pybabel extract`` with ``N_`` (or
``NP_`` for one with a singular and a plural) and keep its parameters apart in a ``Message``:
``Message(N_("Only rounds 1 to %(last)s can be corrected."), last=3)``. ``str()`` gives the
English sentence; the web layer and the API say it in the reader's language
(``companion.i18n.say``). Also here: sentences built of other sentences (``then``, ``versus``,
``together``, ``Either``) and the default names of seats nobody named (``seat_name``).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Plural(NamedTuple):
    """A sentence with a singular and a plural form, chosen by the parameter ``count``."""

    singular: str
    plural: str


def N_(template: str) -> str:
    """Mark a sentence for translation without translating it (``pybabel extract`` finds it)."""
    return template


def NP_(singular: str, plural: str) -> Plural:
    """Mark a sentence with plural forms for translation; the form follows the parameter ``count``."""
    return Plural(singular, plural)


class Either(tuple):
    """Alternatives as a parameter, said as the language lists them: ``a, b or c`` (each item is
    a marked sentence or a ``Message``). Never glue "or" into a sentence by hand."""

    __slots__ = ()

    def __str__(self) -> str:
        words = [str(item) for item in self]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Message:
    """A sentence to say later in the reader's language: a marked template and its parameters.

    Parameters are ``%(name)s`` in the template. A number is written with the locale's
    digit grouping, a card (``companion.rules.cards.Card``) with the locale's rank letters,
    and a parameter that is itself a ``Message`` is said in the same language first.
    """

    __slots__ = ("template", "params")

    def __init__(self, template: str | Plural, **params):
        if isinstance(template, Plural) and "count" not in params:
            raise TypeError("A plural sentence needs the parameter count.")
        self.template = template
        self.params = params

    def render(self, translate, value) -> str:
        """The sentence through ``translate(template, count)`` (the translated template) and
        ``value(param)`` (a parameter as the language writes it)."""
        count = self.params.get("count")
        text = translate(self.template, count)
        return text % {name: value(param) for name, param in self.params.items()} if self.params else text

    def __str__(self) -> str:
        return self.render(_english, _english_value)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Message):
            return (self.template, self.params) == (other.template, other.params)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.template, tuple(sorted(self.params))))


def then(*sentences: Message | None) -> Message:
    """Whole sentences said one after the other, each translated whole (a ``None`` says nothing)."""
    first, *more = [sentence for sentence in sentences if sentence is not None]
    return Message(N_("%(first)s %(then)s"), first=first, then=then(*more)) if more else first


# A table's title is made of its seats' names and said in the reader's language (docs/translating.md):
# each name stays a parameter, so an unnamed seat's default name is translated where it is said.
def versus(*sides: str | Message) -> str | Message:
    """Sides facing each other: "Ola v Kuba", "Ola v Kuba v Ewa" ("Ola contre Kuba", "Ola – Kuba");
    nothing for no sides (a start form sent without names, refused after its title is made)."""
    if not sides:
        return ""
    first, *more = sides
    return Message(N_("%(first)s v %(second)s"), first=first, second=versus(*more)) if more else first


def together(*names: str | Message) -> str | Message:
    """Names one after the other: "Ola", "Ola and Kuba", "Ola, Kuba and Ewa" ("Ola, Kuba et Ewa")."""
    if not names:
        return ""
    *first, last = names
    if not first:
        return last
    return Message(N_("%(names)s and %(last)s"), names=_commas(*first), last=last)


def _commas(first: str | Message, *more: str | Message) -> str | Message:
    return Message(N_("%(first)s, %(second)s"), first=first, second=_commas(*more)) if more else first


# A seat nobody named is stored under its English default name ("Player 2", "North", "Player A";
# a team's link "Team Ola"; the referee's and viewer's links), which is also the name the API
# gives programs. These are the one list of those defaults: ``seat_name`` turns one into a
# sentence said in the reader's language; a name a person typed stays as typed.
COMPASS = (N_("North"), N_("East"), N_("South"), N_("West"))  # Castle's seats, clockwise
_ONE_WORD_NAMES = frozenset((*COMPASS, N_("Referee"), N_("Viewer")))
_NUMBERED = re.compile(r"Player ([1-9][0-9]?)")
_LETTERED = re.compile(r"Player ([A-Z])")
_TEAM = re.compile(r"Team (.+)", re.S)
_MEMBER = re.compile(r"Member ([1-9][0-9]?)")  # a Zamek team member who joined without a name


def seat_name(name: str) -> str | Message:
    """A stored name as it is said: a default name (``"Player 2"``, ``"North"``, ``"Team Ola"``,
    ``"Member 1"``) as a ``Message`` in the reader's language, any other name as typed."""
    if not isinstance(name, str):
        return name
    if name in _ONE_WORD_NAMES:
        return Message(name)
    if match := _NUMBERED.fullmatch(name):
        return Message(N_("Player %(number)s"), number=int(match[1]))
    if match := _LETTERED.fullmatch(name):
        return Message(N_("Player %(letter)s"), letter=match[1])
    if match := _TEAM.fullmatch(name):
        return Message(N_("Team %(name)s"), name=match[1])
    if match := _MEMBER.fullmatch(name):
        return Message(N_("Member %(number)s"), number=int(match[1]))
    return name


def _english(template: str | Plural, count: int | None) -> str:
    if isinstance(template, Plural):
        return template.singular if count == 1 else template.plural
    return template


def _english_value(param: object) -> object:
    if isinstance(param, bool):
        return param
    if isinstance(param, int):
        return f"{param:,}"
    if isinstance(param, Message):
        return str(param)
    if isinstance(param, Either):
        return str(param)
    label = getattr(param, "label", None)  # a card: its rank and suit symbol, "Q♠"
    return label("en") if callable(label) else param
