"""What a home printer and a pair of scissors make of the sheets, read back from the PDFs.

The print dialog is told the scale and the duplex edge (catalog entries), nothing lies where
printers clip, card backs bleed past their cut lines and land behind their fronts, default
backs are light on ink, and type is large enough and contrasted (renderings and text runs).
"""

from __future__ import annotations

import math
import subprocess
from collections.abc import Iterator
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageOps, ImageStat

import printables
from printables import PAPERS, Sheet, layout, zamek
from printables.draw import SHADE, tint

SHEETS = printables.all_sheets()
CASES = [(sheet, paper) for sheet in SHEETS for paper in PAPERS]
IDS = [f"{sheet.slug}-{paper}" for sheet, paper in CASES]
CARD_KINDS = ("cards", "memory cards")
CARD_SHEETS = [sheet.slug for sheet in SHEETS if sheet.kind in CARD_KINDS]
DPI = 50
MIN_TEXT = 7.0  # points


def px(mm: float, dpi: int = DPI) -> float:
    """Millimetres in pixels at dpi."""
    return mm * dpi / 25.4


def box(rect: layout.Rect, page: layout.Rect, dpi: int = DPI) -> tuple[int, int, int, int]:
    """A rectangle in mm (y up) as a PIL box in pixels (y down)."""
    return (
        round(px(rect.x, dpi)),
        round(px(page.h - rect.top, dpi)),
        round(px(rect.right, dpi)),
        round(px(page.h - rect.y, dpi)),
    )


