"""Square Tactics' printables: each shipped faction's deck with its backs, a 3x3 and a 4x4 board
mat with the seats around it, and a score pad for a three-game match.

A card shows its four edge numbers on its four edges, upright for its owner, its name and
its faction's emblem, drawn as simple vector shapes. The decks are exactly the factions of
``companion/rules/factions``. Rules: shared/rules/tactics.md; help: docs/tactics.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from companion.rules import tactics
from companion.rules.sentences import N_, NP_, Message
from printables import Sheet
from printables.draw import INK, MUTED, PAPER, SHADE, Document
from printables.layout import POKER, Rect
from printables.tiling import SPARE, MatSpec

FACTIONS = tactics.load_factions()
EMBLEM_COLOURS = {
    "tower": "#2f4f6f",
    "shield": "#5a3d2b",
    "crown": "#4b3a6b",
    "dragon": "#7b2626",
    "key": "#3d5a3a",
    "banner": "#6b4a1f",
    "sword": "#3f4a52",
    "gate": "#5b5340",
    "bridge": "#2f5a5a",
    "horn": "#6b3a4a",
}
SEAT_LABELS = {"S": N_("Seat S, first player"), "W": N_("Seat W"), "N": N_("Seat N"), "E": N_("Seat E")}
SEAT_N_OF_TWO = N_("Seat N (2 players: S and N)")  # the 3x3 mat's far side
QUARTER_TURNS = {
    "S": 0,
    "E": 1,
    "N": 2,
    "W": 3,
}  # anticlockwise turns that make a side's label readable there
CARD = POKER  # the size of the printed decks' cards
SEAT_BAND = 6.0  # mm: the border of the board where a seat's name is written
MAT_NOTES = {
    3: N_(
        "Lay each card centred on its cell, upright as you see it from your seat: a cell holds a card "
        "(63 x 88 mm). Cells are named as seat S sees them; the small number is what holding the cell "
        "scores at the end."
    ),
    4: N_(
        "Lay each card centred on its cell, upright as you see it from your seat: a cell holds a card "
        "(63 x 88 mm) upright for S and N, sideways for W and E. Cells are named as seat S sees them; the "
        "small number is what holding the cell scores at the end."
    ),
}
# Each game's columns: what is counted, and what one of it is worth.
SCORE_COLUMNS = (
    N_("Player"),
    N_("Captured"),
    N_("Corners × 1"),
    N_("Sides × 2"),
    N_("Centres × 3"),
    N_("Total"),
)
SCORE_PLAYERS = 4


def draw_deck(faction: dict) -> Callable[[Document], None]:
    """The drawing of one faction's sheet: its cards, nine a page, each page followed by its backs."""

    def draw(doc: Document) -> None:
        doc.card_sheet([card_face(faction, card) for card in faction["cards"]], card_back(faction))

    return draw


def card_face(faction: dict, card: dict) -> Callable[[Document, Rect], None]:
    """A card's front: the four edge numbers on their edges, the name, the emblem, the faction."""

    def draw(doc: Document, slot: Rect) -> None:
        colour = EMBLEM_COLOURS.get(faction["emblem"], INK)
        inner = slot.inset(3.5)
        doc.box(inner, stroke=colour, radius=2.5, width=0.8)
        top, right, bottom, left = card["edges"]
        _number(doc, Rect(inner.x, inner.top - 13, inner.w, 12), top)
        _number(doc, Rect(inner.x, inner.y + 1, inner.w, 12), bottom)
        _number(doc, Rect(inner.x + 1, inner.cy - 6, 11, 12), left)
        _number(doc, Rect(inner.right - 12, inner.cy - 6, 11, 12), right)
        doc.label(
            Rect(inner.x + 12, inner.top - 20, inner.w - 24, 5),
            card["name"],
            size=9,
            bold=True,
            align="centre",
        )
        emblem(doc, faction["emblem"], Rect(inner.cx - 10, inner.cy - 9, 20, 20), colour)
        doc.label(
            Rect(inner.x + 12, inner.y + 13.5, inner.w - 24, 4),
            faction["name"],
            size=7,
            align="centre",
            color=MUTED,
        )

    return draw


