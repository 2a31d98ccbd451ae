"""Zamek: its pages (the table tracker's form, the score sheet, the help) and its JSON API.

Thin views: read the request, call ``companion.rules.zamek``, render. The table itself is
played through the generic table routes (``views/tables.py``); this module turns its forms
into options and actions. The score sheet is a GET form: it changes nothing on the server,
works without JavaScript and its address can be shared.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import repeat
from typing import NamedTuple

from flask import Blueprint, render_template, request, session
from flask_babel import gettext, pgettext
from markupsafe import Markup

from companion.i18n import say
from companion.rules import zamek
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, Message, versus
from companion.service import schemas
from companion.service.games import Game
from companion.web.rendering import render
from companion.web.templating import keyed_as_they_are

bp = Blueprint("zamek", __name__, url_prefix="/zamek")

SCORE_CASTLES = zamek.MAX_PLAYERS
_NUMBER_TEXT = re.compile(r"[\s,;]+")
# A number field left empty, and one that is not digits, in whole sentences for each field of the forms.
_ENTER = {
    "number": N_("Enter the number on the card."),
    "position": N_("Enter the place of the card."),
    "index": N_("Enter the member."),
    "king": N_("Enter the king's card."),
    "queen": N_("Enter the queen's card."),
    "wizard": N_("Enter the wizard's card."),
    "card": N_("Enter a card."),
    "place": N_("Enter a place."),
}
_IN_DIGITS = {
    "number": N_("“%(text)s” is not a number: type the number on the card in digits."),
    "position": N_("“%(text)s” is not a number: type the place of the card in digits."),
    "index": N_("“%(text)s” is not a number: type the member in digits."),
    "king": N_("“%(text)s” is not a number: type the king's card in digits."),
    "queen": N_("“%(text)s” is not a number: type the queen's card in digits."),
    "wizard": N_("“%(text)s” is not a number: type the wizard's card in digits."),
    "card": N_("“%(text)s” is not a number: type a card in digits."),
    "place": N_("“%(text)s” is not a number: type a place in digits."),
}


def table_options(options: dict) -> dict:
    """The creation options (typed, ``OPTIONS_SCHEMA``): variant, stop_at_ten, 2-4 ``players``, teams,
    and the deck."""
    names = options.get("players", [])
    return {
        "variant": options.get("variant") or "basic",
        "stop_at_ten": options.get("stop_at_ten") is True and options.get("variant") == "extended",
        "players": [name.strip() for name in names if name.strip()],
        "teams": options.get("teams") is True,
        "deck": deck_from_form(options),
    }


def table_title(options: dict) -> str | Message:
    """A table's title in lists: "Ola v Kuba, extended"."""
    template = (
        N_("%(players)s, extended") if options.get("variant") == "extended" else N_("%(players)s, basic")
    )
    return Message(template, players=versus(*options["players"]))


def table_action(form: dict, viewer: str) -> dict:
    """A posted form as an action: turn, choose, close_vote, end, leave (the referee); join, vote, leave (a team)."""
    kind = form.get("type")
    if kind == "turn":
        action = {"type": "turn", "number": _whole(form.get("number"), "number", "number")}
        if str(form.get("position") or "").strip():
            action["position"] = _whole(form.get("position"), "position", "position")
        if form.get("choice"):
            action["choice"] = form["choice"]
        return action
    if kind == "choose":
        return {"type": "choose", "choice": form.get("choice")}
    if kind == "vote":
        return _vote_action(form)
    if kind == "leave" and viewer == "referee":
        return {
            "type": "leave",
            "seat": form.get("seat"),
            "index": _whole(form.get("index"), "index", "index"),
        }
    if kind in ("join", "leave", "close_vote", "end"):
        return {"type": kind}
    raise RuleError("unknown_action", N_("Choose one of the buttons on the table's screen."), "type")


def deck_from_form(form: dict) -> object:
    """``"default"``, or the deck typed in the form's ``deck_*`` fields, for ``zamek.parse_deck``."""
    if form.get("deck") != "custom":
        return zamek.DEFAULT_DECK
    deck: dict = {
        figure: _whole(form.get(f"deck_{figure}"), f"deck.{figure}", figure) for figure in zamek.FIGURES
    }
    for group in zamek.GROUPS:
        deck[group] = numbers_from_text(form.get(f"deck_{group}"), f"deck.{group}")
    name = form.get("deck_name")
    if isinstance(name, str) and name.strip():
        deck["name"] = name.strip()[:60]
    return deck


