"""Drawing primitives for the printables: a ReportLab canvas behind a millimetre interface.

A ``Document`` is one PDF being drawn for one ``Sheet`` with the options of the build
(paper, base URL, ink saver, duplex). Every length it takes is in millimetres, origin at the
bottom-left corner of the page, y going up; font sizes are in points, as type is measured.
Millimetres become points here and nowhere else. The canvas is made with ``invariant=1``
so that the same sheet and options always give the same bytes, and every PDF asks the
print dialog for actual size (``/PrintScaling /None``); card sheets ask for the duplex edge.

Game modules call the primitives (``text``, ``label``, ``text_block``, ``line``, ``box``,
``background``, ``polygon``, ``grid``, ``qr``, ``calibration_bar``, ``back_ground``), the
standard page ``frame``, the card-sheet engine ``card_sheet`` and the mat engine ``mat``.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from companion.i18n import say
from companion.rules.sentences import N_, NP_, Message
from printables import fonts, layout, tiling
from printables.layout import POKER, CardSheet, CardSpec, Rect
from printables.tiling import MatSpec

if TYPE_CHECKING:
    from printables import Sheet

INK = "#1b1b1b"
MUTED = "#666666"
PAPER = "#ffffff"
SLATE = "#2f3e46"  # header bands
BRICK = "#7b2d26"  # card backs
STONE = "#e3d6bb"  # light stonework on dark backs
SHADE = "#e6e6e6"  # light fills, e.g. a score pad's name row
HAIRLINE = 0.2
LIGHT_TINT = 0.12  # a light card back's ground: this much of its colour on white
LATTICE_TINT = 0.4  # the lines of its lattice
LIGHT_FILL = 0.45  # the filled shapes of its emblem, outlined in the colour itself
RICH_LATTICE_TINT = 0.75  # the lines of a rich back's lattice, its colour lightened
LATTICE = 6.0  # mm between the lines of a card back's lattice
DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
DUPLEX_CHECK = 40.0  # mm: the square of the duplex check on a card sheet's first page
SCALE_REACH = 6.0  # mm each way on the duplex check's scales, in half millimetres
DUPLEX_CHECK_RISE = 36.0  # mm above the content's foot, so that turned on the short edge it misses the header
QR_MIN_MODULE = 0.5  # mm: smaller modules stop scanning reliably on a phone
CALIBRATION_SENTENCE = N_("This bar measures 50 mm: print at 100 %.")
CUT_SENTENCES = {  # how a mat's page joins the page before it, by the edge of this page that is cut
    "left": N_(
        "Cut this page along the solid line on the left, lay it on the grey strip of page %(page)s so "
        "that the ticks meet, and tape."
    ),
    "top": N_(
        "Cut this page along the solid line at the top, lay it on the grey strip of page %(page)s so "
        "that the ticks meet, and tape."
    ),
    "bottom": N_(
        "Cut this page along the solid line at the bottom, lay it on the grey strip of page %(page)s "
        "so that the ticks meet, and tape."
    ),
}
DOUBLE_SIDED = {  # a card sheet's margin note, by the edge the paper turns on
    "long": N_("Double-sided, flip on long edge"),
    "short": N_("Double-sided, flip on short edge"),
}
PRINT_TWO_SIDED = {
    "long": N_("Print at 100 %, double-sided, flip on long edge."),
    "short": N_("Print at 100 %, double-sided, flip on short edge."),
}
# The back offset in words, by the way it goes across (right, left) and along (down, up): one
# whole sentence each, its numbers never negative.
BACK_OFFSET = {
    (True, True): N_(
        "Back offset: the backs read %(across)s mm right and %(along)s mm down on the duplex check; every "
        "page of backs is moved to cancel it."
    ),
    (True, False): N_(
        "Back offset: the backs read %(across)s mm right and %(along)s mm up on the duplex check; every "
        "page of backs is moved to cancel it."
    ),
    (False, True): N_(
        "Back offset: the backs read %(across)s mm left and %(along)s mm down on the duplex check; every "
        "page of backs is moved to cancel it."
    ),
    (False, False): N_(
        "Back offset: the backs read %(across)s mm left and %(along)s mm up on the duplex check; every "
        "page of backs is moved to cancel it."
    ),
}
OFFSET_PAST_BLEED = N_(
    "Warning: this back offset is more than the 3 mm the bleed absorbs. Check the flip edge and the paper "
    "guides of your printer, then print the duplex check again with this offset: its crosses must meet."
)
CAP_HEIGHT = 0.73  # DejaVu Sans capitals, as a fraction of the font size
PT = 25.4 / 72  # millimetres in a point
MIN_TEXT = 7.0  # points: no type is set smaller

SAFE_AREA = 3.0  # mm inside a card's cut line: its text keeps inside, where a cut a little off spares it
BOX_TOLERANCE = 0.05  # mm a text run may cross its box by: rounding, not overflow

CardDrawer = Callable[["Document", Rect], None]
SlotDrawer = Callable[["Document", int, Rect], None]
BorderDrawer = Callable[["Document", str, int, Rect], None]


@dataclass(frozen=True)
class Overflow:
    """A text run that crosses a box it was drawn in (``Document(check_text=True)``): the page it is
    on, its words, where its ink lies and the box, both in page millimetres."""

    page: int
    text: str
    extent: Rect
    box: Rect


@dataclass(frozen=True)
class BackInk:
    """The colours a card back draws its emblem in, over the ground ``back_ground`` painted:
    ``line`` for strokes and text, ``fill`` for filled shapes (None: outlines only),
    ``ground`` for openings cut into a filled shape."""

    line: str
    fill: str | None
    ground: str


def tint(colour: str, share: float) -> str:
    """colour mixed with white paper: ``share`` of the colour (0 gives white, 1 the colour)."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - share * (255 - c)):02x}" for c in rgb)


