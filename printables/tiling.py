"""Pure geometry of mats, in millimetres: where the cards lie, and how a mat larger than
the paper is tiled over several pages (no ReportLab here).

A mat is a grid of slots, each as large as its card plus ``SPARE`` on every side, with an
optional label band above each slot (its name stays readable under the card) and a border
around the grid (seat names). Coordinates are the mat's own: origin at its bottom-left
corner, y up. A mat too large for one page breaks between slots, never through one; every
page that has a neighbour to its right or below carries an overlap strip the neighbour is
laid on, and ticks across each join show where the two pages meet. The mat may lie turned a
quarter on the paper when that takes fewer pages. ``printables.draw.Document.mat`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from printables.layout import Rect, page_rect, printable_rect

SPARE = 1.0  # mm of room around a card in its slot, on every side
HEADER = 21.0  # the band at the top of a mat's page: names, page number, how to join, QR code
FOOTER = 6.0  # the band at the foot: the calibration bar
BAND_GAP = 2.0  # between the header or footer and the mat
OVERLAP = 7.0  # the strip of a page that its neighbour is laid on
TICK = 4.0  # how far a join's ticks reach on each side of the join
EPSILON = 1e-6


@dataclass(frozen=True)
class MatSpec:
    """A grid of slots: how many, their size, the gap between them, the label band above
    each and the border around the grid (left and right ``border_x``, top and bottom ``border_y``)."""

    columns: int
    rows: int
    slot_w: float
    slot_h: float
    gap: float = 0.0
    label: float = 0.0
    border_x: float = 0.0
    border_y: float = 0.0

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"a mat needs at least 1 x 1 slots, not {self.columns} x {self.rows}")
        if self.slot_w <= 0 or self.slot_h <= 0:
            raise ValueError(f"a slot needs a positive size, not {self.slot_w} x {self.slot_h} mm")
        if min(self.gap, self.label, self.border_x, self.border_y) < 0:
            raise ValueError("a mat's gap, label band and border cannot be negative")

    @property
    def width(self) -> float:
        """The mat's width, border included."""
        return 2 * self.border_x + self.columns * self.slot_w + (self.columns - 1) * self.gap

    @property
    def height(self) -> float:
        """The mat's height, border and label bands included."""
        return 2 * self.border_y + self.rows * (self.label + self.slot_h) + (self.rows - 1) * self.gap

    def holds(self, card_w: float, card_h: float) -> bool:
        """True when a card of this size, laid upright, fits a slot with ``SPARE`` on every side."""
        return self.slot_w >= card_w + 2 * SPARE - EPSILON and self.slot_h >= card_h + 2 * SPARE - EPSILON

    def slots(self) -> tuple[Rect, ...]:
        """Every slot in reading order (top row first, left to right)."""
        return tuple(self.slot(row, column) for row in range(self.rows) for column in range(self.columns))

    def slot(self, row: int, column: int) -> Rect:
        """The slot in this row (0 at the top) and column (0 at the left)."""
        x = self.border_x + column * (self.slot_w + self.gap)
        top = self.height - self.border_y - row * (self.label + self.slot_h + self.gap) - self.label
        return Rect(x, top - self.slot_h, self.slot_w, self.slot_h)

    def label_band(self, slot: Rect) -> Rect:
        """The band above a slot for its name."""
        return Rect(slot.x, slot.top, slot.w, self.label)

    def borders(self) -> tuple[tuple[str, int, Rect], ...]:
        """The border beside each column (sides "N" and "S") and each row ("W" and "E"),
        as (side, column or row, rectangle); none where the border is 0 wide."""
        parts = []
        if self.border_y:
            for column in range(self.columns):
                x = self.slot(0, column).x
                parts += [
                    ("N", column, Rect(x, self.height - self.border_y, self.slot_w, self.border_y)),
                    ("S", column, Rect(x, 0.0, self.slot_w, self.border_y)),
                ]
        if self.border_x:
            for row in range(self.rows):
                slot = self.slot(row, 0)
                y, h = slot.y, slot.h + self.label
                parts += [
                    ("W", row, Rect(0.0, y, self.border_x, h)),
                    ("E", row, Rect(self.width - self.border_x, y, self.border_x, h)),
                ]
        return tuple(parts)

    def breaks_x(self) -> tuple[float, ...]:
        """Where the mat may be cut between two columns: the middle of the gap."""
        return tuple(self.slot(0, c).right + self.gap / 2 for c in range(self.columns - 1))

    def breaks_y(self) -> tuple[float, ...]:
        """Where the mat may be cut between two rows: the middle of the gap."""
        return tuple(self.slot(r, 0).y - self.gap / 2 for r in range(self.rows - 1))

    def marks_x(self) -> tuple[float, ...]:
        """The x of the ticks across a horizontal join: the middles of the borders and the
        gaps, or the slots' shared edges where they touch."""
        marks = [self.border_x / 2, self.width - self.border_x / 2] if self.border_x else []
        edges = [self.slot(0, c).x for c in range(self.columns)] + [self.slot(0, self.columns - 1).right]
        marks += list(self.breaks_x()) if self.gap else edges
        return tuple(sorted(marks))

    def marks_y(self) -> tuple[float, ...]:
        """The y of the ticks across a vertical join: the middles of the borders, the label
        bands and the gaps, or the slots' shared edges where they touch."""
        marks = [self.border_y / 2, self.height - self.border_y / 2] if self.border_y else []
        slots = [self.slot(r, 0) for r in range(self.rows)]
        if self.label:
            marks += [slot.top + self.label / 2 for slot in slots]
        marks += list(self.breaks_y()) if self.gap else [slots[0].top, *(slot.y for slot in slots)]
        return tuple(sorted(marks))


