"""Zamek's printables: the deck with its starting tiles, the table layout and the score pad.

The deck is Castellan's default deck (``companion/rules/decks/zamek-default.json``): 45 cards
numbered 2 to 46 with big numbers, each picture drawn here as a simple vector emblem (knight,
princess, king, queen, wizard), four tiles numbered 1 in four colours, and one deck card
whose QR code names the deck, so the scorer knows the pictures. The tiles and the deck card
have a back of their own, so they never mix with the numbered cards. Every sheet says
which deck it uses. Rules: shared/rules/zamek.md; help: docs/zamek.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from urllib.parse import urlencode

from companion.i18n import say
from companion.rules import zamek
from companion.rules.sentences import N_, Message
from printables import Sheet
from printables.draw import INK, MUTED, PAPER, SHADE, SLATE, CardDrawer, Document
from printables.layout import BLEED, POKER, Rect
from printables.tiling import SPARE, MatSpec

DECK = zamek.default_deck()
DECK_REFERENCE = zamek.deck_reference(DECK)
NUMBERS = range(zamek.LOWEST, zamek.HIGHEST + 1)
# Picture names as printed: in the sheet's language, then in Polish (the game's own) unless the sheet is Polish.
GAME_LANGUAGE = "pl"
PICTURE_COLOURS = {
    "knight": "#9cc3e6",
    "princess": "#f2b8d6",
    "king": "#f2cf66",
    "queen": "#f2cf66",
    "wizard": "#c9b6ee",
}
# Each tile's colour and its writing: every tile at least 3:1 against white paper, its writing 4.5:1 on it.
TILE_COLOURS = (
    (N_("Red"), "#c8463c", PAPER),
    (N_("Blue"), "#3f72b5", PAPER),
    (N_("Green"), "#2f7a3e", PAPER),
    (N_("Yellow"), "#b07d00", INK),
)
TILE_BACK = "#6b4a1f"  # brown, far from the slate of the numbered cards' back
CARD = POKER  # the size of the printed deck's cards (``card_sheet``'s default)
LAYOUT_COLUMNS, LAYOUT_ROWS = 5, 9  # the places 1-45, five across as on the phones
# A face-down card may lie either way: sideways, a page holds six places instead of four.
LAYOUT = MatSpec(
    LAYOUT_COLUMNS, LAYOUT_ROWS, CARD.height + 2 * SPARE, CARD.width + 2 * SPARE, gap=2.0, label=7.0
)
LAYOUT_NOTE = Message(
    N_(
        "Lay one face-down card sideways on each place. Teams vote by these numbers. Any deck of "
        "%(width)s x %(height)s mm cards will do; Castellan prints %(reference)s."
    ),
    width=f"{CARD.width:g}",
    height=f"{CARD.height:g}",
    reference=DECK_REFERENCE,
)
SCORE_ROWS = (
    (N_("Name"), ""),
    (N_("Castle: its numbers"), ""),
    (N_("Elements (tile 1 too)"), "× 1"),
    (N_("Knights"), "× 1"),
    (N_("Princesses"), "× 1"),
    (N_("Princess–knight pairs"), "× 1"),
    (N_("King"), "+ 3"),
    (N_("Queen"), "+ 3"),
    (N_("Total"), ""),
    (N_("Holds the wizard? (ties)"), ""),
)
CASTLES = zamek.MAX_PLAYERS


def deck_url(doc: Document, deck: dict = DECK) -> str:
    """Where a deck's QR codes lead: the Zamek page naming the shipped deck, or for a deck of one's
    own the Zamek page with the new table's form filled with it."""
    if zamek.deck_reference(deck) == DECK_REFERENCE:
        return f"{doc.base_url}/zamek/?deck={DECK_REFERENCE}"
    fields = {f"deck_{key}": deck[key] for key in (*zamek.FIGURES, *zamek.GROUPS)}
    fields = {
        key: " ".join(map(str, value)) if isinstance(value, list) else value for key, value in fields.items()
    }
    return f"{doc.base_url}/zamek/?" + urlencode({"deck": "custom", **fields, "deck_name": deck["name"]})


def draw_deck(doc: Document) -> None:
    """The 45 cards, the four starting tiles and the deck card, with their backs."""
    doc.card_sheet(*deck_cards(DECK))