def numbers_from_text(text: object, field: str) -> list[int]:
    """ "3 9, 15" -> [3, 9, 15]: whole numbers separated by spaces or commas."""
    words = [word for word in _NUMBER_TEXT.split(str(text or "")) if word]
    return [_whole(word, field, "card") for word in words]


OPTIONS_SCHEMA = schemas.options(
    "The start form: variant, 2 to 4 players (or teams), and the deck (default, or custom in deck_* fields).",
    {
        "variant": {"enum": list(zamek.VARIANTS)},
        "stop_at_ten": schemas.FLAG,
        "players": {"type": "array", "items": schemas.NAME, "maxItems": zamek.MAX_PLAYERS},
        "teams": schemas.FLAG,
        "deck": {"enum": ["default", "custom"]},
        **{f"deck_{figure}": schemas.WHOLE for figure in zamek.FIGURES},
        **{
            f"deck_{group}": {
                "type": "string",
                "maxLength": 400,
                "description": "Card numbers, by spaces or commas.",
            }
            for group in zamek.GROUPS
        },
        "deck_name": schemas.TEXT,
    },
)
_OPTIONAL_TEXT = {"type": ["string", "null"], "maxLength": 200}
ACTION_SCHEMA = schemas.actions(
    schemas.action(
        "turn",
        "The player to move turned over a card (and where it lay); with choice, also what "
        "became of it, in one entry.",
        {"number": {"type": "integer"}},
        {"position": {"type": "integer"}, "choice": _OPTIONAL_TEXT},
    ),
    schemas.action("choose", "What becomes of the face-up card.", {"choice": _OPTIONAL_TEXT}),
    schemas.action(
        "vote",
        "A team member's vote: a place, or a choice for the face-up card.",
        {"stage": _OPTIONAL_TEXT},
        {"position": {"type": "integer"}, "choice": _OPTIONAL_TEXT, **schemas.MEMBER},
    ),
    schemas.action("join", "A phone joins its team.", optional=schemas.MEMBER),
    schemas.action(
        "leave",
        "A phone leaves its team (or the referee removes member index of seat).",
        optional={"seat": _OPTIONAL_TEXT, "index": {"type": "integer"}, **schemas.MEMBER},
    ),
    schemas.action("close_vote", "The referee counts the ballots cast so far."),
    schemas.action("end", "The referee ends the game where it stands."),
)


GAME = Game(
    slug="zamek",
    name=N_("Zamek"),
    tagline=N_("A castle-building memory game: turn cards, remember where they lie, build upwards."),
    players=N_("2 to 4 players or teams"),
    order=4,
    summary=(
        N_(
            "Forty-five numbered cards lie face down. On your turn you turn one over and either add it to your castle, "
            "if it is higher than your castle's last card, or put it back where it was."
        ),
        N_("A card lower than every castle's end is useless to everyone and leaves the game."),
        N_(
            "In the basic game the first castle of ten elements wins; in the extended game knights, princesses, a "
            "king, a queen and a wizard add points and settle ties."
        ),
    ),
    rules=zamek,
    table_options=table_options,
    table_title=table_title,
    table_action=table_action,
    list_fields=("players",),
    options_schema=OPTIONS_SCHEMA,
    action_schema=ACTION_SCHEMA,
    help_anchor=lambda view: view["variant"] if view["over"] else "turn",
)


# --- Pages ----------------------------------------------------------------------------


@bp.get("/")
def index():
    """The game in short, the deck a printed QR code names, and the form that starts a table."""
    return render_template(
        "zamek/page.html", game=GAME, deck=_named_deck(), default=zamek.default_deck(), seats=zamek.SEATS
    )


@bp.get("/score")
def score_sheet():
    """The score sheet of a game played without a table: each castle's numbers in, scores out."""
    entries = [
        {
            "name": request.args.get(f"name{i}", "").strip()[: zamek.NAME_LENGTH],
            "numbers": request.args.get(f"castle{i}", "")[:400],
        }
        for i in range(1, SCORE_CASTLES + 1)
    ]
    view = {"entries": entries, "form": request.args, "deck": _named_deck(), "result": None, "error": None}
    if any(entry["numbers"].strip() or entry["name"] for entry in entries):
        try:
            view["result"] = _score(entries, request.args)
        except RuleError as refused:
            view["error"] = say(refused)
    return render("zamek/score.html", "zamek/_score.html", game=GAME, view=view)