def coverage(image: Image.Image) -> float:
    """Ink coverage of an RGB image: the mean of C + M + Y + K, with black taken out as K (1.0 is 100 %)."""
    total = 0.0
    for r, g, b in image.get_flattened_data():
        k = 1 - max(r, g, b) / 255
        if k < 1:
            total += k + sum((1 - c / 255 - k) / (1 - k) for c in (r, g, b))
        else:
            total += 1
    return total / (image.width * image.height)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def linear(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two colours."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_runs(reader) -> Iterator[tuple[int, str, float]]:
    """(page number, text, size in points as printed) of every text run of a PDF."""
    for number, page in enumerate(reader.pages, start=1):
        runs: list[tuple[str, float]] = []

        def visit(text, cm, tm, _font, size, runs=runs):
            a, b, c, d = (
                tm[0] * cm[0] + tm[1] * cm[2],
                tm[0] * cm[1] + tm[1] * cm[3],
                tm[2] * cm[0] + tm[3] * cm[2],
                tm[2] * cm[1] + tm[3] * cm[3],
            )
            if text.strip():
                runs.append((text.strip(), size * math.sqrt(abs(a * d - b * c))))

        page.extract_text(visitor_text=visit)
        yield from ((number, text, size) for text, size in runs)


# 3. The printer is told what to do


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_every_pdf_asks_for_actual_size_and_two_sided_sheets_for_their_duplex_edge(
    sheet, paper, build_pdf, read_pdf
):
    for duplex, name in (("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")):
        reader = read_pdf(build_pdf(sheet, paper=paper, duplex=duplex))
        preferences = reader.trailer["/Root"]["/ViewerPreferences"]
        assert preferences["/PrintScaling"] == "/None"
        assert preferences.get("/Duplex") == (name if sheet.advice.two_sided else None)
        assert reader.pdf_header == "%PDF-1.7"


@pytest.mark.parametrize("slug", CARD_SHEETS)
def test_a_card_sheet_says_how_to_print_and_on_what_on_its_first_page(slug, build_pdf, read_pdf):
    sheet = printables.get_sheet(slug)
    first = " ".join(read_pdf(build_pdf(slug, duplex="short")).pages[0].extract_text().split())
    assert "How to print" in first
    assert "the bar at the foot of this page must measure 50 mm" in first
    assert "flip on short edge" in first
    for sentence in (sheet.advice.paper, sheet.advice.sleeves, sheet.advice.printer_for("short")):
        assert sentence in first


def test_zamek_says_to_print_its_memory_game_on_card_stock(build_pdf, read_pdf):
    first = " ".join(read_pdf(build_pdf("zamek-deck", ink_saver=True)).pages[0].extract_text().split())
    assert "card stock of 200 g/m² or more" in first
    assert "the numbers show through the backs" in first


# 2. Cutting forgives a home printer


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_nothing_is_printed_within_8_mm_of_the_paper_s_edge(sheet, paper, build_pdf, tmp_path):
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(build_pdf(sheet, paper=paper, base_url="http://192.168.1.20:5000"))
    subprocess.run(["pdftoppm", "-r", "30", "-gray", "-png", str(pdf), str(tmp_path / "page")], check=True)
    border = math.floor(px(7.8, 30))  # 8 mm, less a little for anti-aliasing
    for number, path in enumerate(sorted(tmp_path.glob("page*.png")), start=1):
        image = Image.open(path).convert("L")
        inner = Image.new("L", (image.width - 2 * border, image.height - 2 * border), 255)
        edges = image.copy()
        edges.paste(inner, (border, border))
        assert min(edges.get_flattened_data()) > 245, f"page {number} prints within 8 mm of the edge"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("slug", ["castle-deck", "zamek-deck"])
def test_backs_printed_2_mm_off_still_cover_every_card_cut_from_the_fronts(
    slug, duplex, paper, build_pdf, render
):
    """Cut the cards at their cut lines with the back page shifted 2 mm each way: no white edge."""
    data = build_pdf(slug, paper=paper, duplex=duplex)
    geometry = layout.card_sheet(paper)
    flip = ImageOps.mirror if duplex == "long" else ImageOps.flip
    behind = flip(render(data, 4, dpi=DPI))  # the backs as seen through the fronts
    edge = round(px(1.0))
    for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2), (0, 0)):
        shifted = ImageChops.offset(behind, round(px(dx)), round(px(dy)))
        for slot in geometry.fronts:
            card = shifted.crop(box(slot.inset(0.3), geometry.page))
            inside = Image.new("L", (card.width - 2 * edge, card.height - 2 * edge), 0)
            rim = card.copy()
            rim.paste(inside, (edge, edge))
            assert max(rim.get_flattened_data()) < 250, f"a white edge with the backs {dx}, {dy} mm off"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_lands_exactly_behind_its_front_and_turned_like_it(duplex, paper, build_pdf, render):
    """Fronts have a black square in their top-left corner; backs are black with a white square in
    their top-right corner. Seen through the paper, each back is centred on its card and its
    white square lies on the front's black one."""

    def face(doc, slot):
        doc.box(layout.Rect(slot.x + 6, slot.top - 16, 10, 10), stroke=None, fill="#000000")

    def back(doc, slot):
        doc.box(slot.inset(3), stroke=None, fill="#000000")
        doc.box(layout.Rect(slot.right - 16, slot.top - 16, 10, 10), stroke=None, fill="#ffffff")

    def draw(doc):
        doc.card_sheet([face] * 8, back)

    data = build_pdf(
        Sheet("test-behind", "castellan", "Test", "Backs behind fronts.", draw, kind="cards"),
        paper=paper,
        duplex=duplex,
    )
    geometry = layout.card_sheet(paper)
    fronts = render(data, 3, dpi=100)
    flip = ImageOps.mirror if duplex == "long" else ImageOps.flip
    behind = flip(render(data, 4, dpi=100))
    tolerance = px(0.5, 100)
    for slot in geometry.fronts:
        dark = behind.crop(box(slot, geometry.page, 100)).point(lambda v: 255 if v < 128 else 0)
        left, top, right, bottom = dark.getbbox()
        assert (left + right) / 2 == pytest.approx(dark.width / 2, abs=tolerance)
        assert (top + bottom) / 2 == pytest.approx(dark.height / 2, abs=tolerance)
        inner = box(slot.inset(4), geometry.page, 100)
        hole = behind.crop(inner).point(lambda v: 255 if v > 128 else 0).getbbox()
        mark = fronts.crop(inner).point(lambda v: 255 if v < 128 else 0).getbbox()
        assert hole is not None and mark is not None
        assert all(abs(a - b) <= tolerance for a, b in zip(hole, mark, strict=True)), (hole, mark)


# 4. Ink and legibility


@pytest.mark.parametrize("slug", CARD_SHEETS)
def test_default_backs_are_light_on_ink_and_rich_backs_are_an_option(slug, build_pdf, render):
    light = coverage(render(build_pdf(slug, paper="letter"), 4, dpi=20, mode="RGB"))
    rich = coverage(render(build_pdf(slug, paper="letter", rich_backs=True), 4, dpi=20, mode="RGB"))
    assert light < 0.30
    assert rich > 0.6


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_no_text_is_smaller_than_7_points(sheet, paper, build_pdf, read_pdf):
    small = [
        (page, text, round(size, 2))
        for page, text, size in text_runs(read_pdf(build_pdf(sheet, paper=paper)))
        if size < MIN_TEXT - 0.01
    ]
    assert small == []


