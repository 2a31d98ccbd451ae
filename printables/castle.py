"""Castle on paper: the mat of the 4x3 castle, a quick-reference card and a score pad.

The mat's neighbour counts and the reference card's points come from the rules module,
so paper and phone cannot disagree. The deck the game is played with is ``printables.deck``.
"""

from __future__ import annotations

from companion.rules import cards, castle
from companion.rules.sentences import N_, NP_, Message
from printables import Sheet
from printables.draw import INK, MUTED, SHADE, Document
from printables.layout import Rect
from printables.tiling import SPARE, MatSpec

CARD_SIZES = ((63.0, 88.0), (57.0, 89.0))  # mm: a poker card and a bridge card, both fit each position
MAT = MatSpec(
    columns=len(castle.COLUMNS),
    rows=len(castle.ROWS),
    slot_w=max(w for w, _ in CARD_SIZES) + 2 * SPARE,
    slot_h=max(h for _, h in CARD_SIZES) + 2 * SPARE,
    gap=1.0,  # so that the mat fits Tabloid paper in one piece
    label=7.0,
)
MAT_NOTE = N_(
    "Each position holds a poker card (63 x 88 mm) or a bridge card (57 x 89 mm). A pile is worth its top "
    "card (ace 1 … king 13), plus 1 for each neighbouring pile topped by the same colour, minus 1 for each "
    "neighbour of the other colour. Neighbours touch along a side, never across a corner."
)
GAMES = 18  # rows of the score pad
REFERENCE_POINTS = ("A", "K", "Q", "J")  # named on the card in the sheet's language (cards.RANK_WORDS)


def draw_mat(doc: Document) -> None:
    """The 12 positions A1-D3 as the castle lies on the table, each with its neighbour count."""
    doc.mat(MAT, _position, label=_position_name, note=MAT_NOTE)


def draw_reference(doc: Document) -> None:
    """Two copies of the quick-reference card, one above the other, with a cut line between."""
    doc.two_up(_reference, inset=3)


COLOUR_SHARE = 1.6  # the score pad's colour column, in widths of a count's column


def draw_score_pad(doc: Document) -> None:
    """One row per game: each team's colour, its captured cards of the other colour per rank, its points."""
    content = doc.frame()
    letters, _suits = cards.letters(doc.lang)
    ranks = [
        *((letters[rank], f"×{castle.PICKUP_POINTS[rank]}") for rank in ("A", "K", "Q", "J")),
        ("2-10", f"×{castle.OTHER_POINTS}"),
        (doc.say(N_("Points")), ""),
    ]
    team_columns = 1 + len(ranks)
    game_w = 12.0
    team_w = (content.w - game_w) / 2
    rows = GAMES + 3  # team names, column heads, the games, the totals
    row_h = content.h / rows
    grid = Rect(content.x, content.y, content.w, content.h)
    for y in (grid.top - 2 * row_h, grid.y):
        doc.background(Rect(grid.x, y, grid.w, row_h * (2 if y > grid.y else 1)), SHADE)
    doc.grid(Rect(grid.x, grid.y, game_w, grid.h - row_h), 1, rows - 1)
    doc.label(
        Rect(grid.x, grid.top - 2 * row_h, game_w, row_h).inset(1),
        doc.say(N_("Game")),
        size=7,
        bold=True,
        align="centre",
    )
    for n in range(1, GAMES + 1):
        doc.label(
            Rect(grid.x, grid.top - (n + 2) * row_h, game_w, row_h),
            str(n),
            size=8,
            align="centre",
            color=MUTED,
        )
    doc.label(
        Rect(grid.x, grid.y, game_w, row_h).inset(1), doc.say(N_("Total")), size=7, bold=True, align="centre"
    )
    for t in range(2):
        left = grid.x + game_w + t * team_w
        doc.box(Rect(left, grid.top - row_h, team_w, row_h), width=0.35)
        doc.label(
            Rect(left + 2, grid.top - row_h, team_w - 4, row_h),
            doc.say(Message(N_("Team %(number)s:"), number=t + 1)),
            size=9,
            bold=True,
        )
        # The colour column is wider than a count's: its hint ("R / B", Polish "Czer. / Czar.") stays on one line.
        colour_w = team_w * COLOUR_SHARE / (COLOUR_SHARE + team_columns - 1)
        colour = doc.grid(Rect(left, grid.y, colour_w, grid.h - row_h), 1, rows - 1)
        counts = doc.grid(
            Rect(left + colour_w, grid.y, team_w - colour_w, grid.h - row_h), team_columns - 1, rows - 1
        )
        heads = [(doc.say(N_("Colour")), doc.say(N_("R / B"))), *ranks]
        for cell, (head, points) in zip([colour[0][0], *counts[0]], heads, strict=True):
            doc.label(
                Rect(cell.x, cell.cy, cell.w, cell.h / 2).inset(0.8), head, size=7, bold=True, align="centre"
            )
            doc.label(
                Rect(cell.x, cell.y, cell.w, cell.h / 2).inset(0.8),
                points,
                size=7,
                align="centre",
                color=MUTED,
            )
    doc.box(grid, width=0.5)