class Document:
    """One PDF being drawn for a sheet: the build's options and primitives in millimetres."""

    def __init__(
        self,
        out: BinaryIO,
        sheet: Sheet,
        *,
        paper: str = "a4",
        base_url: str = "http://localhost:5000",
        ink_saver: bool = False,
        duplex: str = "long",
        rich_backs: bool = False,
        lang: str = "en",
        back_offset: tuple[float, float] = (0.0, 0.0),
        fold: bool = False,
        check_text: bool = False,
    ) -> None:
        if duplex not in layout.DUPLEX:
            raise ValueError(f"duplex must be one of {layout.DUPLEX}, not {duplex!r}")
        layout.back_offset(",".join(str(d) for d in back_offset))  # refused past MAX_BACK_OFFSET
        self.page = layout.page_rect(paper)
        self.sheet, self.paper, self.duplex = sheet, paper, duplex
        self.back_offset, self.fold = back_offset, fold
        self._options = {  # to draw another sheet alike (``pages_of``), unchecked
            "paper": paper,
            "base_url": base_url,
            "ink_saver": ink_saver,
            "duplex": duplex,
            "rich_backs": rich_backs,
            "lang": lang,
            "back_offset": back_offset,
            "fold": fold,
        }
        self._in_kit = False
        # The text-in-box check: each run is measured against every box it is drawn in, in page mm.
        self.check_text, self.overflows = check_text, []
        self._placement, self._boxes = layout.Placement(), []
        self.base_url, self.ink_saver, self.rich_backs = base_url.rstrip("/"), ink_saver, rich_backs
        self.lang = lang
        self.pages = 0
        self._blank = True
        fonts.register()
        self._canvas = canvas.Canvas(
            out,
            pagesize=(self.page.w * mm, self.page.h * mm),
            invariant=1,
            pageCompression=1,
            initialFontName=fonts.REGULAR,  # else every page references an unembedded Helvetica
            pdfVersion=(1, 7),  # the version that defines /Duplex
        )
        self._canvas.setViewerPreference("PrintScaling", "None")
        if sheet.advice.two_sided and not fold:
            self._canvas.setViewerPreference("Duplex", DUPLEX_NAMES[duplex])
        self._canvas.setTitle(self.say(sheet.title))
        self._canvas.setSubject(self.say(sheet.description))
        self._canvas.setAuthor("Castellan")
        self._canvas.setCreator("Castellan printables")

    def say(self, sentence: str | Message) -> str:
        """A sentence marked with ``N_`` (or a ``Message``) in the sheet's language (docs/translating.md)."""
        return say(sentence, self.lang)

    @property
    def game_name(self) -> str:
        """The game's name as printed: the sheet's ``game_name``, else its slug capitalised ("zamek" -> "Zamek")."""
        return self.sheet.game_name or self.sheet.game.replace("-", " ").title()

    @property
    def game_url(self) -> str:
        """The game's page in Castellan (the home page for general sheets)."""
        return (
            f"{self.base_url}/" if self.sheet.game == "castellan" else f"{self.base_url}/{self.sheet.game}/"
        )

    def new_page(self) -> None:
        """Start the next page (nothing happens while the current page is still blank)."""
        if not self._blank:
            self._canvas.showPage()
            self.pages += 1
            self._blank = True

    def include(self, sheet: Sheet) -> None:
        """Draw another sheet into this document from a new page, with its own headers and
        advice, as a kit does; the PDF asks for no duplex edge, since a kit's sheets differ."""
        outer, self.sheet, self._in_kit = self.sheet, sheet, True
        try:
            self.new_page()
            sheet.draw(self)
        finally:
            self.sheet, self._in_kit = outer, False

    def pages_of(self, sheet: Sheet) -> int:
        """How many pages ``sheet`` takes with this document's options (drawn aside to count them)."""
        scratch = Document(io.BytesIO(), sheet, **self._options)
        sheet.draw(scratch)
        scratch.finish()
        return scratch.pages

    def finish(self) -> None:
        """End the last page and write the PDF."""
        if not self._blank or self.pages == 0:
            self._canvas.showPage()
            self.pages += 1
        self._canvas.save()

    # Text

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        size: float = 9,
        bold: bool = False,
        align: str = "left",
        color: str = INK,
    ) -> None:
        """Draw one line of text with its baseline at y; x is its left, centre or right end.

        Type is never set under ``MIN_TEXT`` points, the smallest a player reads easily on paper.
        """
        size = max(size, MIN_TEXT)
        if self.check_text:
            self._check(x, y, s, size, bold, align)
        c = self._pen()
        c.setFont(fonts.font_name(bold), size)
        c.setFillColor(HexColor(color))
        draw = {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[align]
        draw(x * mm, y * mm, s)

    @contextmanager
    def within(self, rect: Rect) -> Iterator[Rect]:
        """Text drawn inside the block belongs inside rect: with ``check_text``, a run crossing it is
        recorded in ``overflows``."""
        if not self.check_text:
            yield rect
            return
        self._boxes.append(self._placement.rect(rect))
        try:
            yield rect
        finally:
            self._boxes.pop()

    def _check(self, x: float, y: float, s: str, size: float, bold: bool, align: str) -> None:
        """Record the run if its ink (its width, baseline to capital height) crosses a box it is in."""
        width = self.text_width(s, size=size, bold=bold)
        left = {"left": x, "centre": x - width / 2, "right": x - width}[align]
        extent = self._placement.rect(Rect(left, y, width, CAP_HEIGHT * size * PT))
        for box in self._boxes:
            if not box.contains(extent, tol=BOX_TOLERANCE):
                self.overflows.append(Overflow(self.pages + 1, s, extent, box))
                return

    def text_width(self, s: str, *, size: float = 9, bold: bool = False) -> float:
        """The width of a line of text, in mm."""
        return stringWidth(s, fonts.font_name(bold), size) * PT

    def label(
        self,
        rect: Rect,
        s: str,
        *,
        size: float = 9,
        bold: bool = False,
        align: str = "left",
        color: str = INK,
    ) -> None:
        """One line of text centred vertically in rect, shrunk if need be to fit its width, but
        never under ``MIN_TEXT``: text that does not fit then wraps onto lines centred on rect."""
        if not self.check_text:  # the usual build: no measuring, no context to enter
            self._label(rect, s, size=size, bold=bold, align=align, color=color)
            return
        with self.within(rect):
            self._label(rect, s, size=size, bold=bold, align=align, color=color)

    def _label(self, rect: Rect, s: str, *, size: float, bold: bool, align: str, color: str) -> None:
        size = max(size, MIN_TEXT)
        width = self.text_width(s, size=size, bold=bold)
        if width > rect.w:
            size = max(MIN_TEXT, size * rect.w / width)
        if self.text_width(s, size=size, bold=bold) > rect.w * 1.001:
            lines = len(simpleSplit(s, fonts.font_name(bold), size, rect.w * mm))
            height = lines * size * 1.2 * PT
            self.text_block(
                Rect(rect.x, rect.cy - height / 2, rect.w, height),
                s,
                size=size,
                bold=bold,
                color=color,
                leading=1.2,
            )
            return
        x = {"left": rect.x, "centre": rect.cx, "right": rect.right}[align]
        baseline = rect.cy - CAP_HEIGHT * size * PT / 2
        self.text(x, baseline, s, size=size, bold=bold, align=align, color=color)

    def text_block(
        self,
        rect: Rect,
        s: str,
        *,
        size: float = 9,
        bold: bool = False,
        color: str = INK,
        leading: float = 1.3,
    ) -> float:
        """Wrap text into rect from its top; returns the y just below the last line."""
        if not self.check_text:  # the usual build: no measuring, no context to enter
            return self._text_block(rect, s, size=size, bold=bold, color=color, leading=leading)
        with self.within(rect):
            return self._text_block(rect, s, size=size, bold=bold, color=color, leading=leading)

    def _fitted_block(self, rect: Rect, s: str, *, size: float, color: str = INK) -> float:
        """``text_block`` set smaller, as far as ``MIN_TEXT``, until its lines fit rect's height
        (a longer translation of a sheet's description)."""
        while size > MIN_TEXT:
            lines = len(simpleSplit(s, fonts.font_name(False), size, rect.w * mm))
            if lines * size * 1.3 * PT <= rect.h:
                break
            size = max(MIN_TEXT, size - 0.25)
        return self.text_block(rect, s, size=size, color=color)

    def _text_block(
        self, rect: Rect, s: str, *, size: float, bold: bool, color: str, leading: float
    ) -> float:
        size = max(size, MIN_TEXT)
        step = size * leading * PT
        y = rect.top
        for line in simpleSplit(s, fonts.font_name(bold), size, rect.w * mm):
            y -= step
            self.text(
                rect.x, y + (step - CAP_HEIGHT * size * PT) / 2, line, size=size, bold=bold, color=color
            )
        return y

    def headed_paragraphs(
        self,
        columns: Sequence[tuple[Rect, Sequence[tuple[str, str]]]],
        *,
        head: float,
        body: float,
        leading: float = 1.3,
        gap: float = 1.2,
    ) -> float:
        """Paragraphs under bold heads: each column's (head, text) pairs flowed down its rect from
        the top, ``gap`` mm apart, at ``head`` and ``body`` points. Where a column would run past
        its rect's bottom (a longer translation), every column is set smaller alike, as far as
        ``MIN_TEXT`` allows. Returns the lowest y the text reached."""

        def lines_height(s: str, width: float, size: float, bold: bool, spacing: float) -> float:
            size = max(size, MIN_TEXT)
            return len(simpleSplit(s, fonts.font_name(bold), size, width * mm)) * size * spacing * PT

        def tallest(scale: float) -> float:
            return max(
                sum(
                    lines_height(title, rect.w, head * scale, True, 1.3)
                    + lines_height(text, rect.w, body * scale, False, leading)
                    + gap
                    for title, text in paragraphs
                )
                - gap
                - rect.h
                for rect, paragraphs in columns
            )

        scale = 1.0
        while tallest(scale) > 0 and body * scale > MIN_TEXT:
            scale -= 0.02
        lowest = min(rect.top for rect, _paragraphs in columns)
        for rect, paragraphs in columns:
            y = rect.top
            with self.within(rect):
                for title, text in paragraphs:
                    y = self.text_block(Rect(rect.x, y - 40, rect.w, 40), title, size=head * scale, bold=True)
                    y = self.text_block(
                        Rect(rect.x, y - 60, rect.w, 60), text, size=body * scale, leading=leading
                    )
                    lowest = min(lowest, y)
                    y -= gap
        return lowest

    # Shapes

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        width: float = HAIRLINE,
        color: str = INK,
        dash: Sequence[float] | None = None,
    ) -> None:
        """A straight line; dash is a pattern of on/off lengths in mm."""
        c = self._pen()
        c.saveState()
        self._stroke_style(width, color)
        if dash:
            c.setDash([d * mm for d in dash])
        c.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
        c.restoreState()

    def box(
        self,
        rect: Rect,
        *,
        stroke: str | None = INK,
        fill: str | None = None,
        width: float = HAIRLINE,
        radius: float = 0,
    ) -> None:
        """A rectangle, outlined and/or filled, with optionally rounded corners."""
        c = self._pen()
        c.saveState()
        self._stroke_style(width, stroke or INK)
        if fill:
            c.setFillColor(HexColor(fill))
        args = (rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm)
        if radius:
            c.roundRect(*args, radius * mm, stroke=int(bool(stroke)), fill=int(bool(fill)))
        else:
            c.rect(*args, stroke=int(bool(stroke)), fill=int(bool(fill)))
        c.restoreState()

    def background(self, rect: Rect, color: str, *, radius: float = 0) -> None:
        """A filled background, or with the ink saver only its outline."""
        if self.ink_saver:
            self.box(rect, stroke=INK, radius=radius)
        else:
            self.box(rect, stroke=None, fill=color, radius=radius)

    def back_ground(self, slot: Rect, colour: str) -> BackInk:
        """Paint a card back's ground into slot and its bleed; returns the colours of its emblem.

        By default a light ground: a pale tint of colour with a fine lattice, and the emblem
        in a lighter tint outlined in colour; with ``rich_backs`` the colour itself, a lighter lattice and the emblem in
        stone; with the ink saver only the card's outline, and the emblem in outline.
        """
        if self.ink_saver:
            self.box(slot, stroke=INK)
            return BackInk(line=INK, fill=None, ground=PAPER)
        ground = colour if self.rich_backs else tint(colour, LIGHT_TINT)
        area = slot.inset(-layout.BLEED)
        self.box(area, stroke=None, fill=ground)
        lattice = tint(colour, RICH_LATTICE_TINT) if self.rich_backs else tint(colour, LATTICE_TINT)
        self._lattice(area, lattice)
        if self.rich_backs:
            return BackInk(line=STONE, fill=STONE, ground=ground)
        return BackInk(line=colour, fill=tint(colour, LIGHT_FILL), ground=ground)

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        *,
        stroke: str | None = INK,
        fill: str | None = None,
        width: float = HAIRLINE,
    ) -> None:
        """A closed polygon through the points (x, y) in mm."""
        c = self._pen()
        c.saveState()
        self._stroke_style(width, stroke or INK)
        if fill:
            c.setFillColor(HexColor(fill))
        path = c.beginPath()
        path.moveTo(points[0][0] * mm, points[0][1] * mm)
        for x, y in points[1:]:
            path.lineTo(x * mm, y * mm)
        path.close()
        c.drawPath(path, stroke=int(bool(stroke)), fill=int(bool(fill)))
        c.restoreState()

    def grid(
        self,
        rect: Rect,
        columns: int,
        rows: int,
        *,
        width: float = HAIRLINE,
        color: str = INK,
    ) -> list[list[Rect]]:
        """Rule rect into equal cells; returns them as ``cells[row][column]``, top row first."""
        cells = layout.grid_cells(rect, columns, rows)
        for i in range(columns + 1):
            x = rect.x + i * rect.w / columns
            self.line(x, rect.y, x, rect.top, width=width, color=color)
        for j in range(rows + 1):
            y = rect.y + j * rect.h / rows
            self.line(rect.x, y, rect.right, y, width=width, color=color)
        return cells

    # Codes and calibration

    def qr(self, data: str, rect: Rect) -> float:
        """A QR code (level M, quiet zone included) filling the square centred in rect.

        Drawn as vector rectangles from qrcode's matrix; the quiet zone is painted white so
        nothing can intrude. Returns the module size in mm; ValueError below 0.5 mm.
        """
        matrix = qr_matrix(data)
        n = len(matrix)
        module = min(rect.w, rect.h) / n
        if module < QR_MIN_MODULE:
            raise QRTooLarge(
                f"a QR code of {n} modules needs {n * QR_MIN_MODULE:g} mm, not {min(rect.w, rect.h):g}"
            )
        left, top = rect.cx - n * module / 2, rect.cy + n * module / 2
        self.box(Rect(left, top - n * module, n * module, n * module), stroke=None, fill=PAPER)
        c = self._pen()
        c.setFillColor(HexColor(INK))
        path = c.beginPath()
        for row, start, length in _dark_runs(matrix):
            y = top - (row + 1) * module
            path.rect((left + start * module) * mm, y * mm, length * module * mm, module * mm)
        c.drawPath(path, stroke=0, fill=1)
        return module

    def calibration_bar(self, x: float, y: float) -> None:
        """The 50 mm bar (five 10 mm steps) with its sentence under it; (x, y) is the
        bottom-left of the block, which is ``layout.CALIBRATION_HEIGHT`` tall."""
        bar_y, bar_h, step = y + 3.0, 2.0, layout.CALIBRATION_LENGTH / 5
        for i in range(5):
            self.box(Rect(x + i * step, bar_y, step, bar_h), fill=INK if i % 2 == 0 else None)
        self.text(x, y + 0.4, self.say(CALIBRATION_SENTENCE), size=7)

    # Layout helpers

    @contextmanager
    def turned(self, rect: Rect, quarters: int = 1) -> Iterator[Rect]:
        """Draw into rect turned a quarter anticlockwise (text runs bottom to top), or
        ``quarters`` quarters: 0 leaves it as it is, 3 turns it a quarter clockwise.

        Yields the rectangle to draw into, in the turned coordinates.
        """
        quarters %= 4
        corner = [(rect.x, rect.y), (rect.right, rect.y), (rect.right, rect.top), (rect.x, rect.top)][
            quarters
        ]
        c = self._pen()
        c.saveState()
        c.translate(corner[0] * mm, corner[1] * mm)
        c.rotate(90 * quarters)
        size = Rect(0.0, 0.0, rect.h, rect.w) if quarters % 2 else Rect(0.0, 0.0, rect.w, rect.h)
        outer, self._placement = self._placement, self._placement.moved(*corner).turned(quarters)
        try:
            yield size
        finally:
            self._placement = outer
            c.restoreState()

    @contextmanager
    def shifted(self, dx: float, dy: float) -> Iterator[None]:
        """Everything drawn inside the block is moved dx mm right and dy mm up."""
        if not (dx or dy):  # the same bytes as before there were offsets
            yield
            return
        c = self._pen()
        c.saveState()
        c.translate(dx * mm, dy * mm)
        outer, self._placement = self._placement, self._placement.moved(dx, dy)
        try:
            yield
        finally:
            self._placement = outer
            c.restoreState()

    @contextmanager
    def clipped(self, rect: Rect) -> Iterator[Rect]:
        """Anything drawn inside the block is cut off at the edges of rect."""
        c = self._pen()
        c.saveState()
        path = c.beginPath()
        path.rect(rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm)
        c.clipPath(path, stroke=0, fill=0)
        try:
            yield rect
        finally:
            c.restoreState()

    def mat(
        self,
        spec: MatSpec,
        slot: SlotDrawer,
        *,
        label: SlotDrawer | None = None,
        border: BorderDrawer | None = None,
        note: str = "",
    ) -> None:
        """A mat on as few pages as the paper allows (``printables.tiling``), each page with
        its header (names, page number, how to join it, QR code) and the calibration bar.

        ``slot(doc, index, rect)`` draws each slot (index in reading order), ``label`` the band
        above it, ``border(doc, side, index, rect)`` the border beside each column or row;
        ``note`` is said on the first page.
        """
        pages = tiling.mat_pages(self.paper, spec)
        for tile in pages.tiles:
            self.new_page()
            self._mat_header(pages, tile, note)
            self.calibration_bar(pages.footer.x, pages.footer.cy - layout.CALIBRATION_HEIGHT / 2)
            self.label(
                Rect(pages.footer.cx, pages.footer.y, pages.footer.w / 2, pages.footer.h),
                self.game_url,
                size=7,
                align="right",
                color=MUTED,
            )
            with ExitStack() as stack:
                if pages.turned:
                    stack.enter_context(self.turned(pages.content))
                self._mat_tile(spec, tile, slot, label, border)

    def two_up(self, draw: Callable[[Document, Rect], None], inset: float = 3) -> None:
        """Two copies of a half-page card on a framed page, one above the other, a dashed cut line between."""
        content = self.frame()
        half = content.h / 2
        for y in (content.y + half, content.y):
            draw(self, Rect(content.x, y, content.w, half).inset(inset))
        self.line(content.x, content.y + half, content.right, content.y + half, color=MUTED, dash=(2, 2))

    def frame(self) -> Rect:
        """The standard page frame: header band with the game and sheet names, the QR code
        to the game's page, the description, the calibration bar; returns the content area."""
        f = layout.page_frame(self.paper)
        self.background(f.header, SLATE, radius=1.5)
        fg = INK if self.ink_saver else PAPER
        band = f.header.inset(3.5)
        self.label(
            Rect(band.x, band.top - 2.5, band.w, 2.5), self.game_name.upper(), size=8, bold=True, color=fg
        )
        self.label(Rect(band.x, band.y, band.w, 5), self.say(self.sheet.title), size=15, bold=True, color=fg)
        self._fitted_block(f.description.inset(1.5), self.say(self.sheet.description), size=8.5, color=MUTED)
        self.qr(self.game_url, f.qr)
        self.calibration_bar(f.footer.x, f.footer.cy - layout.CALIBRATION_HEIGHT / 2)
        self.label(
            Rect(f.footer.cx, f.footer.y, f.footer.w / 2, f.footer.h),
            self.game_url,
            size=7,
            align="right",
            color=MUTED,
        )
        return f.content

    def duplex_check(self) -> None:
        """The duplex check as a sheet of its own, to measure a printer's back offset, then, printed
        with that offset, to confirm that the crosses now meet."""
        self.new_page()
        content = self.frame()
        y = content.top
        for step in [PRINT_TWO_SIDED[self.duplex], *self._offset_sentences()]:
            y = self.text_block(Rect(content.x, y - 40, content.w, 40), self.say(step), size=10) - 2
        self._duplex_check(content)

    def card_sheet(
        self,
        faces: Sequence[CardDrawer],
        back: CardDrawer | Sequence[CardDrawer],
        *,
        spec: CardSpec = POKER,
    ) -> None:
        """Lay cards out, ``spec.per_page`` a page, after a sheet of instructions: its front
        holds the title, how to print, the paper, the calibration bar and the QR code, its
        back a check of the printer's duplex alignment. Then each page of fronts is
        followed by its page of backs, mirrored for the duplex edge.

        back is one drawer for every card, or one per face. Each face and back is called as
        ``draw(doc, rect)`` with the card upright in rect (turned when the cards lie
        sideways), clipped to the card and its bleed (``layout.BLEED`` on the sides no
        other card touches): a back should paint its ground with ``back_ground``.
        """
        backs = [back] * len(faces) if callable(back) else list(back)
        if len(backs) != len(faces):
            raise ValueError(f"{len(faces)} faces need {len(faces)} backs, not {len(backs)}")
        if self.fold:
            self._fold_cards(faces, backs, spec)
            return
        if not self._in_kit:
            self._canvas.setViewerPreference("Duplex", DUPLEX_NAMES[self.duplex])
        geometry = layout.card_sheet(self.paper, spec)
        starts = range(0, len(faces), spec.per_page)
        self._card_info_pages(len(faces), 2 + 2 * len(starts))
        front_turns = 1 if spec.sideways else 0
        back_turns = (3 if self.duplex == "long" else 1) if spec.sideways else 0
        for number, start in enumerate(starts, start=1):
            where = {"page": number, "pages": len(starts)}
            end = start + spec.per_page
            fronts = zip(faces[start:end], geometry.fronts, geometry.bleeds, strict=False)
            self._card_page(
                geometry,
                fronts,
                front_turns,
                self.say(Message(N_("Fronts, page %(page)s of %(pages)s"), **where)),
            )
            backs_here = zip(
                backs[start:end], geometry.backs(self.duplex), geometry.back_bleeds(self.duplex), strict=False
            )
            self._card_page(
                geometry,
                backs_here,
                back_turns,
                self.say(Message(N_("Backs, page %(page)s of %(pages)s"), **where)),
                shift=layout.back_shift(self.back_offset, self.duplex),
            )

    # Private helpers

    def _fold_cards(self, faces: Sequence[CardDrawer], backs: Sequence[CardDrawer], spec: CardSpec) -> None:
        """The fold-over layout (``layout.FoldSheet``): a page of how to print, then pages of cards
        with each front beside its back, printed on one side."""
        geometry = layout.fold_sheet(self.paper, spec)
        per_page = len(geometry.fronts)
        starts = range(0, len(faces), per_page)
        self._fold_info_page(len(starts))
        for number, start in enumerate(starts, start=1):
            end = start + per_page
            cards = [
                *zip(faces[start:end], geometry.fronts, geometry.bleeds, strict=False),
                *zip(backs[start:end], geometry.backs, geometry.back_bleeds, strict=False),
            ]
            what = self.say(
                Message(N_("Fold-over, page %(page)s of %(pages)s"), page=number, pages=len(starts))
            )
            self._card_page(
                geometry, iter(cards), 1, what
            )  # folded, a back is a front turned on its long edge
            for guide in geometry.fold_guides:
                self.line(guide.x1, guide.y1, guide.x2, guide.y2, width=0.3, dash=(1.2, 0.8))

    def _fold_info_page(self, pages: int) -> None:
        """The page of instructions that opens a fold-over card sheet."""
        self.new_page()
        content = self.frame()
        advice = self.sheet.advice
        steps = [
            N_("Fold-over cards: print at 100 %, one-sided. Each card's front lies beside its back."),
            N_(
                "Print at actual size, never “fit to page”: the bar at the foot of this page must measure 50 mm."
            ),
            advice.paper,
            advice.sleeves,
            N_(
                "Cut each pair of cards out along the solid guides in the margins, never on a dashed one. Fold "
                "each pair on the dashed guides, so that the back lies behind its front, and glue the halves "
                "together; or slip the folded card into a sleeve in front of an old playing card. The printing "
                "runs 3 mm past the cut lines, so a cut or fold a little off still leaves no white edge."
            ),
            Message(
                NP_(
                    "%(count)s page of cards after this one. Paper size: %(paper)s.",
                    "%(count)s pages of cards after this one. Paper size: %(paper)s.",
                ),
                count=pages,
                paper=layout.PAPER_NAMES[self.paper],
            ),
        ]
        if self.ink_saver:
            steps.append(N_("Ink saver: backgrounds are printed as outlines."))
        elif self.rich_backs:
            steps.append(N_("Rich backs: the backs are printed in full colour, which takes a lot of ink."))
        y = content.top
        self.text(content.x, y - 6, self.say(N_("How to print")), size=13, bold=True)
        y -= 10
        for step in steps:
            y = self.text_block(Rect(content.x, y - 40, content.w, 40), self.say(step), size=10) - 2

    def _mat_header(self, pages: tiling.MatPages, tile: tiling.Tile, note: str) -> None:
        """The names, which page this is and how it joins its neighbours, the QR code."""
        header = pages.header
        qr = Rect(header.right - header.h, header.y, header.h, header.h)
        text = Rect(header.x, header.y, qr.x - 3 - header.x, header.h)
        band = Rect(text.x, text.top - 10, text.w, 10)
        self.background(band, SHADE, radius=1.5)
        self.label(
            Rect(band.x + 2, band.top - 3.8, band.w - 4, 2.6), self.game_name.upper(), size=7, bold=True
        )
        self.label(
            Rect(band.x + 2, band.y + 1.2, band.w - 4, 4.4), self.say(self.sheet.title), size=12, bold=True
        )
        total = len(pages.tiles)
        if total == 1:
            sentences = [self.say(N_("The whole mat is on this page."))]
        else:
            # Said as the pages lie with their headers upright: a turned mat's rows run up the page.
            sentences = [
                self.say(
                    Message(
                        N_(
                            "Page %(page)s of %(pages)s. Lay the pages out %(across)s across and %(down)s down, "
                            "page 1 at the bottom left."
                        ),
                        page=tile.number,
                        pages=total,
                        across=pages.down,
                        down=pages.across,
                    )
                    if pages.turned
                    else Message(
                        N_(
                            "Page %(page)s of %(pages)s. Lay the pages out %(across)s across and %(down)s "
                            "down, page 1 at the top left."
                        ),
                        page=tile.number,
                        pages=total,
                        across=pages.across,
                        down=pages.down,
                    )
                )
            ]
        # The mat's left and top edges are the page's bottom and left edges when the mat lies turned.
        for neighbour, edge in (
            (tile.left, "bottom" if pages.turned else "left"),
            (tile.above, "left" if pages.turned else "top"),
        ):
            if neighbour:
                sentences.append(self.say(Message(CUT_SENTENCES[edge], page=neighbour)))
        if tile.number == 1 and note:
            sentences.append(self.say(note))
        words = Rect(text.x, text.y, text.w, text.h - 10.5)
        if self.text_block(words, " ".join(sentences), size=7.5) < words.y - 0.01:
            raise ValueError(
                f"the header of page {tile.number} of {self.sheet.slug} overflows: shorten its note"
            )
        self.qr(self.game_url, qr)

    def _mat_tile(
        self,
        spec: MatSpec,
        tile: tiling.Tile,
        slot: SlotDrawer,
        label: SlotDrawer | None,
        border: BorderDrawer | None,
    ) -> None:
        """One page's part of the mat: its slots and borders, its strips, its joins' ticks and cut lines."""
        core, window = tile.place(tile.core), tile.place(tile.window)
        marks_y, marks_x = tiling.join_marks(spec, tile)
        if tile.right:
            strip = Rect(core.right, window.y, tiling.OVERLAP, window.h)
            self.background(strip, SHADE)
            with self.turned(strip) as local:  # the strip's length runs up the page
                self._strip_words(local, tile.right, [y - strip.y for y in marks_y])
        if tile.below:
            strip = Rect(window.x, window.y, core.w, tiling.OVERLAP)
            self.background(strip, SHADE)
            self._strip_words(strip, tile.below, [x - strip.x for x in marks_x])
        for index, rect in enumerate(spec.slots()):
            if tile.core.contains(rect):
                slot(self, index, tile.place(rect))
                if label and spec.label:
                    label(self, index, tile.place(spec.label_band(rect)))
        for side, index, rect in spec.borders():
            if border and tile.core.contains(rect):
                border(self, side, index, tile.place(rect))
        self._mat_joins(tile, core, window, marks_y, marks_x)

    def _strip_words(self, strip: Rect, number: int, ticks: list[float]) -> None:
        """Which page goes on the strip, written in the longest stretch between the join's ticks
        that cross it (``ticks``: where along the strip's length), so that no tick runs through it."""
        start, end = tiling.clear_stretch(strip.w, ticks)
        words = self.say(Message(N_("Page %(page)s goes on this strip."), page=number))
        self.label(
            Rect(strip.x + start, strip.y, end - start, strip.h).inset(1.5),
            words,
            size=7,
            align="centre",
            color=MUTED,
        )

    def _mat_joins(
        self, tile: tiling.Tile, core: Rect, window: Rect, marks_y: list[float], marks_x: list[float]
    ) -> None:
        """Dashed lines where a neighbour's edge goes, solid lines where this page is cut, and ticks
        across both (at ``marks_y`` and ``marks_x``, ``tiling.join_marks``)."""
        tick, strip = tiling.TICK, tiling.OVERLAP
        if tile.right:
            self.line(core.right, window.y, core.right, window.top, width=0.3, dash=(1.5, 1))
            for y in marks_y:
                self.line(core.right - tick, y, core.right + strip, y, width=0.3)
        if tile.below:
            self.line(window.x, core.y, window.right, core.y, width=0.3, dash=(1.5, 1))
            for x in marks_x:
                self.line(x, core.y - strip, x, core.y + tick, width=0.3)
        if tile.left:
            self.line(core.x, window.y, core.x, window.top, width=0.3)
            for y in marks_y:
                self.line(core.x, y, core.x + tick, y, width=0.3)
        if tile.above:
            self.line(window.x, core.top, window.right, core.top, width=0.3)
            for x in marks_x:
                self.line(x, core.top - tick, x, core.top, width=0.3)

    def _pen(self) -> canvas.Canvas:
        self._blank = False
        return self._canvas

    def _stroke_style(self, width: float, color: str) -> None:
        self._canvas.setLineWidth(width * mm)
        self._canvas.setStrokeColor(HexColor(color))

    def _lattice(self, rect: Rect, colour: str) -> None:
        """Two families of diagonal lines across rect, ``LATTICE`` apart, as one path."""
        c = self._pen()
        c.saveState()
        self._stroke_style(0.25, colour)
        path = c.beginPath()
        reach = rect.w + rect.h
        steps = int(reach // LATTICE) + 1
        for i in range(steps + 1):
            offset = i * LATTICE
            path.moveTo((rect.x + offset - rect.h) * mm, rect.y * mm)
            path.lineTo((rect.x + offset) * mm, rect.top * mm)
            path.moveTo((rect.x + offset) * mm, rect.y * mm)
            path.lineTo((rect.x + offset - rect.h) * mm, rect.top * mm)
        with self.clipped(rect):
            c.drawPath(path, stroke=1, fill=0)
        c.restoreState()

    def _card_page(
        self,
        geometry: CardSheet,
        cards: Iterator[tuple[CardDrawer, Rect, Rect]],
        turns: int,
        what: str,
        shift: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """A page of cards with its cut guides and margin labels, all of it moved by ``shift`` (mm)."""
        self.new_page()
        with self.shifted(*shift):
            for draw, slot, bleed in cards:
                with (
                    self.clipped(bleed),
                    self.turned(slot, turns) as upright,
                    self.within(upright.inset(SAFE_AREA)),
                ):
                    draw(self, upright)
            for guide in geometry.guides:
                self.line(guide.x1, guide.y1, guide.x2, guide.y2, width=HAIRLINE)
            self._margin_labels(geometry, what)

    def _margin_labels(self, geometry: CardSheet, what: str) -> None:
        title = self.say(self.sheet.title)
        names = [(self.game_name, True), (title, False), (what, False)]
        if len(geometry.header) < len(names):
            names = [(f"{self.game_name} · {title}", False), (what, False)][-len(geometry.header) :]
        for span, (name, bold) in zip(geometry.header, names, strict=False):
            self._in_span(geometry, span, lambda r, n=name, b=bold: self.label(r, n, size=7, bold=b))
        sides = N_("One-sided: fold on the dashed guides") if self.fold else DOUBLE_SIDED[self.duplex]
        notes = [self.say(sides), self.say(N_("QR code and help: first page"))]
        bar_span = max(geometry.footer, key=lambda s: s.h if geometry.vertical_labels else s.w)
        self._in_span(geometry, bar_span, self._centred_bar)
        others = [span for span in geometry.footer if span is not bar_span]
        for span, note in zip(others, notes, strict=False):
            self._in_span(geometry, span, lambda r, n=note: self.label(r, n, size=7, color=MUTED))

    def _in_span(self, geometry: CardSheet, span: Rect, draw: Callable[[Rect], None]) -> None:
        if geometry.vertical_labels:
            with self.turned(span) as local:
                draw(local)
        else:
            draw(span)

    def _centred_bar(self, rect: Rect) -> None:
        self.calibration_bar(rect.x, rect.cy - layout.CALIBRATION_HEIGHT / 2)

    def _card_info_pages(self, cards: int, pages: int) -> None:
        """The sheet of instructions that opens a card sheet: how to print, then its back, a duplex check."""
        self.new_page()
        content = self.frame()
        advice = self.sheet.advice
        steps = [
            PRINT_TWO_SIDED[self.duplex],
            N_(
                "Print at actual size, never “fit to page”: the bar at the foot of this page must measure 50 mm."
            ),
            N_(
                "This sheet comes first and its back checks how well your printer lines up the two sides; "
                "then each page of fronts is followed by the page of its backs."
            ),
            advice.paper,
            advice.sleeves,
            advice.printer_for(self.duplex),
            N_(
                "Cut along the guides in the margins. Every cut line is marked on both opposite margins, so a "
                "mark is still there after the first cut. The printing runs 3 mm past the outer cut lines, so "
                "a back printed a little off still covers its card."
            ),
            Message(
                NP_(
                    "%(count)s card on %(pages)s pages after this sheet. Paper size: %(paper)s.",
                    "%(count)s cards on %(pages)s pages after this sheet. Paper size: %(paper)s.",
                ),
                count=cards,
                pages=pages - 2,
                paper=layout.PAPER_NAMES[self.paper],
            ),
        ]
        if self.ink_saver:
            steps.append(N_("Ink saver: backgrounds are printed as outlines."))
        elif self.rich_backs:
            steps.append(N_("Rich backs: the backs are printed in full colour, which takes a lot of ink."))
        steps += self._offset_sentences()
        y = content.top
        self.text(content.x, y - 6, self.say(N_("How to print")), size=13, bold=True)
        y -= 10
        for step in steps:
            y = self.text_block(Rect(content.x, y - 40, content.w, 40), self.say(step), size=10) - 2
        self._duplex_check(content)

    def _duplex_check(self, content: Rect) -> None:
        """The duplex check on this page and, moved by the back offset, on its back."""
        check = self._duplex_check_front(content)
        self.new_page()
        with self.shifted(*layout.back_shift(self.back_offset, self.duplex)):
            self._duplex_check_back(check)

    def _offset_sentences(self) -> list[Message]:
        """What the first page says of the back offset: its value, and a warning past the bleed."""
        right, down = self.back_offset
        if not (right or down):
            return []
        sentence = BACK_OFFSET[right >= 0, down >= 0]
        said = [Message(sentence, across=abs(right), along=abs(down))]
        if max(abs(right), abs(down)) > layout.BLEED:
            said.append(Message(OFFSET_PAST_BLEED))
        return said

    def _duplex_check_front(self, content: Rect) -> Rect:
        """The duplex check on the front: a cross with scales to read the back's cross on, and how
        to read them; returns the check's square."""
        check = Rect(content.x, content.y + DUPLEX_CHECK_RISE, DUPLEX_CHECK, DUPLEX_CHECK)
        self._target(check)
        self._scales(check)
        self.text_block(
            Rect(check.right + 4, check.y - 6, content.w - check.w - 4, check.h + 6),
            self.say(
                N_(
                    "Duplex check: hold this sheet against the light. The cross printed on its back should lie "
                    "on this cross. If it does not, read where its upright line crosses the scale at the foot "
                    "(millimetres right or left) and where its level line crosses the scale on the left "
                    "(millimetres down or up), and enter both as the back offset on the print page: the backs "
                    "are then moved to cancel it. Print this sheet again to check."
                )
            ),
            size=9,
        )
        return check

    def _duplex_check_back(self, check: Rect) -> None:
        """The back of the check: the cross that lands behind the front's, and what to do with it."""
        content = self.frame()
        behind = check.mirrored(self.page, self.duplex)
        top = content.top if behind.cy < self.page.cy else behind.y - 4
        self.text(content.x, top - 6, self.say(N_("Duplex check")), size=13, bold=True)
        self.text_block(
            Rect(content.x, top - 60, content.w, 50),
            self.say(
                N_(
                    "Hold this sheet against the light: this cross should lie on the cross printed on the other "
                    "side. If they are up to 3 mm apart, the cards will still be fine; the scales on the other "
                    "side say how far apart they are, for the back offset on the print page. If one cross is "
                    "turned, check the duplex edge in the print dialog, or print the fronts, put the pages back "
                    "in the tray and print the backs."
                )
            ),
            size=10,
        )
        self._target(behind)

    def _scales(self, check: Rect) -> None:
        """Half-millimetre scales along the check's foot and its left side, 0 on its cross: where the
        back's cross crosses them reads how far the backs lie right and down, as the offset is entered."""
        half_steps = round(SCALE_REACH * 2)
        for i in range(-half_steps, half_steps + 1):
            tick = 3.0 if i % 4 == 0 else 2.0 if i % 2 == 0 else 1.2
            x, y = check.cx + i / 2, check.cy - i / 2  # down the page reads as a positive offset
            self.line(x, check.y, x, check.y + tick, width=0.1)
            self.line(check.x, y, check.x + tick, y, width=0.1)
            if i % 4 == 0 and i:
                self.text(x, check.y + 3.6, f"{abs(i) / 2:g}", size=7, align="centre")
                self.text(check.x + 3.6, y - 1.2, f"{abs(i) / 2:g}", size=7)
        words = [
            (N_("left"), check.cx - SCALE_REACH - 1.5, "right"),
            (N_("right"), check.cx + SCALE_REACH + 1.5, "left"),
        ]
        for word, x, align in words:
            self.text(x, check.y + 1.2, self.say(word), size=7, align=align, color=MUTED)
        self.text(check.x + 1.5, check.cy + SCALE_REACH + 2.5, self.say(N_("up")), size=7, color=MUTED)
        self.text(check.x + 1.5, check.cy - SCALE_REACH - 4.5, self.say(N_("down")), size=7, color=MUTED)

    def _target(self, rect: Rect) -> None:
        """A cross in a square, to compare the two sides of a sheet against the light."""
        self.box(rect, width=0.3)
        self.line(rect.cx, rect.y, rect.cx, rect.top, width=0.3)
        self.line(rect.x, rect.cy, rect.right, rect.cy, width=0.3)


class QRTooLarge(ValueError):
    """The address is too long: its QR code would need modules too small to scan in its box."""


@functools.lru_cache(maxsize=64)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of data's QR code at error correction level M, with the 4-module quiet zone.

    Kept for the next call: choosing the mask is most of a card sheet's drawing time, and a
    sheet draws the same address on both sides of its first page.
    """
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=4)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def _dark_runs(matrix: Sequence[Sequence[bool]]) -> Iterator[tuple[int, int, int]]:
    """(row, first column, length) of each horizontal run of dark modules."""
    for r, row in enumerate(matrix):
        start = None
        for col, dark in enumerate([*row, False]):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                yield r, start, col - start
                start = None