@dataclass(frozen=True)
class Tile:
    """One page of a mat: ``core`` is the part of the mat it holds (every slot lies in the core
    of exactly one page), ``window`` the core plus the overlap strips its neighbours are laid
    on, ``offset`` what to add to mat coordinates to draw them in the page's drawing frame."""

    number: int
    row: int
    column: int
    core: Rect
    window: Rect
    offset: tuple[float, float]
    left: int | None  # the page laid under this page's left edge
    above: int | None  # the page laid under this page's top edge
    right: int | None  # the page laid on this page's right strip
    below: int | None  # the page laid on this page's bottom strip

    def place(self, rect: Rect) -> Rect:
        """A rectangle in mat coordinates moved into the page's drawing frame."""
        return Rect(rect.x + self.offset[0], rect.y + self.offset[1], rect.w, rect.h)


@dataclass(frozen=True)
class MatPages:
    """A mat laid out on a paper: its pages, and whether it lies turned a quarter
    (anticlockwise) in ``content``, the part of each page between header and footer."""

    paper: str
    spec: MatSpec
    page: Rect
    header: Rect
    content: Rect
    footer: Rect
    turned: bool
    tiles: tuple[Tile, ...]
    across: int  # pages side by side
    down: int  # pages one above the other

    @property
    def frame(self) -> Rect:
        """The rectangle the tiles are drawn in: the content, or the content turned a quarter."""
        return _frame(self.content, self.turned)


def join_marks(spec: MatSpec, tile: Tile) -> tuple[list[float], list[float]]:
    """The y of the ticks across a page's vertical joins and the x of those across its horizontal
    ones, in the page's drawing frame."""
    dx, dy = tile.offset
    return (
        [y + dy for y in spec.marks_y() if tile.core.y - 1e-6 <= y <= tile.core.top + 1e-6],
        [x + dx for x in spec.marks_x() if tile.core.x - 1e-6 <= x <= tile.core.right + 1e-6],
    )


def clear_stretch(length: float, ticks: list[float]) -> tuple[float, float]:
    """The longest stretch of a strip ``length`` long that none of the join's ``ticks`` (where they
    cross it, along its length) runs through: where the strip's words go."""
    ends = sorted({0.0, length, *(tick for tick in ticks if 0 < tick < length)})
    return max(zip(ends, ends[1:], strict=False), key=lambda stretch: stretch[1] - stretch[0])


def mat_pages(paper: str, spec: MatSpec) -> MatPages:
    """Lay a mat on a paper in as few pages as possible; ValueError if a slot cannot fit a page."""
    page = page_rect(paper)
    safe = printable_rect(paper)
    header = Rect(safe.x, safe.top - HEADER, safe.w, HEADER)
    footer = Rect(safe.x, safe.y, safe.w, FOOTER)
    content = Rect(safe.x, footer.top + BAND_GAP, safe.w, header.y - BAND_GAP - footer.top - BAND_GAP)
    layouts = []
    for turned in (False, True):
        room = _frame(content, turned)
        try:
            columns = _split(spec.width, spec.breaks_x(), room.w)
            rows = _split(spec.height, tuple(spec.height - y for y in spec.breaks_y()), room.h)
        except ValueError:
            continue
        layouts.append((len(columns) * len(rows), turned, columns, rows))
    if not layouts:
        raise ValueError(
            f"a slot of {spec.slot_w:g} x {spec.slot_h:g} mm and its labels do not fit on {paper}"
        )
    _, turned, columns, rows = min(layouts, key=lambda layout: layout[0])
    frame = _frame(content, turned)
    tiles = tuple(
        _tile(spec, frame, columns, rows, r, c) for r in range(len(rows)) for c in range(len(columns))
    )
    return MatPages(paper, spec, page, header, content, footer, turned, tiles, len(columns), len(rows))


def _frame(content: Rect, turned: bool) -> Rect:
    """Where a page's tile is drawn: the content, or, turned a quarter, its own axes (``Document.turned``)."""
    return Rect(0.0, 0.0, content.h, content.w) if turned else content


def _split(length: float, breaks: tuple[float, ...], room: float) -> list[tuple[float, float]]:
    """Cut 0..length at breaks into spans of at most room, each but the last with an overlap
    strip after it: (start, end) of each span's own part, measured from the mat's start edge."""
    spans = []
    start = 0.0
    while length - start > room + EPSILON:
        fitting = [b for b in breaks if b > start + EPSILON and b - start + OVERLAP <= room + EPSILON]
        if not fitting:
            raise ValueError("no break between slots fits the page")
        spans.append((start, max(fitting)))
        start = max(fitting)
    spans.append((start, length))
    return spans


def _tile(
    spec: MatSpec,
    frame: Rect,
    columns: list[tuple[float, float]],
    rows: list[tuple[float, float]],
    r: int,
    c: int,
) -> Tile:
    """The page in row r and column c of the tiling, its window centred in the frame."""
    (x0, x1), (d0, d1) = columns[c], rows[r]  # rows are measured down from the mat's top
    last_c, last_r = c == len(columns) - 1, r == len(rows) - 1
    core = Rect(x0, spec.height - d1, x1 - x0, d1 - d0)
    strip_x, strip_y = (0.0 if last_c else OVERLAP), (0.0 if last_r else OVERLAP)
    window = Rect(core.x, core.y - strip_y, core.w + strip_x, core.h + strip_y)
    offset = (frame.cx - window.cx, frame.cy - window.cy)
    number = r * len(columns) + c + 1
    return Tile(
        number=number,
        row=r,
        column=c,
        core=core,
        window=window,
        offset=offset,
        left=number - 1 if c else None,
        above=number - len(columns) if r else None,
        right=None if last_c else number + 1,
        below=None if last_r else number + len(columns),
    )