def _position(doc: Document, index: int, rect: Rect) -> None:
    """One position of the mat: its name, its neighbour count and a dot towards each neighbour."""
    pile = _pile(index)
    doc.box(rect, radius=3, width=0.5)
    count = len(castle.neighbours(pile))
    doc.label(Rect(rect.x, rect.cy, rect.w, 14), pile, size=26, bold=True, align="centre")
    doc.label(
        Rect(rect.x, rect.cy - 10, rect.w, 8),
        doc.say(Message(NP_("%(count)s neighbour", "%(count)s neighbours"), count=count)),
        size=10,
        align="centre",
        color=MUTED,
    )
    column, row = castle.COLUMNS.index(pile[0]), int(pile[1])
    for near in castle.neighbours(pile):
        dx = castle.COLUMNS.index(near[0]) - column
        dy = int(near[1]) - row
        x = rect.cx + dx * (rect.w / 2 - 4)
        y = rect.cy - dy * (rect.h / 2 - 4)
        doc.polygon(_diamond(x, y, 2.2), stroke=None, fill=INK)


def _position_name(doc: Document, index: int, rect: Rect) -> None:
    """The position's name above it, readable while a card lies on it."""
    doc.label(rect, _pile(index), size=10, bold=True, align="centre")


def _pile(index: int) -> str:
    """The name of the mat's position with this index in reading order ("A1" first, "D3" last)."""
    columns = len(castle.COLUMNS)
    return f"{castle.COLUMNS[index % columns]}{castle.ROWS[index // columns]}"


def _diamond(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x, y + r), (x + r, y), (x, y - r), (x - r, y)]


def _reference(doc: Document, rect: Rect) -> float:
    """One quick-reference card: the value rule, the three choices of a turn, the end, the points;
    returns the lowest y its rules' words reach."""
    doc.box(rect, radius=2, width=0.4)
    inner = rect.inset(4)
    doc.text(inner.x, inner.top - 5, doc.say(N_("Castle: quick reference")), size=13, bold=True)
    table_w = 42.0
    text = Rect(inner.x, inner.y, inner.w - table_w - 4, inner.h - 9)
    lowest = doc.headed_paragraphs(
        [(text, [(doc.say(head), doc.say(body)) for head, body in _REFERENCE])], head=8.5, body=8.5
    )
    _points_table(doc, Rect(inner.right - table_w, inner.top - 9 - 42, table_w, 42))
    return lowest


def _points_table(doc: Document, rect: Rect) -> None:
    """The scoring table: what each captured card of the other colour is worth."""
    rows = [
        *(
            (doc.say(cards.RANK_WORDS[rank]).capitalize(), castle.PICKUP_POINTS[rank])
            for rank in REFERENCE_POINTS
        ),
        (doc.say(N_("Any other")), castle.OTHER_POINTS),
    ]
    doc.label(Rect(rect.x, rect.top - 6, rect.w, 6), doc.say(N_("Other colour scores")), size=8, bold=True)
    cells = doc.grid(Rect(rect.x, rect.y, rect.w, rect.h - 7), 2, len(rows))
    for (name_cell, points_cell), (name, points) in zip(cells, rows, strict=True):
        doc.label(name_cell.inset(1.5), name, size=8.5)
        doc.label(points_cell.inset(1.5), str(points), size=9, bold=True, align="centre")


_REFERENCE = (
    (
        N_("What a pile is worth"),
        N_(
            "Its top card (ace 1, 2-10, jack 11, queen 12, king 13), +1 for each neighbour topped by the same "
            "colour, −1 for each of the other colour. Neighbours touch along a side: corners have 2, other "
            "edge piles 3, B2 and C2 have 4. Example: a red 10 with 3 red and 1 black neighbour is worth 12."
        ),
    ),
    (
        N_("Your turn: one of"),
        N_(
            "1. Lay a card on a pile of its own colour: always allowed. "
            "2. Lay a card on a pile of the other colour only if its own value is higher than the pile's "
            "value (equal is not enough). "
            "3. Pass: the opponent on your left draws a card from your hand and keeps it for their team."
        ),
    ),
    (
        N_("Colours"),
        N_(
            "The first card laid on the castle gives its colour to its player's team; the other team takes "
            "the other colour."
        ),
    ),
    (
        N_("The end"),
        N_(
            "After every player's 10 turns (20 with two players), each team takes the piles topped by its "
            "colour and the cards it drew on passes, and scores the cards of the other colour."
        ),
    ),
)

SHEETS = [
    Sheet(
        slug="castle-mat",
        kind="mat",
        game="castle",
        title=N_("Castle mat"),
        description=N_(
            "The castle's 12 positions, A1 to D3, each holding a poker or a bridge card, with its "
            "number of neighbours: lay the castle on it."
        ),
        draw=draw_mat,
        mat=MAT,
    ),
    Sheet(
        slug="castle-reference",
        kind="reference",
        game="castle",
        title=N_("Castle quick reference"),
        description=N_(
            "Two reference cards: the value rule, the three choices of a turn, the end and the points."
        ),
        draw=draw_reference,
    ),
    Sheet(
        slug="castle-score-pad",
        game="castle",
        title=N_("Castle score pad"),
        description=N_(
            "A row per game: each team's colour and its captured cards of the other colour, counted by rank."
        ),
        draw=draw_score_pad,
    ),
]
