"""Castellan's own sheets: blank cards and a score pad, for any game.

They are also the proof sheets of the framework: the card-sheet engine (fronts, mirrored
backs, cut guides, information page) and the standard page frame, drawn on every paper.
"""

from __future__ import annotations

from companion.rules.sentences import N_
from printables import Sheet
from printables.draw import BRICK, MUTED, SHADE, Document
from printables.layout import Rect

CARDS = 8
PLAYERS = 6
ROUNDS = 20
ROUND_COLUMN = 14.0  # mm


def draw_blank_cards(doc: Document) -> None:
    """One page of eight blank framed cards and its page of tower backs, after the instructions."""
    doc.card_sheet([blank_face] * CARDS, tower_back)


def blank_face(doc: Document, slot: Rect) -> None:
    """A blank card: an empty frame to write on."""
    doc.box(slot.inset(3.5), radius=2.5, width=0.35)


def tower_back(doc: Document, slot: Rect) -> None:
    """A card back: a castle tower on a brick lattice (light unless the backs are rich), or its outline with the ink saver."""
    ink = doc.back_ground(slot, BRICK)
    doc.box(slot.inset(3.5), stroke=ink.line, radius=2.5, width=0.5)
    scale = slot.w / 63
    points = [(slot.cx + x * scale, slot.cy + y * scale) for x, y in _TOWER]
    doc.polygon(points, stroke=ink.line, fill=ink.fill, width=0.4)
    door = [(slot.cx + x * scale, slot.cy + y * scale) for x, y in _DOOR]
    doc.polygon(door, stroke=ink.line, fill=ink.ground if ink.fill else None, width=0.4)


def draw_score_pad(doc: Document) -> None:
    """A page frame around a grid: a round column, a column per player, a total row."""
    content = doc.frame()
    rows = ROUNDS + 2
    rounds = Rect(content.x, content.y, ROUND_COLUMN, content.h)
    players = Rect(rounds.right, content.y, content.w - ROUND_COLUMN, content.h)
    row_h = content.h / rows
    for y in (content.top - row_h, content.y):
        doc.background(Rect(content.x, y, content.w, row_h), SHADE)
    doc.grid(players, PLAYERS, rows)
    numbers = doc.grid(rounds, 1, rows)
    doc.label(numbers[0][0].inset(1.5), doc.say(N_("Round")), size=7, bold=True, align="centre")
    for n, row in enumerate(numbers[1:-1], start=1):
        doc.label(row[0], str(n), size=8, align="centre", color=MUTED)
    doc.label(numbers[-1][0].inset(1.5), doc.say(N_("Total")), size=8, bold=True, align="centre")
    doc.box(content, width=0.5)


def _tower_outline() -> list[tuple[float, float]]:
    """A tower with four merlons, drawn on a 63 mm card around its centre (mm)."""
    battlement = [(-13.0, 8.0)]
    width = 26 / 7  # four merlons and three crenels of equal width
    for i in range(7):
        x0, x1 = -13 + i * width, -13 + (i + 1) * width
        y = 17.0 if i % 2 == 0 else 13.0
        battlement += [(x0, y), (x1, y)]
    return [(-9.0, -22.0), (-9.0, 6.0), *battlement, (13.0, 8.0), (9.0, 6.0), (9.0, -22.0)]


_TOWER = _tower_outline()
_DOOR = [(-3.5, -22.0), (-3.5, -14.0), (0.0, -10.0), (3.5, -14.0), (3.5, -22.0)]

SHEETS = [
    Sheet(
        slug="duplex-check",
        kind="duplex check",
        game="castellan",
        title=N_("Duplex check"),
        description=N_(
            "Measures how far your printer shifts the backs from their fronts. Print it on your card paper, "
            "read the offset on its scales and enter it; printed again with that offset, its crosses meet."
        ),
        draw=Document.duplex_check,
    ),
    Sheet(
        slug="blank-cards",
        kind="cards",
        game="castellan",
        title=N_("Blank cards"),
        description=N_(
            "Eight blank poker-size cards with a castle-tower back, to make your own or replace a lost one."
        ),
        draw=draw_blank_cards,
    ),
    Sheet(
        slug="score-pad",
        game="castellan",
        title=N_("Score pad"),
        description=N_(
            "A blank score pad: a column for each of up to six players and a row for each of twenty rounds."
        ),
        draw=draw_score_pad,
    ),
]
