"""Pure page geometry for the printables, in millimetres (no ReportLab here).

Coordinates follow PDF: origin at the bottom-left corner of the page, y going up. A card
sheet is a grid of card slots centred on the page; its back slots are the front slots
mirrored the way the paper turns in a duplex printer. The outer cards' printing runs
``BLEED`` beyond their cut lines, so that a duplex shift of a millimetre or two leaves no
white sliver, and the cut guides sit in the margins outside that bleed. Nothing is printed
nearer the paper's edge than ``MIN_MARGIN``, where printers clip. Every spec is validated when it is made, so a sheet that cannot be printed fails
before anything is drawn. ``printables.draw`` converts to points at the drawing boundary.
"""

from __future__ import annotations

from dataclasses import dataclass

PAPER_SIZES = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3", "tabloid": "Tabloid"}  # as a person reads them
DUPLEX = ("long", "short")
MIN_MARGIN = 8.0  # nothing is printed nearer the paper's edge than this: printers clip there
BLEED = 3.0  # a card's printing runs this far beyond its cut line where no card is next to it
GUIDE_CLEARANCE = 0.5  # a guide stops short of the bleed, so a cut a hair off leaves no mark
MIN_GUIDE = 1.0  # the shortest cut guide that is still a visible mark
LABEL_CLEARANCE = 2.0  # margin text keeps this far from the cut guides
MIN_SPAN = 20.0  # shorter gaps between guides are not worth a label
CALIBRATION_LENGTH = 50.0
CALIBRATION_HEIGHT = 5.0  # the bar and its sentence under it
FRAME_MARGIN = 10.0
QR_SIZE = 26.0  # the QR square of a page frame, quiet zone included
HEADER_HEIGHT = 16.0
FOOTER_HEIGHT = 10.0
GAP = 4.0
MAX_BACK_OFFSET = 10.0  # mm: a printer further off than this has the wrong flip edge or tray, not a shift


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: bottom-left corner (x, y), width w, height h, in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        """The x of the right edge."""
        return self.x + self.w

    @property
    def top(self) -> float:
        """The y of the top edge."""
        return self.y + self.h

    @property
    def cx(self) -> float:
        """The x of the centre."""
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        """The y of the centre."""
        return self.y + self.h / 2

    def inset(self, d: float) -> Rect:
        """This rectangle shrunk by d on every side (grown when d is negative)."""
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def contains(self, other: Rect, tol: float = 1e-9) -> bool:
        """True when other lies inside this rectangle (edges may touch)."""
        return (
            other.x >= self.x - tol
            and other.y >= self.y - tol
            and other.right <= self.right + tol
            and other.top <= self.top + tol
        )

    def overlaps(self, other: Rect, tol: float = 1e-9) -> bool:
        """True when the interiors of the two rectangles intersect (touching is not overlapping)."""
        return (
            self.x < other.right - tol
            and other.x < self.right - tol
            and self.y < other.top - tol
            and other.y < self.top - tol
        )

    def mirrored(self, page: Rect, duplex: str) -> Rect:
        """Where this rectangle lands on the back of the page when the paper turns on its
        long edge (left and right swap) or its short edge (top and bottom swap)."""
        if duplex == "long":
            return Rect(page.x + page.right - self.right, self.y, self.w, self.h)
        if duplex == "short":
            return Rect(self.x, page.y + page.top - self.top, self.w, self.h)
        raise ValueError(f"duplex must be one of {DUPLEX}, not {duplex!r}")


@dataclass(frozen=True)
class Placement:
    """Where drawing in turned or moved coordinates lands on the page: the map (x, y) ->
    (a x + c y + e, b x + d y + f), in mm. Turns are quarter turns, so rectangles stay rectangles."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def moved(self, dx: float, dy: float) -> Placement:
        """This placement, after moving the origin to (dx, dy)."""
        return Placement(self.a, self.b, self.c, self.d, *self.point(dx, dy))

    def turned(self, quarters: int) -> Placement:
        """This placement, after turning ``quarters`` quarters anticlockwise about the origin."""
        cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[quarters % 4]
        return Placement(
            self.a * cos + self.c * sin,
            self.b * cos + self.d * sin,
            -self.a * sin + self.c * cos,
            -self.b * sin + self.d * cos,
            self.e,
            self.f,
        )

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Where the point (x, y) lands on the page."""
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def rect(self, rect: Rect) -> Rect:
        """Where the rectangle lands on the page."""
        (x1, y1), (x2, y2) = self.point(rect.x, rect.y), self.point(rect.right, rect.top)
        return Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