@bp.get("/help")
def help_page():
    """How to play, in Castellan's own words, with the default deck's pictures."""
    return render_template("zamek/help.html", game=GAME, deck=zamek.default_deck(), points=zamek.POINTS)


@bp.app_template_global("zamek_phone")
def zamek_phone(table, link) -> dict | None:
    """This phone at a team's link: its name, captain or not, its own ballot (None before it joins)."""
    if link.role != "seat" or table.game != "zamek":
        return None
    return zamek.phone_view(table.state, link.viewer, session.get("member"))


@bp.app_template_global("zamek_place_rows")
def place_rows(place_row, positions, mode: str, chosen) -> Markup:
    """The table layout's 45 places in rows of five, each drawn by ``place_row`` (a macro kept by
    ``once``) from plain values: its first place, which of its five still hold a card as ``"10110"``,
    the mode, and the chosen place if it is in this row; a move redraws only the row whose place it
    emptied. Called from here rather than from a Jinja loop: nine rows on every move of a referee."""
    held = dict.fromkeys(positions, "1")
    marks = "".join(map(held.get, zamek.POSITIONS, repeat("0")))
    mine = chosen if type(chosen) is int else None
    return Markup("").join(
        [
            place_row(
                first,
                marks[first - 1 : first + 4],
                mode,
                mine if mine is not None and first <= mine < first + 5 else None,
            )
            for first in range(1, len(zamek.POSITIONS) + 1, 5)
        ]
    )


@keyed_as_they_are
class Cards(tuple):
    """A castle's cards as ``(number, picture or None)`` pairs: their own key for ``once``."""

    __slots__ = ()


@keyed_as_they_are
class Side(NamedTuple):
    """One castle as the table draws it, in plain values: its own key for ``once``, so that a move
    redraws only the castles it changed (the one it built, the two whose turn marker moved)."""

    name: str
    active: bool
    elements: int
    wizard: str | None  # "wizard" (held), "used", or None (not held, or the basic game)
    total: int | None  # the extended game's points, once it is over
    cards: Cards
    members: tuple | None  # ``(name, captain, voted)`` of each member in a game of teams, else None


@bp.app_template_global("zamek_table")
def table_drawing(view: dict) -> dict:
    """What ``_table.html`` draws a table's view with, worked out here rather than in Jinja: each
    player's name by seat, each castle as a ``Side``, whether the referee may enter a whole turn in
    one tap (not for a team whose members vote), and the numbers not seen yet and in the box."""
    extended, scores, teams, turn = view["variant"] == "extended", view["scores"], view["teams"], view["turn"]
    pictures = _deck_pictures(view["deck"])
    castles, quick = [], True
    for player in view["players"]:
        seat, members = player["seat"], player["members"]
        castles.append(
            Side(
                player["name"],
                seat == turn,
                player["elements"],
                ("used" if player["wizard_used"] else "wizard")
                if player["holds_wizard"] and extended
                else None,
                scores[seat]["total"] if scores else None,
                Cards(zip(player["castle"], map(pictures.get, player["castle"]), strict=True)),
                tuple([(member["name"], member["captain"], member.get("voted", False)) for member in members])
                if teams
                else None,
            )
        )
        if teams and seat == turn and members:
            quick = False
    return {
        "names": {player["seat"]: player["name"] for player in view["players"]},
        "castles": castles,
        "quick": quick,
        "unseen": " ".join(map(str, view["unseen"])),
        "box": " ".join(map(str, view["box"])),
    }


@bp.app_template_global("zamek_cards")
def cards(numbers: list[int], deck: dict) -> Cards:
    """A castle's numbers with the picture each shows in this deck."""
    pictures = _deck_pictures(deck)
    return Cards(zip(numbers, map(pictures.get, numbers), strict=True))


@bp.app_template_filter("zamek_picture_name")
def picture_name(picture: str) -> str:
    """A picture's name in the page's language: ``"rycerz"`` for a knight in Polish."""
    return say(zamek.PICTURE_NAMES[picture])


@bp.app_template_filter("zamek_picture_word")
def picture_word(picture: str) -> str:
    """A picture's name inside a sentence, in lower case where the page's language writes it so:
    "Blue a retourné le 31 (princesse)", not the legend's "Princesse"."""
    words = {
        "knight": lambda: pgettext("a Zamek picture, in a sentence", "knight"),
        "princess": lambda: pgettext("a Zamek picture, in a sentence", "princess"),
        "king": lambda: pgettext("a Zamek picture, in a sentence", "king"),
        "queen": lambda: pgettext("a Zamek picture, in a sentence", "queen"),
        "wizard": lambda: pgettext("a Zamek picture, in a sentence", "wizard"),
    }
    return words[picture]()


