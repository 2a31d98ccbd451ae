"""Decks of one's own, printed as the shipped ones: a Square Tactics faction or a Zamek deck.

A deck of one's own is the JSON a table accepts (``tactics.validate_faction``,
``zamek.parse_deck``), refused as a table refuses it: a ``RuleError`` naming the wrong field
(``deck.cards.3.edges``). It prints as the shipped decks do (faces, backs, bleed, fold-over
cards, every print option) after a first page that names it and carries a QR code opening
the game's new-table form filled with it. These sheets are made per deck, so they are not
in ``all_sheets()``: ``own_sheet`` makes one, and ``printables.build`` draws it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import quote

from companion.rules import tactics, zamek
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message
from printables import Sheet
from printables import tactics as tactics_sheets
from printables import zamek as zamek_sheets
from printables.draw import MUTED, Document
from printables.layout import Rect

GAMES = {"tactics": N_("A Square Tactics faction"), "zamek": N_("A Zamek deck")}
FIELD = "deck"  # the field a refusal names, as a table's API names it
LONGEST_TEXT = 20_000  # characters of JSON: far more than 18 cards with long names take
LONGEST_QR = 1800  # characters: a longer address would need a QR code too dense for a phone
NAME_PAGE_QR = 90.0  # mm: the largest side of the name page's QR code


def read_deck(text: str) -> object:
    """The JSON text of a deck of one's own, read; a ``RuleError`` on ``deck`` when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise RuleError(
            "bad_deck", N_("Write your deck as a JSON object, like the example."), FIELD
        ) from None


def own_sheet(game: str, data: object) -> Sheet:
    """The sheet of a deck of one's own for ``game`` ("tactics" or "zamek"); a ``RuleError`` with
    the wrong field when the game's rules refuse the deck."""
    if game == "tactics":
        return _faction_sheet(tactics.validate_faction(data, FIELD))
    if game == "zamek":
        return _zamek_sheet(zamek.parse_deck(data, FIELD))
    raise RuleError("bad_game", N_("Choose a Square Tactics faction or a Zamek deck."), "game")


def _faction_sheet(faction: dict) -> Sheet:
    """A faction of one's own: its cards after the page that names it."""
    shared = {key: faction[key] for key in ("name", "emblem", "cards")}  # what the table's form needs
    text = json.dumps(shared, ensure_ascii=False, separators=(",", ":"))
    return Sheet(
        slug="tactics-own",
        game="tactics",
        game_name="Square Tactics",
        kind="cards",
        title=Message(N_("%(faction)s: the deck"), faction=faction["name"]),
        description=Message(
            NP_(
                "A faction of your own for Square Tactics: %(count)s card, with its back.",
                "A faction of your own for Square Tactics: %(count)s cards, with their backs.",
            ),
            count=len(faction["cards"]),
        ),
        draw=_named(
            tactics_sheets.draw_deck(faction), lambda doc: f"{doc.base_url}/tactics/?own_p1={quote(text)}"
        ),
    )


def _zamek_sheet(deck: dict) -> Sheet:
    """A Zamek deck of one's own: its cards, tiles and deck card after the page that names it."""
    return Sheet(
        slug="zamek-own",
        game="zamek",
        kind="memory cards",
        title=Message(
            N_("%(name)s (%(reference)s)"), name=deck["name"], reference=zamek.deck_reference(deck)
        ),
        description=N_(
            "A Zamek deck of your own: the 45 cards numbered 2 to 46 with your pictures, the four starting "
            "tiles and a deck card whose QR code names the deck."
        ),
        draw=_named(
            lambda doc: doc.card_sheet(*zamek_sheets.deck_cards(deck)),
            lambda doc: zamek_sheets.deck_url(doc, deck),
        ),
    )


def _named(cards: Callable[[Document], None], url: Callable[[Document], str]) -> Callable[[Document], None]:
    """A deck's drawing with the page that names it first (and, printed two-sided, its blank back)."""

    def draw(doc: Document) -> None:
        name_page(doc, url(doc))
        if not doc.fold:
            doc.new_page()
            words = doc.say(N_("This side is left blank: the cards begin on the next sheet."))
            doc.label(
                Rect(doc.page.x, doc.page.cy - 5, doc.page.w, 10).inset(20),
                words,
                size=10,
                align="centre",
                color=MUTED,
            )
        cards(doc)

    return draw


def name_page(doc: Document, url: str) -> None:
    """The first page of a deck of one's own: its name in the header, and a QR code that opens a
    new table with it (the game's page, when the deck is too long for a code a phone reads)."""
    doc.new_page()
    content = doc.frame()
    doc.text(content.x, content.top - 6, doc.say(N_("A deck of your own")), size=13, bold=True)
    fits = len(url) <= LONGEST_QR
    sentence = (
        N_("Scan this code to open a new table of this game with this deck filled in.")
        if fits
        else N_("This deck is too long for a QR code: the code opens the game's page, where you paste it.")
    )
    y = doc.text_block(Rect(content.x, content.top - 40, content.w, 30), doc.say(sentence), size=10)
    side = min(NAME_PAGE_QR, content.w, y - content.y - 4)
    doc.qr(url if fits else doc.game_url, Rect(content.cx - side / 2, y - 4 - side, side, side))
