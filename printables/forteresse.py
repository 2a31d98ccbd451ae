"""Printables for Forteresse: the player sheet (both grids, the firing cells, the score box)
and a score pad for several games.

The grid's names and the legal directions come from ``companion.rules.forteresse``, so the
paper and the phones cannot disagree about which shots exist.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import forteresse
from companion.rules.sentences import N_, Message
from printables import Sheet
from printables.draw import MUTED, SHADE, Document
from printables.layout import Rect, grid_cells

LABEL = 4.5  # mm: the band of column letters and row numbers around a grid
TITLE = 9.0  # mm: a grid's or a box's title line
GAP = 6.0
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
GAMES_PER_PAD = 7
ROUNDS = (1, 2)
FIRING_ROWS = (len(forteresse.FIRING_CELLS) + 1) // 2 + 1  # two columns of cells under a head row
MIN_FIRING_ROW = 6.5  # mm: room to write a weapon and a direction by hand
FOOT = 27.0  # mm: the legend, or the score box, under the firing cells
LEGEND = N_(
    "Grid 1: draw 10 walls (X) and 5 besieged (O) in the fortress, each on its own cell. "
    "Grid 2: note what your shots find. A shot: a firing cell not used this round, a weapon, a direction "
    "into the fortress. Only the first wall or besieged on the path counts. Cannon on a wall: "
    "“wall destroyed at …”; a besieged: “besieged killed at …”; rifle on a wall: “wall”; nothing: “miss”. "
    "You score 7 per besieged killed, 3 per cannon and 1 per rifle your opponent fired. Two rounds."
)


def draw_player_sheet(doc: Document) -> None:
    """A page per round, both rounds of a game: the two 7x7 grids of the round, its 24 firing cells
    with what each shot found, then the directions' key and the legend (round 1) or the two-round
    score box (round 2)."""
    for number in ROUNDS:
        doc.new_page()
        content = doc.frame()
        parts = player_sheet_parts(content)
        titles = (
            doc.say(Message(N_("Round %(round)s · grid 1 · my fortress"), round=number)),
            doc.say(Message(N_("Round %(round)s · grid 2 · my attacks"), round=number)),
        )
        for rect, title in zip(parts.grids, titles, strict=True):
            draw_grid(doc, rect, title)
        draw_firing_cells(doc, parts.firing, number)
        if number == ROUNDS[0]:
            y = doc.text_block(parts.foot, doc.say(forteresse.COMPASS_KEY), size=7.5, color=MUTED)
            doc.text_block(
                Rect(parts.foot.x, parts.foot.y, parts.foot.w, y - 1 - parts.foot.y),
                doc.say(LEGEND),
                size=7.5,
            )
        else:
            draw_score_box(doc, parts.foot)


@dataclass(frozen=True)
class PlayerSheetParts:
    """Where the parts of a player sheet's page go, in mm: the two grids (the squares themselves),
    the firing-cell table (title included) and the foot (legend or score box)."""

    grids: tuple[Rect, Rect]
    firing: Rect
    foot: Rect

    @property
    def firing_row(self) -> float:
        """The height of one row of the firing-cell table."""
        return (self.firing.h - TITLE) / FIRING_ROWS


def player_sheet_parts(content: Rect) -> PlayerSheetParts:
    """Share a page's content between the grids and the firing cells, rows at least ``MIN_FIRING_ROW`` tall."""
    room = content.h - FOOT - TITLE - TITLE - 2 * GAP
    grid_w = min((content.w - GAP) / 2, room - FIRING_ROWS * MIN_FIRING_ROW)
    row = (room - grid_w) / FIRING_ROWS
    grid_y = content.top - TITLE - grid_w
    grids = (Rect(content.x, grid_y, grid_w, grid_w), Rect(content.right - grid_w, grid_y, grid_w, grid_w))
    firing_h = TITLE + FIRING_ROWS * row
    firing = Rect(content.x, grid_y - GAP - firing_h, content.w, firing_h)
    return PlayerSheetParts(grids, firing, Rect(content.x, content.y, content.w, FOOT))


