"""The standard 52-card deck on paper, with one back design; Castle plays with it, and so does Fort.

Each face has its rank and suit in two opposite corners and big in the centre, red for
hearts and diamonds, black for spades and clubs; the cards come from
``companion.rules.cards.deck`` so the paper deck is the deck the rules know.
"""

from __future__ import annotations

from companion.rules.cards import SUIT_SYMBOLS, Card, deck, letters
from companion.rules.sentences import N_
from printables import Sheet
from printables.draw import INK, Document
from printables.layout import Rect

RED = "#b3202a"
BACK = "#1f3a5f"  # deep blue, so the backs are not mistaken for Castellan's brick blank cards


def draw_deck(doc: Document) -> None:
    """52 faces, nine to a page, each page followed by its backs, then the printing page."""
    doc.card_sheet([_face_drawer(card) for card in deck()], draw_back)


def draw_face(doc: Document, slot: Rect, card: Card) -> None:
    """One face: a thin frame, the rank and suit in the top-left and (upside down) bottom-right corners, big in the
    centre; the rank as the sheet's language writes it (a queen is D in French and Polish)."""
    colour = RED if card.colour == "red" else INK
    symbol = SUIT_SYMBOLS[card.suit]
    rank = letters(doc.lang)[0].get(card.rank, card.rank)
    doc.box(slot.inset(3), radius=2.5, width=0.3, stroke=colour)
    _corner(doc, slot, rank, symbol, colour)
    with doc.turned(slot) as quarter, doc.turned(quarter) as upside_down:
        _corner(doc, upside_down, rank, symbol, colour)
    doc.label(Rect(slot.x, slot.cy + 2, slot.w, 20), rank, size=44, bold=True, align="centre", color=colour)
    doc.label(Rect(slot.x, slot.cy - 24, slot.w, 22), symbol, size=56, align="centre", color=colour)


def draw_back(doc: Document, slot: Rect) -> None:
    """The one back: a blue lattice (light unless the backs are rich), a frame and the four suits in the middle."""
    ink = doc.back_ground(slot, BACK)
    doc.box(slot.inset(4.5), stroke=ink.line, radius=2.5, width=0.5)
    medallion = Rect(slot.cx - 20, slot.cy - 9, 40, 18)
    doc.box(medallion, stroke=ink.line, fill=None if doc.ink_saver else ink.ground, radius=9, width=0.5)
    doc.label(medallion.inset(3), "♠ ♥ ♦ ♣", size=20, align="centre", color=ink.line)


def _corner(doc: Document, slot: Rect, rank: str, symbol: str, colour: str) -> None:
    """The index in a card's top-left corner: the rank over the suit."""
    x, top = slot.x + 4.5, slot.top - 4.5
    doc.label(Rect(x, top - 6, 9, 6), rank, size=13, bold=True, align="centre", color=colour)
    doc.label(Rect(x, top - 12, 9, 6), symbol, size=13, align="centre", color=colour)


def _face_drawer(card: Card):
    """The card-sheet engine's ``draw(doc, slot)`` for one card."""
    return lambda doc, slot: draw_face(doc, slot, card)


SHEETS = [
    Sheet(
        slug="castle-deck",
        kind="cards",
        game="castle",
        title=N_("Standard 52-card deck"),
        description=N_(
            "A full standard deck, A to K in four suits, with one back design: for Castle, and for Fort "
            "too. Seven sheets printed on both sides, after the sheet that says how."
        ),
        draw=draw_deck,
    ),
]