def card_back(faction: dict) -> Callable[[Document, Rect], None]:
    """A card back of the faction: its colour, a large emblem and its name."""

    def draw(doc: Document, slot: Rect) -> None:
        ink = doc.back_ground(slot, EMBLEM_COLOURS.get(faction["emblem"], INK))
        doc.box(slot.inset(3.5), stroke=ink.line, radius=2.5, width=0.5)
        emblem(doc, faction["emblem"], Rect(slot.cx - 17, slot.cy - 10, 34, 34), ink.fill, cut=ink.ground)
        doc.label(
            Rect(slot.x + 6, slot.y + 12, slot.w - 12, 6),
            faction["name"].upper(),
            size=9,
            bold=True,
            align="centre",
            color=ink.line,
        )

    return draw


def emblem(doc: Document, key: str, box: Rect, colour: str | None, cut: str = PAPER) -> None:
    """A faction's emblem in a square box: filled with ``colour`` (its openings in ``cut``), or
    outlined when ``colour`` is None."""
    size = min(box.w, box.h) / 10
    x0, y0 = box.cx - 5 * size, box.cy - 5 * size
    for shape, hollow in _EMBLEMS.get(key, _EMBLEMS["banner"]):
        fill = (cut if hollow else colour) if colour else None
        doc.polygon(
            [(x0 + x * size, y0 + y * size) for x, y in shape],
            stroke=INK if colour is None else None,
            fill=fill,
            width=0.35,
        )


def mat_spec(size: int) -> MatSpec:
    """The board of a size: each cell holds a card as it is laid there, with a seat's border on
    each side that has a seat. On the 3x3 board S and N lay their cards upright, so a cell is a
    card's shape; on the 4x4 board W and E lay theirs sideways, so a cell takes a card either way."""
    if size == 3:
        return MatSpec(size, size, CARD.width + 2 * SPARE, CARD.height + 2 * SPARE, border_y=SEAT_BAND)
    side = max(CARD.width, CARD.height) + 2 * SPARE
    return MatSpec(size, size, side, side, border_x=SEAT_BAND, border_y=SEAT_BAND)


def draw_mat(size: int) -> Callable[[Document], None]:
    """The drawing of a board mat: each cell named and valued as seat S sees it, a seat on each side."""

    def cell(doc: Document, index: int, rect: Rect) -> None:
        row, column = divmod(index, size)
        value = tactics.cell_value(f"{chr(ord('A') + column)}{row + 1}", size)
        if value == 3:
            doc.background(rect.inset(0.6), SHADE)
        doc.box(rect, width=0.5)
        doc.text(rect.x + 2, rect.top - 5, f"{chr(ord('A') + column)}{row + 1}", size=9, color=MUTED)
        doc.text(rect.right - 2, rect.y + 2, f"+{value}", size=9, align="right", color=MUTED)

    def seat(doc: Document, side: str, index: int, rect: Rect) -> None:
        if side in tactics.SEATING[4 if size == 4 else 2]:
            words = doc.say(SEAT_N_OF_TWO if size == 3 and side == "N" else SEAT_LABELS[side])
            with _quarter_turns(doc, rect, QUARTER_TURNS[side]) as local:
                doc.label(local.inset(0.8), words, size=10, bold=True, align="centre")

    def draw(doc: Document) -> None:
        doc.mat(mat_spec(size), cell, border=seat, note=doc.say(MAT_NOTES[size]))

    return draw


def draw_score_pad(doc: Document) -> None:
    """A match of three games for up to four players: captures, corners, sides, centres, totals."""
    content = doc.frame()
    note = Rect(content.x, content.top - 9, content.w, 9)
    doc.text_block(
        note,
        doc.say(
            N_(
                "Each game: 1 per enemy card captured; per cell held, corner 1, side 2, "
                "centre 3 (on the 4x4 board the four inner cells are centres). Three games "
                "make a match."
            )
        ),
        size=8,
        color=MUTED,
    )
    block = (note.y - content.y - 22) / tactics.GAMES_IN_MATCH
    y = note.y - 2
    for game in range(1, tactics.GAMES_IN_MATCH + 1):
        _score_table(
            doc,
            Rect(content.x, y - block, content.w, block),
            doc.say(Message(N_("Game %(game)s"), game=game)),
        )
        y -= block
    _match_row(doc, Rect(content.x, content.y, content.w, y - content.y - 2))


# --- Private helpers ------------------------------------------------------------------