def draw_grid(doc: Document, rect: Rect, title: str) -> None:
    """One 7x7 grid indexed A-G and 1-7, firing cells shaded, the fortress outlined; rect is the grid itself."""
    doc.label(Rect(rect.x, rect.top + 3, rect.w, TITLE - 3), title, size=10, bold=True)
    inner = Rect(rect.x + LABEL, rect.y, rect.w - LABEL, rect.h - LABEL)
    cell = inner.w / 7
    inner = Rect(inner.x, inner.top - 7 * cell, inner.w, 7 * cell)
    for row in range(7):
        for column in range(7):
            if row in (0, 6) or column in (0, 6):
                doc.background(Rect(inner.x + column * cell, inner.top - (row + 1) * cell, cell, cell), SHADE)
    doc.grid(inner, 7, 7, width=0.3)
    doc.box(Rect(inner.x + cell, inner.y + cell, 5 * cell, 5 * cell), width=1.4)
    for i, column in enumerate(forteresse.COLUMNS):
        doc.label(Rect(inner.x + i * cell, inner.top, cell, LABEL), column, size=8, bold=True, align="centre")
        doc.label(
            Rect(rect.x, inner.top - (i + 1) * cell, LABEL, cell),
            str(i + 1),
            size=8,
            bold=True,
            align="centre",
        )


def draw_firing_cells(doc: Document, rect: Rect, number: int) -> None:
    """The 24 firing cells of one round in two columns: legal directions, the shot, what it found."""
    doc.label(
        Rect(rect.x, rect.top - TITLE + 2, rect.w, TITLE - 2),
        doc.say(
            Message(
                N_("Round %(round)s: my firing cells, each used once (weapon C or R, direction)"),
                round=number,
            )
        ),
        size=10,
        bold=True,
    )
    body = Rect(rect.x, rect.y, rect.w, rect.h - TITLE)
    cells = forteresse.FIRING_CELLS
    half = (len(cells) + 1) // 2
    column_w = (body.w - GAP) / 2
    for part in range(2):
        block = Rect(body.x + part * (column_w + GAP), body.y, column_w, body.h)
        _firing_column(doc, block, cells[part * half : (part + 1) * half])


def draw_score_box(doc: Document, rect: Rect) -> None:
    """Two rounds of kills, cannons, rifles and points for me and my opponent, and the total. Each
    round's name stands in the title line over its four columns, a rule under it marking their
    span, so that no head is squeezed into one column and the rows keep a pencil's height."""
    box = Rect(rect.x, rect.y, rect.w, rect.h - TITLE)
    parts = [doc.say(part) for part in (N_("kills"), N_("cannons"), N_("rifles"), N_("points"))]
    heads = ["", *parts, *parts, doc.say(N_("Total"))]
    rows = grid_cells(box, len(heads), 3)  # ruled below, over the heads' background
    column_w = box.w / len(heads)
    doc.label(Rect(rect.x, box.top + 1, 2 * column_w, TITLE - 2), doc.say(N_("Points")), size=10, bold=True)
    for number in (1, 2):
        span = Rect(
            box.x + (1 + (number - 1) * len(parts)) * column_w, box.top + 1, len(parts) * column_w, TITLE - 2
        )
        doc.label(
            span.inset(1),
            doc.say(Message(N_("Round %(round)s"), round=number)),
            size=9,
            bold=True,
            align="centre",
        )
        doc.line(span.x + 1, span.y + 0.6, span.right - 1, span.y + 0.6, width=0.6)
    doc.background(Rect(box.x, rows[0][0].y, box.w, rows[0][0].h), SHADE)
    doc.grid(box, len(heads), 3, width=0.3)
    for cell, head in zip(rows[0], heads, strict=True):
        doc.label(cell.inset(0.8), head, size=7, bold=True, align="centre")
    doc.label(rows[1][0].inset(1), doc.say(N_("Me")), size=8, bold=True)
    doc.label(rows[2][0].inset(1), doc.say(N_("Opponent")), size=8, bold=True)
    doc.box(box, width=0.6)