def deck_cards(deck: dict) -> tuple[list[CardDrawer], list[CardDrawer]]:
    """The faces and backs of a deck (``zamek.parse_deck``'s): 45 numbered cards with its pictures,
    the four starting tiles and the card that names the deck."""
    faces = [_card_face(deck, number) for number in NUMBERS]
    faces += [_tile_face(*colour) for colour in TILE_COLOURS]
    backs = [card_back] * len(NUMBERS) + [tile_back] * (len(TILE_COLOURS) + 1)
    return [*faces, _deck_card(deck)], backs


def _deck_card(deck: dict) -> CardDrawer:
    """The card that names the deck: its reference, its pictures and a QR code to its page."""
    reference = zamek.deck_reference(deck)
    name = Message(zamek.SHIPPED_DECK_NAME) if reference == DECK_REFERENCE else deck["name"]

    def draw(doc: Document, slot: Rect) -> None:
        inner = slot.inset(4)
        doc.box(slot.inset(3), radius=2.5, width=0.35)
        doc.label(Rect(inner.x, inner.top - 7, inner.w, 6), "ZAMEK", size=12, bold=True, align="centre")
        doc.label(Rect(inner.x, inner.top - 12, inner.w, 4), doc.say(name), size=8, align="centre")
        qr = Rect(inner.x, inner.top - 52, inner.w, 39)
        doc.qr(deck_url(doc, deck), qr)
        y = doc.text_block(Rect(inner.x + 1, qr.y - 4, inner.w - 2, 3.5), reference, size=7)
        for line in _deck_lines(deck):
            y = doc.text_block(Rect(inner.x + 1, y - 7.5, inner.w - 2, 7.5), doc.say(line), size=7)

    return draw


def card_back(doc: Document, slot: Rect) -> None:
    """A numbered card's back: a slate lattice with a three-towered castle and the game's name."""
    ink = doc.back_ground(slot, SLATE)
    doc.box(slot.inset(3.5), stroke=ink.line, radius=2.5, width=0.5)
    scale = slot.w / 63
    doc.polygon(
        [(slot.cx + x * scale, slot.cy + 4 + y * scale) for x, y in _CASTLE],
        stroke=ink.line,
        fill=ink.fill,
        width=0.4,
    )
    gate = [(slot.cx + x * scale, slot.cy + 4 + y * scale) for x, y in _GATE]
    doc.polygon(gate, stroke=ink.line, fill=ink.ground if ink.fill else None, width=0.4)
    doc.label(
        Rect(slot.x, slot.y + 12, slot.w, 6), "ZAMEK", size=13, bold=True, align="centre", color=ink.line
    )