@dataclass(frozen=True)
class Segment:
    """A straight line from (x1, y1) to (x2, y2), in mm."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def bounds(self) -> Rect:
        """The (possibly zero-width) rectangle the segment spans."""
        x, y = min(self.x1, self.x2), min(self.y1, self.y2)
        return Rect(x, y, abs(self.x2 - self.x1), abs(self.y2 - self.y1))


@dataclass(frozen=True)
class CardSpec:
    """The cards of a sheet: their size in mm, how many across and down, the gap between.

    With ``sideways`` the cards lie on their long side (each slot on the page is ``height``
    wide and ``width`` tall), which lets two columns of four poker cards keep clear of the
    paper's edges on both A4 and Letter.
    """

    width: float = 63.0
    height: float = 88.0
    columns: int = 3
    rows: int = 3
    gap: float = 0.0
    sideways: bool = False

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ValueError(f"a card needs a positive size, not {self.width} x {self.height} mm")
        if not (
            isinstance(self.columns, int)
            and isinstance(self.rows, int)
            and self.columns >= 1
            and self.rows >= 1
        ):
            raise ValueError(f"a sheet needs at least 1 x 1 cards, not {self.columns} x {self.rows}")
        if self.gap < 0:
            raise ValueError(f"the gap between cards cannot be negative ({self.gap} mm)")

    @property
    def per_page(self) -> int:
        """How many cards one page holds."""
        return self.columns * self.rows

    @property
    def slot_size(self) -> tuple[float, float]:
        """Width and height of one card as it lies on the page."""
        return (self.height, self.width) if self.sideways else (self.width, self.height)

    @property
    def area_size(self) -> tuple[float, float]:
        """Width and height of the block of cards, gaps included."""
        width, height = self.slot_size
        return (
            self.columns * width + (self.columns - 1) * self.gap,
            self.rows * height + (self.rows - 1) * self.gap,
        )


POKER = CardSpec(columns=2, rows=4, sideways=True)  # eight poker cards a page, lying sideways


@dataclass(frozen=True)
class CardSheet:
    """The geometry of one page of cards, validated: slots, cut guides and margin labels.

    ``fronts`` are in reading order (top row first, left to right), as the cards lie on the
    page (sideways when ``spec.sideways``); ``bleeds[i]`` is where ``fronts[i]`` may print:
    its slot grown by ``BLEED`` on every side that no other card touches. ``header`` and
    ``footer`` are the free stretches of two opposite margins between the cut guides, in
    reading order; when ``vertical_labels`` is true they are the left and right margins
    and their text runs bottom to top.
    """

    paper: str
    spec: CardSpec
    page: Rect
    area: Rect
    fronts: tuple[Rect, ...]
    bleeds: tuple[Rect, ...]
    cuts_x: tuple[float, ...]
    cuts_y: tuple[float, ...]
    guides: tuple[Segment, ...]
    header: tuple[Rect, ...]
    footer: tuple[Rect, ...]
    vertical_labels: bool

    def backs(self, duplex: str = "long") -> tuple[Rect, ...]:
        """The slot of each front's back on the next page: ``backs()[i]`` backs ``fronts[i]``."""
        return tuple(slot.mirrored(self.page, duplex) for slot in self.fronts)

    def back_bleeds(self, duplex: str = "long") -> tuple[Rect, ...]:
        """Where each back may print, its bleed included: ``back_bleeds()[i]`` goes with ``backs()[i]``."""
        return tuple(bleed.mirrored(self.page, duplex) for bleed in self.bleeds)


@dataclass(frozen=True)
class FoldSheet:
    """One page of fold-over cards, for printers without duplex: each card's front and its back side
    by side on one side of the paper, to fold along the line between them (a long edge of the card).

    The cards lie sideways in columns of pairs: a front above its back, then, in the next pair down,
    a back above its front, so that backs meet backs and a cut a hair off shows the same back.
    ``backs[i]`` is ``fronts[i]`` mirrored across ``folds[i]``, the fold's y. Each card bleeds
    ``BLEED`` past its outer edges, never across its fold. The cut lines (``cuts_x``, ``cuts_y``)
    run around the pairs, never along a fold; ``guides`` mark them and ``fold_guides`` mark the
    folds in the margins. ``header``, ``footer`` and ``vertical_labels`` are as ``CardSheet``'s.
    """

    paper: str
    spec: CardSpec
    page: Rect
    area: Rect
    fronts: tuple[Rect, ...]
    backs: tuple[Rect, ...]
    bleeds: tuple[Rect, ...]
    back_bleeds: tuple[Rect, ...]
    folds: tuple[float, ...]
    cuts_x: tuple[float, ...]
    cuts_y: tuple[float, ...]
    guides: tuple[Segment, ...]
    fold_guides: tuple[Segment, ...]
    header: tuple[Rect, ...]
    footer: tuple[Rect, ...]
    vertical_labels: bool