def _number(doc: Document, rect: Rect, number: int) -> None:
    """One edge number, large; a 6 and a 9 underlined so a turned card cannot mislead."""
    doc.label(rect, str(number), size=22, bold=True, align="centre")
    if number in (6, 9):
        width = doc.text_width(str(number), size=22, bold=True)
        doc.line(rect.cx - width / 2, rect.cy - 4.6, rect.cx + width / 2, rect.cy - 4.6, width=0.6)


@contextmanager
def _quarter_turns(doc: Document, rect: Rect, turns: int) -> Iterator[Rect]:
    """Draw into rect turned ``turns`` quarters anticlockwise (the primitive ``turned``, nested)."""
    with ExitStack() as stack:
        for _ in range(turns):
            rect = stack.enter_context(doc.turned(rect))
        yield rect


def _score_table(doc: Document, rect: Rect, title: str) -> None:
    """One game's rows: a column per count, a row per player."""
    doc.text(rect.x, rect.top - 4.5, title, size=11, bold=True)
    table = Rect(rect.x, rect.y, rect.w, rect.h - 7)
    rows = SCORE_PLAYERS + 1
    doc.background(Rect(table.x, table.top - table.h / rows, table.w, table.h / rows), SHADE)
    widths = [0.3] + [0.7 / (len(SCORE_COLUMNS) - 1)] * (len(SCORE_COLUMNS) - 1)
    x = table.x
    for name, share in zip(SCORE_COLUMNS, widths, strict=True):
        column = Rect(x, table.y, table.w * share, table.h)
        cells = doc.grid(column, 1, rows)
        doc.label(cells[0][0].inset(1.5), doc.say(name), size=8, bold=True, align="centre")
        x = column.right
    doc.box(table, width=0.5)


def _match_row(doc: Document, rect: Rect) -> None:
    """The match totals: one box per player, and who won."""
    doc.text(rect.x, rect.top - 4.5, doc.say(N_("Match: total of the three games")), size=11, bold=True)
    boxes = Rect(rect.x, rect.y, rect.w, rect.h - 7)
    cells = doc.grid(boxes, SCORE_PLAYERS, 1)
    for column in cells[0]:
        doc.text(column.x + 1.5, column.top - 3.5, doc.say(N_("Name and total")), size=7, color=MUTED)
    doc.box(boxes, width=0.5)


def _circle(cx: float, cy: float, r: float, steps: int = 24) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(2 * math.pi * i / steps), cy + r * math.sin(2 * math.pi * i / steps))
        for i in range(steps)
    ]


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