def tile_back(doc: Document, slot: Rect) -> None:
    """The back of a starting tile and of the deck card: brown, with the four tile colours in a square."""
    ink = doc.back_ground(slot, TILE_BACK)
    doc.box(slot.inset(3.5), stroke=ink.line, radius=2.5, width=0.5)
    doc.box(slot.inset(6.5), stroke=ink.line, radius=1.5, width=0.5)
    square = Rect(slot.cx - 14, slot.cy - 6, 28, 28)
    for i, (_name, colour, _writing) in enumerate(TILE_COLOURS):
        cell = Rect(square.x + (i % 2) * 14, square.top - (i // 2 + 1) * 14, 14, 14)
        doc.box(cell, stroke=ink.line, fill=None if doc.ink_saver else colour, width=0.4)
    doc.label(
        Rect(slot.x, slot.y + 14, slot.w, 6),
        doc.say(N_("START")),
        size=13,
        bold=True,
        align="centre",
        color=ink.line,
    )


def draw_layout(doc: Document) -> None:
    """The table layout: places 1 to 45, five across, where the face-down cards lie."""
    doc.mat(LAYOUT, _place, label=_place_number, note=LAYOUT_NOTE)


def draw_score_pad(doc: Document) -> None:
    """A score pad for the extended game: four castles, the breakdown, the tie-break, the deck's pictures."""
    content = doc.frame()
    # One sentence, not the deck card's three lines glued: a label after a semicolon starts in lower case.
    deck = Message(
        N_(
            "Deck %(reference)s: %(name)s. King %(king)s, queen %(queen)s, wizard %(wizard)s; "
            "knights %(knights)s; princesses %(princesses)s."
        ),
        reference=DECK_REFERENCE,
        name=Message(zamek.SHIPPED_DECK_NAME),
        king=DECK["king"],
        queen=DECK["queen"],
        wizard=DECK["wizard"],
        knights=", ".join(map(str, DECK["knights"])),
        princesses=", ".join(map(str, DECK["princesses"])),
    )
    y = doc.text_block(Rect(content.x, content.top - 24, content.w, 24), doc.say(deck), size=8.5)
    legend = Rect(content.x, content.y, content.w, 14)
    doc.text_block(
        legend,
        doc.say(
            N_(
                "Highest total wins. On a tie, the tied castle holding the king wins; failing that the queen, "
                "then the wizard; otherwise it is a draw. Pairs: one princess with one knight."
            )
        ),
        size=8.5,
    )
    table = Rect(content.x, legend.top + 2, content.w, y - 3 - legend.top - 2)
    _score_table(doc, table)


# --- Private helpers ------------------------------------------------------------------


def _place(doc: Document, index: int, slot: Rect) -> None:
    """A place of the layout: its outline and its number, big, under the card."""
    doc.box(slot, stroke=MUTED, radius=2, width=0.3)
    doc.label(slot.inset(12), str(zamek.POSITIONS[index]), size=30, bold=True, align="centre", color=MUTED)


def _place_number(doc: Document, index: int, band: Rect) -> None:
    """A place's number above it, readable while a card lies on it."""
    doc.label(band, str(zamek.POSITIONS[index]), size=11, bold=True, align="centre")


def _card_face(deck: dict, number: int) -> Callable[[Document, Rect], None]:
    """The face of one card: its number, big, and its picture in the deck if it has one."""
    pic = zamek.picture(deck, number)

    def draw(doc: Document, slot: Rect) -> None:
        inner = slot.inset(4)
        doc.box(slot.inset(3), radius=2.5, width=0.35)
        _corner_numbers(doc, inner, number)
        if pic is None:
            _big_number(doc, Rect(inner.x, inner.y + 10, inner.w, inner.h - 20), number, 64)
            return
        _big_number(doc, Rect(inner.x, inner.top - 34, inner.w, 26), number, 44)
        _EMBLEMS[pic](doc, Rect(slot.cx - 14, inner.y + 13, 28, 28), PICTURE_COLOURS[pic])
        name, polish = _in_both(doc, zamek.PICTURE_NAMES[pic])
        doc.label(Rect(inner.x, inner.y + 7, inner.w, 4), name, size=8, bold=True, align="centre")
        if polish:
            doc.label(Rect(inner.x, inner.y + 3, inner.w, 3.5), polish, size=7, align="centre", color=MUTED)

    return draw


def _tile_face(colour_name: str, colour: str, writing: str) -> Callable[[Document, Rect], None]:
    """A starting tile: the number 1 on the player's colour, its name in words for the ink saver.
    The colour runs ``BLEED`` past the cut line, so a cut a little off leaves no white sliver."""

    def draw(doc: Document, slot: Rect) -> None:
        if doc.ink_saver:
            doc.background(slot.inset(3), colour, radius=2.5)
        else:
            doc.box(slot.inset(-BLEED), stroke=None, fill=colour)  # clipped to the card and its bleed
        ink = INK if doc.ink_saver else writing
        doc.label(Rect(slot.x, slot.cy - 12, slot.w, 34), "1", size=96, bold=True, align="centre", color=ink)
        name, polish = _in_both(doc, colour_name)
        doc.label(Rect(slot.x, slot.y + 16, slot.w, 6), name, size=12, bold=True, align="centre", color=ink)
        if polish:
            doc.label(Rect(slot.x, slot.y + 10, slot.w, 5), polish, size=10, align="centre", color=ink)

    return draw


def _corner_numbers(doc: Document, inner: Rect, number: int) -> None:
    """The number small in two corners, so a fanned hand still shows it."""
    doc.text(inner.x + 1.5, inner.top - 6, str(number), size=12, bold=True)
    doc.text(inner.right - 1.5, inner.y + 2, str(number), size=12, bold=True, align="right")


def _big_number(doc: Document, rect: Rect, number: int, size: float) -> None:
    """The big number; 6 and 9 are underlined so that they read the right way up."""
    doc.label(rect, str(number), size=size, bold=True, align="centre")
    if number in (6, 9):
        half = doc.text_width(str(number), size=size, bold=True) / 2
        y = rect.cy - size * 0.36 * 25.4 / 72 - 2
        doc.line(rect.cx - half, y, rect.cx + half, y, width=1.2)


def _in_both(doc: Document, word: str) -> tuple[str, str]:
    """A word in the sheet's language, and in Polish, the game's own, when the sheet is not Polish."""
    return doc.say(word), ("" if doc.lang == GAME_LANGUAGE else say(word, GAME_LANGUAGE))


def _deck_lines(deck: dict) -> list[Message]:
    """The deck's pictures in words."""
    return [
        Message(
            N_("King %(king)s, queen %(queen)s, wizard %(wizard)s"),
            king=deck["king"],
            queen=deck["queen"],
            wizard=deck["wizard"],
        ),
        Message(N_("Knights %(numbers)s"), numbers=", ".join(map(str, deck["knights"]))),
        Message(N_("Princesses %(numbers)s"), numbers=", ".join(map(str, deck["princesses"]))),
    ]


def _score_table(doc: Document, rect: Rect) -> None:
    """The score grid: a label column and a column per castle; the castle row is tall."""
    label_w = 44.0
    weights = [1.0, 2.4] + [1.0] * (len(SCORE_ROWS) - 2)
    unit = rect.h / sum(weights)
    top = rect.top
    for (label, points), weight in zip(SCORE_ROWS, weights, strict=True):
        row = Rect(rect.x, top - weight * unit, rect.w, weight * unit)
        if label in ("Name", "Total"):
            doc.background(row, SHADE)
        doc.text_block(
            Rect(row.x + 1.5, row.y, label_w - 12, row.h - 1), doc.say(label), size=8.5, bold=label == "Total"
        )
        if points:
            doc.label(
                Rect(row.x + label_w - 11, row.y, 9.5, row.h), points, size=8, align="right", color=MUTED
            )
        doc.line(rect.x, row.y, rect.right, row.y, width=0.3)
        top = row.y
    column_w = (rect.w - label_w) / CASTLES
    for i in range(CASTLES + 1):
        x = rect.x + label_w + i * column_w
        doc.line(x, rect.y, x, rect.top, width=0.3)
    doc.box(rect, width=0.5)


def _circle(cx: float, cy: float, r: float, n: int = 28) -> list[tuple[float, float]]:
    """A circle as an n-sided polygon."""
    return [
        (cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)
    ]


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> list[tuple[float, float]]:
    """A star with its first point up."""
    corners = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / points
        corners.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return corners


def _shape(doc: Document, box: Rect, points: list[tuple[float, float]], fill: str | None) -> None:
    """A polygon given on a 0-10 square, drawn into box; outline only with the ink saver."""
    scale = min(box.w, box.h) / 10
    x0, y0 = box.cx - 5 * scale, box.cy - 5 * scale
    doc.polygon(
        [(x0 + x * scale, y0 + y * scale) for x, y in points],
        stroke=INK,
        fill=None if doc.ink_saver or fill is None else fill,
        width=0.35,
    )


def _knight(doc: Document, box: Rect, colour: str) -> None:
    """A shield with a cross: the knight."""
    doc_fill = colour
    _shape(doc, box, [(1.5, 9), (8.5, 9), (8.5, 5), (7.5, 2.5), (5, 0.5), (2.5, 2.5), (1.5, 5)], doc_fill)
    _shape(
        doc,
        box,
        [
            (4.4, 8),
            (5.6, 8),
            (5.6, 6),
            (7.5, 6),
            (7.5, 4.8),
            (5.6, 4.8),
            (5.6, 1.8),
            (4.4, 1.8),
            (4.4, 4.8),
            (2.5, 4.8),
            (2.5, 6),
            (4.4, 6),
        ],
        PAPER,
    )


def _princess(doc: Document, box: Rect, colour: str) -> None:
    """A tiara over a face: the princess."""
    _shape(doc, box, _circle(5, 3.8, 3.2), PAPER)
    _shape(doc, box, [(2, 6.6), (8, 6.6), (8, 8), (6.8, 7.6), (5, 9.6), (3.2, 7.6), (2, 8)], colour)
    _shape(doc, box, _circle(5, 8.3, 0.45, 12), PAPER)


def _king(doc: Document, box: Rect, colour: str) -> None:
    """A tall crown of five points with a cross on top: the king."""
    _shape(
        doc,
        box,
        [(1, 1), (9, 1), (9, 7), (7.5, 4.5), (6.5, 7.5), (5, 4.5), (3.5, 7.5), (2.5, 4.5), (1, 7)],
        colour,
    )
    _shape(
        doc,
        box,
        [
            (4.6, 7.6),
            (5.4, 7.6),
            (5.4, 8.4),
            (6.2, 8.4),
            (6.2, 9.1),
            (5.4, 9.1),
            (5.4, 9.9),
            (4.6, 9.9),
            (4.6, 9.1),
            (3.8, 9.1),
            (3.8, 8.4),
            (4.6, 8.4),
        ],
        colour,
    )
    _shape(doc, box, [(1, 1), (9, 1), (9, 2.2), (1, 2.2)], PAPER)


def _queen(doc: Document, box: Rect, colour: str) -> None:
    """A crown of three points, each with a pearl: the queen."""
    _shape(
        doc, box, [(1.5, 1.5), (8.5, 1.5), (8.5, 6.5), (6.8, 4.5), (5, 7.5), (3.2, 4.5), (1.5, 6.5)], colour
    )
    for x, y in ((1.5, 7.3), (5, 8.3), (8.5, 7.3)):
        _shape(doc, box, _circle(x, y, 0.8, 16), colour)
    _shape(doc, box, [(1.5, 1.5), (8.5, 1.5), (8.5, 2.6), (1.5, 2.6)], PAPER)


def _wizard(doc: Document, box: Rect, colour: str) -> None:
    """A pointed hat with a star: the wizard."""
    _shape(doc, box, [(0.8, 1), (9.2, 1), (9.2, 2.2), (6.6, 2.6), (5.6, 9.6), (3.4, 2.6), (0.8, 2.2)], colour)
    _shape(doc, box, _star(5, 4.8, 1.5, 0.6), PAPER)


_EMBLEMS: dict[str, Callable[[Document, Rect, str], None]] = {
    "knight": _knight,
    "princess": _princess,
    "king": _king,
    "queen": _queen,
    "wizard": _wizard,
}


def _castle_outline() -> list[tuple[float, float]]:
    """Three towers joined by a wall, drawn on a 63 mm card around its centre (mm)."""
    points = [(-18.0, -16.0)]
    for left, right, top in ((-18.0, -8.0, 14.0), (-5.0, 5.0, 20.0), (8.0, 18.0, 14.0)):
        step = (right - left) / 5
        points += [(left, top - 4 if left != -18.0 else top)]
        for i in range(5):
            y = top if i % 2 == 0 else top - 2.5
            points += [(left + i * step, y), (left + (i + 1) * step, y)]
        points += [(right, top - 4 if right != 18.0 else top)]
    return [*points, (18.0, -16.0)]


_CASTLE = _castle_outline()
_GATE = [(-3.5, -16.0), (-3.5, -8.0), (0.0, -4.5), (3.5, -8.0), (3.5, -16.0)]

SHEETS = [
    Sheet(
        slug="zamek-deck",
        kind="memory cards",
        game="zamek",
        title=Message(
            N_("%(name)s (%(reference)s)"), name=Message(zamek.SHIPPED_DECK_NAME), reference=DECK_REFERENCE
        ),
        description=Message(
            N_(
                "The 45 cards of Castellan's default Zamek deck (%(reference)s), numbered 2 to 46 with "
                "their pictures, the four starting tiles and a deck card whose QR code names the deck."
            ),
            reference=DECK_REFERENCE,
        ),
        draw=draw_deck,
    ),
    Sheet(
        slug="zamek-layout",
        kind="mat",
        game="zamek",
        title=N_("Table layout, places 1 to 45"),
        description=Message(
            N_(
                "Where the face-down cards lie, each on a place of its own, numbered as teams vote on "
                "their phones. Deck: any, e.g. %(reference)s."
            ),
            reference=DECK_REFERENCE,
        ),
        draw=draw_layout,
        mat=LAYOUT,
    ),
    Sheet(
        slug="zamek-score-pad",
        game="zamek",
        title=N_("Score pad, extended game"),
        description=Message(
            N_(
                "Score four castles with the pictures of deck %(reference)s: elements, knights, "
                "princesses, pairs, king and queen, and the tie-break."
            ),
            reference=DECK_REFERENCE,
        ),
        draw=draw_score_pad,
    ),
]
