"""The standard 52-card deck on paper, with one back design; Castle plays with it, and so does Fort.

Each face has its rank and suit in two opposite corners and big in the centre, red for
hearts and diamonds, black for spades and clubs; the cards come from
``companion.rules.cards.deck`` so the paper deck is the deck the rules know.
"""

from __future__ import annotations

from companion.rules.cards import SUIT_SYMBOLS, Card, deck
from printables import Sheet
from printables.draw import INK, STONE, Document
from printables.layout import Rect

RED = "#b3202a"
BACK = "#1f3a5f"  # deep blue, so the backs are not mistaken for Castellan's brick blank cards
LATTICE = 7.0  # mm between the diamonds of the back


def draw_deck(doc: Document) -> None:
    """52 faces, nine to a page, each page followed by its backs, then the printing page."""
    doc.card_sheet([_face_drawer(card) for card in deck()], draw_back)


def draw_face(doc: Document, slot: Rect, card: Card) -> None:
    """One face: a thin frame, the rank and suit in the top-left and (upside down) bottom-right corners, big in the centre."""
    colour = RED if card.colour == "red" else INK
    symbol = SUIT_SYMBOLS[card.suit]
    doc.box(slot.inset(3), radius=2.5, width=0.3, stroke=colour)
    _corner(doc, slot, card.rank, symbol, colour)
    with doc.turned(slot) as quarter, doc.turned(quarter) as upside_down:
        _corner(doc, upside_down, card.rank, symbol, colour)
    doc.label(
        Rect(slot.x, slot.cy + 2, slot.w, 20), card.rank, size=44, bold=True, align="centre", color=colour
    )
    doc.label(Rect(slot.x, slot.cy - 24, slot.w, 22), symbol, size=56, align="centre", color=colour)


def draw_back(doc: Document, slot: Rect) -> None:
    """The one back: a blue field with a frame and a lattice of diamonds (outlines with the ink saver)."""
    doc.background(slot, BACK)
    line = INK if doc.ink_saver else STONE
    inner = slot.inset(4.5)
    doc.box(inner, stroke=line, radius=2.5, width=0.5)
    fill = None if doc.ink_saver else STONE
    columns, rows = int(inner.w // LATTICE), int(inner.h // LATTICE)
    left = inner.cx - (columns - 1) * LATTICE / 2
    bottom = inner.cy - (rows - 1) * LATTICE / 2
    for i in range(columns):
        for j in range(rows):
            if (i + j) % 2 == 0:
                x, y = left + i * LATTICE, bottom + j * LATTICE
                doc.polygon(
                    [(x, y + 2), (x + 2, y), (x, y - 2), (x - 2, y)], stroke=line, fill=fill, width=0.2
                )


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
        game="castle",
        title="Standard 52-card deck",
        description="A full standard deck, A to K in four suits, with one back design: for Castle, and for Fort too. "
        "Six sheets printed on both sides.",
        draw=draw_deck,
    ),
]