@bp.app_template_filter("zamek_deck_name")
def deck_name(deck: dict) -> str:
    """A deck's name: the shipped deck's in the page's language, another deck's as its author typed it."""
    return say(zamek.SHIPPED_DECK_NAME) if deck.get("id") == zamek.SHIPPED_DECK_ID else deck.get("name", "")


@bp.app_template_filter("zamek_deck_words")
def deck_words(reference: str) -> str:
    """The deck a table or a score uses, for a hint: the shipped deck by its name in the page's language
    and its reference, another deck by its reference."""
    if reference == zamek.deck_reference(zamek._shipped_deck()):  # read only: no copy to throw away
        return say(
            Message(
                N_("%(name)s (%(reference)s)"), name=Message(zamek.SHIPPED_DECK_NAME), reference=reference
            )
        )
    return say(Message(N_("deck %(reference)s"), reference=reference))


@bp.app_template_filter("zamek_wins")
def wins(decided_by: str, name: str) -> str:
    """Who won and how, in one sentence: ``"Ola wins on points."``."""
    return say(Message(zamek.WINS[decided_by], name=name))


# --- JSON API -------------------------------------------------------------------------


# --- Private helpers ------------------------------------------------------------------


def _whole(value: object, field: str, what: str) -> int:
    """A whole number typed in a form (or given as one, by the API), or a refusal that says which field
    is wrong (``what``: a key of ``_ENTER``)."""
    text = str(value) if type(value) is int else value.strip() if isinstance(value, str) else ""
    if not text:
        raise RuleError("missing_number", _ENTER[what], field)
    if not re.fullmatch(r"[+-]?\d{1,6}", text):
        raise RuleError("not_a_number", _IN_DIGITS[what], field, text=text[:12])
    return int(text)


def _vote_action(form: dict) -> dict:
    """A team member's vote: a place (``position``) or a choice for the face-up card."""
    if form.get("stage") == "position":
        return {
            "type": "vote",
            "stage": "position",
            "position": _whole(form.get("position"), "position", "place"),
        }
    return {"type": "vote", "stage": form.get("stage"), "choice": form.get("choice")}


def _deck_pictures(deck: dict) -> dict:
    """The picture of each card that has one in ``deck``."""
    return _pictures(
        deck["king"], deck["queen"], deck["wizard"], tuple(deck["knights"]), tuple(deck["princesses"])
    )


@lru_cache(maxsize=64)
def _pictures(
    king: int, queen: int, wizard: int, knights: tuple[int, ...], princesses: tuple[int, ...]
) -> dict:
    """The picture of each card that has one, in the deck of these figures and groups."""
    deck = {"king": king, "queen": queen, "wizard": wizard, "knights": knights, "princesses": princesses}
    return {
        number: shown
        for number in range(zamek.TILE, zamek.HIGHEST + 1)
        if (shown := zamek.picture(deck, number)) is not None
    }


def _named_deck() -> dict:
    """The deck a ``?deck=`` reference names: the shipped one, or an unknown one said in words."""
    reference = request.args.get("deck", "")[:80]
    default = zamek.default_deck()
    if not reference or reference == zamek.deck_reference(default):
        return {"known": True, "reference": zamek.deck_reference(default), "deck": default}
    return {"known": False, "reference": reference, "deck": None}


def _score(entries: list[dict], form) -> dict:
    """Score the castles typed on the score sheet; the tile 1 is added when it was left out."""
    castles: dict[str, list[int]] = {}
    for index, entry in enumerate(entries, start=1):
        if not (entry["numbers"].strip() or entry["name"]):
            continue
        numbers = numbers_from_text(entry["numbers"], f"castle{index}")
        name = entry["name"] or gettext("Castle %(number)s", number=index)
        if name in castles:
            raise RuleError(
                "bad_option",
                N_("Two castles are called %(name)s: give each a different name."),
                "name",
                name=name,
            )
        castles[name] = numbers if numbers[:1] == [zamek.TILE] else [zamek.TILE, *numbers]
    result = zamek.api_score({"deck": deck_from_form(form), "castles": castles})
    return {**result, "order": list(castles)}