def draw_score_pad(doc: Document) -> None:
    """A page of games: per game, each player's kills, cannons, rifles and points in both rounds."""
    content = doc.frame()
    heads = [
        doc.say(head)
        for head in (
            N_("Game"),
            N_("Player"),
            N_("R1 kills"),
            N_("cannons"),
            N_("rifles"),
            N_("points"),
            N_("R2 kills"),
            N_("cannons"),
            N_("rifles"),
            N_("points"),
            N_("Total"),
        )
    ]
    weights = [1.0, 2.4] + [1.0] * 9
    unit = content.w / sum(weights)
    lefts = [content.x + unit * sum(weights[:i]) for i in range(len(weights))]
    rows = 1 + GAMES_PER_PAD * 2
    row_h = min(content.h / rows, 14.0)
    table = Rect(content.x, content.top - rows * row_h, content.w, rows * row_h)
    doc.background(Rect(table.x, table.top - row_h, table.w, row_h), SHADE)
    for i, head in enumerate(heads):
        width = unit * weights[i]
        doc.label(
            Rect(lefts[i] + 0.8, table.top - row_h, width - 1.6, row_h),
            head,
            size=7,
            bold=True,
            align="centre",
        )
    for row in range(rows + 1):
        y = table.top - row * row_h
        heavy = row in (0, 1, rows) or (row - 1) % 2 == 0
        doc.line(table.x if heavy else lefts[1], y, table.right, y, width=0.6 if heavy else 0.25)
    for i, x in enumerate([*lefts, table.right]):
        doc.line(x, table.y, x, table.top, width=0.6 if i in (0, 2, 6, 10, 11) else 0.25)
    for game in range(GAMES_PER_PAD):
        y = table.top - (1 + 2 * game) * row_h
        doc.label(
            Rect(lefts[0], y - 2 * row_h, unit, 2 * row_h),
            str(game + 1),
            size=10,
            align="centre",
            color=MUTED,
        )
    doc.text_block(
        Rect(content.x, table.y - 14, content.w, 12),
        doc.say(
            N_(
                "Each round: 7 points per besieged you killed, 3 per cannon and 1 per rifle your opponent "
                "fired. Two rounds; the higher total wins, equal totals are a draw."
            )
        ),
        size=7.5,
        color=MUTED,
    )


def _firing_column(doc: Document, block: Rect, cells) -> None:
    row_h = block.h / (len(cells) + 1)
    widths = (0.14, 0.26, 0.28, 0.32)
    heads = [doc.say(head) for head in (N_("Cell"), N_("Ways in"), N_("Shot"), N_("Found"))]
    xs = [block.x + block.w * sum(widths[:i]) for i in range(len(widths))]
    doc.background(Rect(block.x, block.top - row_h, block.w, row_h), SHADE)
    for x, w, head in zip(xs, widths, heads, strict=True):
        doc.label(Rect(x + 1, block.top - row_h, block.w * w - 2, row_h), head, size=7, bold=True)
    for i, cell in enumerate(cells, start=1):
        y = block.top - (i + 1) * row_h
        doc.label(Rect(xs[0] + 1, y, block.w * widths[0] - 2, row_h), cell, size=8, bold=True)
        ways = " ".join(f"{ARROWS[d]}{d}" for d in forteresse.legal_directions(cell))
        doc.label(Rect(xs[1] + 1, y, block.w * widths[1] - 2, row_h), ways, size=7, color=MUTED)
    doc.grid(block, 1, len(cells) + 1, width=0.25)
    for x in xs[1:]:
        doc.line(x, block.y, x, block.top, width=0.25)
    doc.box(block, width=0.5)


SHEETS = [
    Sheet(
        slug="forteresse-player-sheet",
        game="forteresse",
        title=N_("Player sheet"),
        description=N_(
            "Both rounds of a game, a page each: your fortress and attack grids, the 24 firing cells "
            "with each shot and what it found, the score box. One sheet, both sides, per player per game."
        ),
        draw=draw_player_sheet,
        kind="two-sided pad",
    ),
    Sheet(
        slug="forteresse-score-pad",
        game="forteresse",
        title=N_("Score pad"),
        description=N_("Seven games of two rounds: each player's kills, cannons, rifles and points."),
        draw=draw_score_pad,
    ),
]