def text_colours(reader) -> set[tuple[int, int, int]]:
    """The fill colour of every text run of a PDF, following the graphics state's saves and restores."""
    found: set[tuple[int, int, int]] = set()
    for page in reader.pages:
        state = {"fill": (0, 0, 0), "stack": []}

        def before(op, args, _cm, _tm, state=state):
            if op == b"q":
                state["stack"].append(state["fill"])
            elif op == b"Q" and state["stack"]:
                state["fill"] = state["stack"].pop()
            elif op == b"rg":
                state["fill"] = tuple(round(float(v) * 255) for v in args)
            elif op == b"g":
                state["fill"] = (round(float(args[0]) * 255),) * 3
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                found.add(state["fill"])

        page.extract_text(visitor_operand_before=before)
    return found


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_dark_text_keeps_4_5_to_1_on_the_greys_it_is_printed_on(sheet, paper, build_pdf, read_pdf):
    """Dark text lies on white paper, a light grey band or a pale card back: 4.5:1 even on the
    light grey. (Light text lies on dark grounds: the header band, a tile, a rich back.)"""
    shade = tuple(int(SHADE[i : i + 2], 16) for i in (1, 3, 5))
    for options in ({}, {"rich_backs": True}, {"ink_saver": True}):
        for colour in text_colours(read_pdf(build_pdf(sheet, paper=paper, **options))):
            if luminance(colour) < 0.5:
                assert contrast(colour, shade) >= 4.5, colour


def tile_places(paper: str) -> list[tuple[int, layout.Rect, layout.Rect]]:
    """Where each Zamek tile prints: (page of its front, its front slot, its back slot)."""
    geometry = layout.card_sheet(paper)
    per_page = len(geometry.fronts)
    places = []
    for i in range(len(zamek.TILE_COLOURS)):
        index = len(zamek.NUMBERS) + i
        page = 3 + 2 * (index // per_page)
        places.append((page, geometry.fronts[index % per_page], geometry.backs()[index % per_page]))
    return places


def test_zamek_tiles_stand_out_from_the_paper_and_their_writing_from_the_tile(build_pdf, render):
    data = build_pdf("zamek-deck")
    page_rect = layout.page_rect("a4")
    for (page, slot, _back), (english, _colour, writing) in zip(
        tile_places("a4"), zamek.TILE_COLOURS, strict=True
    ):
        image = render(data, page, dpi=DPI, mode="RGB")
        paper = image.getpixel((2, 2))
        corner = layout.Rect(slot.x + 5, slot.y + 5, 1.5, 1.5)  # inside the tile, clear of its writing
        tile = image.crop(box(corner, page_rect)).getpixel((0, 0))
        assert contrast(tile, paper) >= 3.0, english
        ink = tuple(int(writing[i : i + 2], 16) for i in (1, 3, 5))
        assert contrast(tile, ink) >= 4.5, english


def test_zamek_tiles_and_deck_card_have_a_back_of_their_own(build_pdf, render):
    """The mean colour of each back: all numbered cards alike, all tiles and the deck card alike, the two apart."""
    data = build_pdf("zamek-deck")
    page_rect = layout.page_rect("a4")
    backs = layout.card_sheet("a4").backs()

    @cache
    def page_image(page: int) -> Image.Image:
        return render(data, page, dpi=DPI, mode="RGB")

    def mean(page: int, slot: layout.Rect) -> tuple[float, ...]:
        return tuple(ImageStat.Stat(page_image(page).crop(box(slot, page_rect))).mean)

    numbers = [mean(4, backs[0]), mean(14, backs[0])]
    tiles = [mean(page + 1, back) for page, _front, back in tile_places("a4")]
    tiles.append(mean(16, backs[1]))  # the deck card

    def apart(a, b):
        return max(abs(x - y) for x, y in zip(a, b, strict=True))

    assert apart(*numbers) < 2
    assert all(apart(tiles[0], other) < 2 for other in tiles)
    assert apart(numbers[0], tiles[0]) > 10


def test_a_light_back_keeps_its_emblem_and_text_in_full_colour_on_a_pale_ground():
    assert (
        contrast((0x2F, 0x3E, 0x46), tuple(int(tint("#2f3e46", 0.12)[i : i + 2], 16) for i in (1, 3, 5)))
        > 4.5
    )