@dataclass(frozen=True)
class PageFrame:
    """The standard frame of a sheet's page: header band, QR square, description, content, footer."""

    page: Rect
    header: Rect
    qr: Rect
    description: Rect
    content: Rect
    footer: Rect


def back_offset(text: str) -> tuple[float, float]:
    """The offset read on the duplex check, "X,Y": the backs X mm right and Y mm down of their fronts as
    seen through the sheet from the front (negative: left, up), rounded to 0.1 mm; ValueError when it
    is not two numbers or either is past ``MAX_BACK_OFFSET``."""
    try:
        x, y = (round(float(part), 1) for part in text.split(","))
    except ValueError:
        raise ValueError(
            f"a back offset is two numbers of mm, right and down, like 1.5,-0.5, not {text!r}"
        ) from None
    if not (abs(x) <= MAX_BACK_OFFSET and abs(y) <= MAX_BACK_OFFSET):
        raise ValueError(f"a back offset is at most {MAX_BACK_OFFSET:g} mm each way, not {text!r}")
    return (x + 0.0, y + 0.0)  # + 0.0: no -0.0 printed


def back_shift(offset: tuple[float, float], duplex: str) -> tuple[float, float]:
    """How far to move a page of backs, in its own coordinates (mm, y up), to cancel ``offset`` (backs
    right and down as seen from the front): turned on the long edge the back's left and right swap,
    on the short edge its top and bottom."""
    right, down = offset
    if duplex == "long":
        return (right, down)
    if duplex == "short":
        return (-right, -down)
    raise ValueError(f"duplex must be one of {DUPLEX}, not {duplex!r}")


def page_rect(paper: str) -> Rect:
    """The whole page of a paper size ("a4" or "letter")."""
    try:
        width, height = PAPER_SIZES[paper]
    except KeyError:
        raise ValueError(f"paper must be one of {tuple(PAPER_SIZES)}, not {paper!r}") from None
    return Rect(0.0, 0.0, width, height)


def printable_rect(paper: str) -> Rect:
    """The part of the page a printer can reach: the page less the minimum margin."""
    return page_rect(paper).inset(MIN_MARGIN)


def card_sheet(paper: str, spec: CardSpec = POKER) -> CardSheet:
    """Lay out one page of cards on a paper, centred; ValueError if it cannot be printed."""
    page = page_rect(paper)
    area = _centred_area(page, spec, paper)
    width, height = spec.slot_size
    cuts_x = _cuts(area.x, width, spec.columns, spec.gap)
    cuts_y = _cuts(area.y, height, spec.rows, spec.gap)
    bands = _margin_bands(page, area)
    fronts = _slots(area, spec)
    vertical = min(bands["left"].w, bands["right"].w) > min(bands["top"].h, bands["bottom"].h)
    header, footer = _label_spans(bands, cuts_x, cuts_y, vertical)
    return CardSheet(
        paper=paper,
        spec=spec,
        page=page,
        area=area,
        fronts=fronts,
        bleeds=tuple(_bleed(slot, fronts) for slot in fronts),
        cuts_x=cuts_x,
        cuts_y=cuts_y,
        guides=_guides(bands, cuts_x, cuts_y),
        header=header,
        footer=footer,
        vertical_labels=vertical,
    )