# Each emblem on a 10x10 grid, y up: (polygon, hollow) pairs; a hollow one is cut out in paper colour.
_EMBLEMS: dict[str, list[tuple[list[tuple[float, float]], bool]]] = {
    "tower": [
        (
            [
                (2, 0),
                (8, 0),
                (8, 7),
                (9, 7),
                (9, 10),
                (7.4, 10),
                (7.4, 8.8),
                (5.8, 8.8),
                (5.8, 10),
                (4.2, 10),
                (4.2, 8.8),
                (2.6, 8.8),
                (2.6, 10),
                (1, 10),
                (1, 7),
                (2, 7),
            ],
            False,
        ),
        ([(4, 0), (4, 3), (5, 4.2), (6, 3), (6, 0)], True),
        (_rect(4.4, 5.4, 5.6, 7), True),
    ],
    "shield": [
        ([(1, 9.5), (9, 9.5), (9, 5), (8, 2.5), (5, 0.3), (2, 2.5), (1, 5)], False),
        ([(4.5, 8.5), (5.5, 8.5), (5.5, 1.5), (4.5, 1.5)], True),
        (_rect(2, 5.5, 8, 6.5), True),
    ],
    "crown": [
        ([(1, 1), (9, 1), (9, 7.5), (7, 4.5), (5, 8.5), (3, 4.5), (1, 7.5)], False),
        (_rect(1, 1, 9, 2.4), True),
        (_circle(5, 9.2, 0.8, 12), False),
    ],
    "key": [
        (_circle(2.8, 5, 2.4), False),
        (_circle(2.8, 5, 1), True),
        (_rect(4.8, 4.4, 9.6, 5.6), False),
        (_rect(8.2, 2.6, 9.2, 4.4), False),
        (_rect(6.6, 3.2, 7.6, 4.4), False),
    ],
    "banner": [(_rect(1, 0, 1.8, 10), False), ([(1.8, 9.5), (9, 9.5), (7, 7.25), (9, 5), (1.8, 5)], False)],
    "sword": [
        ([(4.4, 3.2), (5.6, 3.2), (5.6, 8.8), (5, 10), (4.4, 8.8)], False),
        (_rect(2.4, 2.4, 7.6, 3.2), False),
        (_rect(4.6, 0.8, 5.4, 2.4), False),
        (_circle(5, 0.6, 0.6, 12), False),
    ],
    "dragon": [
        (
            [
                (0.5, 3),
                (3, 5),
                (2, 9.5),
                (4.8, 6.6),
                (6, 9.8),
                (7, 6),
                (9.6, 6.6),
                (8.2, 4),
                (9.6, 1.4),
                (6.2, 2.6),
                (4, 0.4),
                (3.4, 2.6),
            ],
            False,
        ),
        (_circle(7.4, 4.6, 0.5, 10), True),
    ],
    "gate": [
        (
            [
                (1, 0),
                (9, 0),
                (9, 9),
                (7.6, 9),
                (7.6, 8),
                (6.2, 8),
                (6.2, 9),
                (3.8, 9),
                (3.8, 8),
                (2.4, 8),
                (2.4, 9),
                (1, 9),
            ],
            False,
        ),
        ([(3.2, 0), (3.2, 4), (5, 6.2), (6.8, 4), (6.8, 0)], True),
    ],
    "bridge": [
        (
            [
                (0, 6),
                (10, 6),
                (10, 3.6),
                (8.6, 3.6),
                (8.6, 1),
                (7.4, 1),
                (7.4, 2.2),
                (6.4, 3.4),
                (3.6, 3.4),
                (2.6, 2.2),
                (2.6, 1),
                (1.4, 1),
                (1.4, 3.6),
                (0, 3.6),
            ],
            False,
        ),
        (_rect(0, 7.2, 10, 7.8), False),
    ],
    "horn": [
        (
            [
                (0.6, 8.4),
                (2.6, 6.6),
                (4.6, 5.4),
                (6.8, 4.8),
                (8.4, 5),
                (9.6, 6.4),
                (9.6, 1.6),
                (8.4, 2.8),
                (6.8, 3),
                (4.4, 3.4),
                (2.2, 4.8),
                (0.6, 7.2),
            ],
            False,
        ),
        (_rect(3.2, 3.8, 3.8, 5.6), True),
    ],
}

SHEETS = [
    *(
        Sheet(
            slug=f"tactics-{faction_id}",
            game="tactics",
            game_name="Square Tactics",
            title=Message(N_("%(faction)s: the deck"), faction=faction["name"]),
            description=Message(
                NP_(
                    "The %(count)s card of the %(faction)s for Square Tactics, with its back. "
                    "%(description)s",
                    "The %(count)s cards of the %(faction)s for Square Tactics, with their backs. "
                    "%(description)s",
                ),
                count=len(faction["cards"]),
                faction=faction["name"],
                description=Message(faction["description"]),
            ),  # said if translated (views.tactics)
            draw=draw_deck(faction),
            kind="cards",
        )
        for faction_id, faction in FACTIONS.items()
    ),
    Sheet(
        slug="tactics-mat-3x3",
        game="tactics",
        game_name="Square Tactics",
        title=N_("Board mat 3x3, two players"),
        description=N_(
            "The 3x3 board for two players, seats S and N facing each other; each cell holds a card, "
            "named as S sees it, with what it scores."
        ),
        draw=draw_mat(3),
        mat=mat_spec(3),
        kind="mat",
    ),
    Sheet(
        slug="tactics-mat-4x4",
        game="tactics",
        game_name="Square Tactics",
        title=N_("Board mat 4x4, four players"),
        description=N_(
            "The 4x4 board for four players, seats S, W, N, E clockwise; each cell holds a card either "
            "way, named as S sees it, with what it scores (the four inner cells are centres)."
        ),
        draw=draw_mat(4),
        mat=mat_spec(4),
        kind="mat",
    ),
    Sheet(
        slug="tactics-score-pad",
        game="tactics",
        game_name="Square Tactics",
        title=N_("Score pad, a three-game match"),
        description=N_(
            "Captures, corners, sides and centres of each player in each game, and the match total."
        ),
        draw=draw_score_pad,
    ),
]