def fold_sheet(paper: str, spec: CardSpec = POKER) -> FoldSheet:
    """Lay out one page of fold-over cards (``FoldSheet``) of spec's size on a paper, as many as fit:
    the columns ``2 * BLEED`` apart where that costs no card, else touching."""
    page = page_rect(paper)
    width, height = spec.height, spec.width  # sideways: the fold runs along a long edge of the card
    needed = MIN_MARGIN + MIN_GUIDE + GUIDE_CLEARANCE + BLEED
    pairs = int((page.h - 2 * needed) // (2 * height))
    fits = [(int((page.w - 2 * needed + gap) // (width + gap)), gap) for gap in (2 * BLEED, 0.0)]
    columns, gap = max(fits, key=lambda fit: fit[0])  # the first, with gaps, on a tie
    if columns < 1 or pairs < 1:
        raise ValueError(f"a fold-over card of {spec.width:g} x {spec.height:g} mm does not fit on {paper}")
    area = Rect((page.w - columns * width - (columns - 1) * gap) / 2, (page.h - 2 * pairs * height) / 2, 0, 0)
    area = Rect(area.x, area.y, page.w - 2 * area.x, page.h - 2 * area.y)
    fronts, backs, folds = [], [], []
    for pair in range(pairs):
        fold = area.top - (2 * pair + 1) * height
        for column in range(columns):
            x = area.x + column * (width + gap)
            upper, lower = Rect(x, fold, width, height), Rect(x, fold - height, width, height)
            front, back = (upper, lower) if pair % 2 == 0 else (lower, upper)
            fronts.append(front)
            backs.append(back)
            folds.append(fold)
    slots = (*fronts, *backs)
    fold_lines = tuple(sorted({round(fold, 6) for fold in folds}))
    cuts_x = tuple(sorted({round(edge, 6) for slot in fronts for edge in (slot.x, slot.right)}))
    edges = {round(edge, 6) for slot in slots for edge in (slot.y, slot.top)}
    cuts_y = tuple(sorted(edges - set(fold_lines)))
    bands = _margin_bands(page, area)
    vertical = min(bands["left"].w, bands["right"].w) > min(bands["top"].h, bands["bottom"].h)
    header, footer = _label_spans(bands, cuts_x, tuple(sorted(edges)), vertical)
    return FoldSheet(
        paper=paper,
        spec=spec,
        page=page,
        area=area,
        fronts=tuple(fronts),
        backs=tuple(backs),
        bleeds=tuple(_bleed(slot, slots) for slot in fronts),
        back_bleeds=tuple(_bleed(slot, slots) for slot in backs),
        folds=tuple(folds),
        cuts_x=cuts_x,
        cuts_y=cuts_y,
        guides=_guides(bands, cuts_x, cuts_y),
        fold_guides=tuple(
            Segment(band.x, y, band.right, y) for y in fold_lines for band in (bands["left"], bands["right"])
        ),
        header=header,
        footer=footer,
        vertical_labels=vertical,
    )


def grid_cells(rect: Rect, columns: int, rows: int) -> list[list[Rect]]:
    """Split a rectangle into equal cells, ``cells[row][column]``, top row first."""
    if columns < 1 or rows < 1:
        raise ValueError(f"a grid needs at least 1 x 1 cells, not {columns} x {rows}")
    w, h = rect.w / columns, rect.h / rows
    return [[Rect(rect.x + c * w, rect.top - (r + 1) * h, w, h) for c in range(columns)] for r in range(rows)]


def page_frame(paper: str) -> PageFrame:
    """The standard frame of a page: header band left of the QR code, footer for the bar."""
    page = page_rect(paper)
    inner = page.inset(FRAME_MARGIN)
    qr = Rect(inner.right - QR_SIZE, inner.top - QR_SIZE, QR_SIZE, QR_SIZE)
    header = Rect(inner.x, inner.top - HEADER_HEIGHT, inner.w - QR_SIZE - GAP, HEADER_HEIGHT)
    description = Rect(inner.x, qr.y, header.w, header.y - qr.y)
    footer = Rect(inner.x, inner.y, inner.w, FOOTER_HEIGHT)
    content = Rect(inner.x, footer.top + GAP, inner.w, qr.y - GAP - (footer.top + GAP))
    return PageFrame(page, header, qr, description, content, footer)


def _centred_area(page: Rect, spec: CardSpec, paper: str) -> Rect:
    width, height = spec.area_size
    area = Rect((page.w - width) / 2, (page.h - height) / 2, width, height)
    needed = MIN_MARGIN + MIN_GUIDE + GUIDE_CLEARANCE + BLEED
    if min(area.x, area.y) < needed:
        raise ValueError(
            f"{spec.columns} x {spec.rows} cards of {spec.width:g} x {spec.height:g} mm do not fit on "
            f"{paper}: they need {width:g} x {height:g} mm and margins of at least {needed:g} mm"
        )
    return area


def _bleed(slot: Rect, slots: tuple[Rect, ...]) -> Rect:
    """The slot grown by BLEED on each side where no other slot touches it."""

    def touches(dx: float, dy: float) -> bool:
        probe = Rect(slot.cx + dx * (slot.w / 2 + BLEED / 2), slot.cy + dy * (slot.h / 2 + BLEED / 2), 0, 0)
        return any(other is not slot and other.inset(-1e-6).contains(probe) for other in slots)

    left, right = (0.0 if touches(d, 0) else BLEED for d in (-1, 1))
    bottom, top = (0.0 if touches(0, d) else BLEED for d in (-1, 1))
    return Rect(slot.x - left, slot.y - bottom, slot.w + left + right, slot.h + bottom + top)


def _cuts(start: float, size: float, count: int, gap: float) -> tuple[float, ...]:
    edges = set()
    for i in range(count):
        low = start + i * (size + gap)
        edges.update((round(low, 6), round(low + size, 6)))
    return tuple(sorted(edges))


def _slots(area: Rect, spec: CardSpec) -> tuple[Rect, ...]:
    width, height = spec.slot_size
    return tuple(
        Rect(
            area.x + c * (width + spec.gap),
            area.top - (r + 1) * height - r * spec.gap,
            width,
            height,
        )
        for r in range(spec.rows)
        for c in range(spec.columns)
    )


def _margin_bands(page: Rect, area: Rect) -> dict[str, Rect]:
    """The printable part of each margin, kept clear of the cards' bleed by GUIDE_CLEARANCE."""
    inner = page.inset(MIN_MARGIN)
    keep_out = BLEED + GUIDE_CLEARANCE
    low_y, high_y = area.y - keep_out, area.top + keep_out
    low_x, high_x = area.x - keep_out, area.right + keep_out
    return {
        "top": Rect(inner.x, high_y, inner.w, inner.top - high_y),
        "bottom": Rect(inner.x, inner.y, inner.w, low_y - inner.y),
        "left": Rect(inner.x, inner.y, low_x - inner.x, inner.h),
        "right": Rect(high_x, inner.y, inner.right - high_x, inner.h),
    }


def _guides(
    bands: dict[str, Rect], cuts_x: tuple[float, ...], cuts_y: tuple[float, ...]
) -> tuple[Segment, ...]:
    """A guide at both ends of every cut line, so one survives each first cut."""
    top, bottom, left, right = bands["top"], bands["bottom"], bands["left"], bands["right"]
    vertical = [Segment(x, band.y, x, band.top) for x in cuts_x for band in (bottom, top)]
    horizontal = [Segment(band.x, y, band.right, y) for y in cuts_y for band in (left, right)]
    return tuple(vertical + horizontal)


def _label_spans(
    bands: dict[str, Rect], cuts_x: tuple[float, ...], cuts_y: tuple[float, ...], vertical: bool
) -> tuple[tuple[Rect, ...], tuple[Rect, ...]]:
    if vertical:
        header = _spans_along_y(bands["left"], cuts_y)
        footer = _spans_along_y(bands["right"], cuts_y)
    else:
        header = _spans_along_x(bands["top"], cuts_x)
        footer = _spans_along_x(bands["bottom"], cuts_x)
    depth = min(span.w if vertical else span.h for span in (*header, *footer)) if header and footer else 0
    longest = max((span.h if vertical else span.w for span in footer), default=0)
    if depth < CALIBRATION_HEIGHT or longest < CALIBRATION_LENGTH:
        raise ValueError("the margins leave no room for the sheet's name and the 50 mm calibration bar")
    return header, footer


def _spans_along_x(band: Rect, cuts: tuple[float, ...]) -> tuple[Rect, ...]:
    edges = [band.x, *cuts, band.right]
    spans = [(a + LABEL_CLEARANCE, b - LABEL_CLEARANCE) for a, b in zip(edges, edges[1:], strict=False)]
    return tuple(Rect(a, band.y, b - a, band.h) for a, b in spans if b - a >= MIN_SPAN)


def _spans_along_y(band: Rect, cuts: tuple[float, ...]) -> tuple[Rect, ...]:
    edges = [band.y, *cuts, band.top]
    spans = [(a + LABEL_CLEARANCE, b - LABEL_CLEARANCE) for a, b in zip(edges, edges[1:], strict=False)]
    return tuple(Rect(band.x, a, band.w, b - a) for a, b in spans if b - a >= MIN_SPAN)
