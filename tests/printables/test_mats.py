"""Mats read back from their PDFs: every slot holds its card at 100 % with room to spare, each
slot is whole on exactly one page, the pages join with strips and ticks, and A3 and Tabloid
take the mats that fit them in one piece. The tiling's pure geometry is checked as well."""

from __future__ import annotations

import io
from itertools import combinations

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import printables
from companion import cli
from printables import tiling
from printables.layout import MIN_MARGIN, Rect, printable_rect

MM = 72 / 25.4
POKER, BRIDGE = (63.0, 88.0), (57.0, 89.0)
# Each mat, the cards it takes as the game lays them (width x height as seat S sees the mat),
# and its number of pages on A4, Letter, A3 and Tabloid.
MATS = {
    "castle-mat": ([POKER, BRIDGE], (4, 4, 1, 1)),
    "tactics-mat-3x3": ([POKER], (2, 2, 1, 1)),
    "tactics-mat-4x4": ([POKER, POKER[::-1]], (4, 4, 2, 2)),
    "zamek-layout": ([POKER[::-1]], (9, 9, 4, 6)),
}
PAPERS = ("a4", "letter", "a3", "tabloid")
CASES = [(slug, paper) for slug in MATS for paper in PAPERS]


def test_nothing_on_a_mat_lies_within_8_mm_of_the_paper_s_edge():
    assert MIN_MARGIN >= 8


def test_every_mat_sheet_is_listed_here_and_offers_the_large_papers():
    mats = {sheet.slug for sheet in printables.all_sheets() if sheet.mat}
    assert mats == set(MATS)
    assert printables.get_sheet("castle-mat").papers == PAPERS
    assert printables.get_sheet("castle-deck").papers == ("a4", "letter")


@pytest.mark.parametrize(("slug", "paper"), CASES)
def test_every_slot_holds_its_cards_with_a_millimetre_to_spare_on_every_side(slug, paper, build_pdf):
    """The slot outlines found in the PDF: one whole outline per slot over all the pages, each
    larger than every card the game lays there by 2 mm or more each way, inside the safe margin."""
    sheet = printables.get_sheet(slug)
    spec, (cards, pages) = sheet.mat, MATS[slug]
    turned = tiling.mat_pages(paper, spec).turned
    reader = PdfReader(io.BytesIO(build_pdf(slug, paper=paper)))
    assert len(reader.pages) == pages[PAPERS.index(paper)]
    safe = printable_rect(paper)  # the page less the margin where printers clip
    found = 0
    for page in reader.pages:
        size = (spec.slot_h, spec.slot_w) if turned else (spec.slot_w, spec.slot_h)
        slots = [box for box in path_boxes(page) if _same_size(box, size)]
        for box in slots:
            assert safe.contains(box, tol=0.01), box
            for card_w, card_h in cards:
                w, h = (box.h, box.w) if turned else (box.w, box.h)
                assert w >= card_w + 2 - 0.01 and h >= card_h + 2 - 0.01, (w, h)
        assert not any(a.overlaps(b, tol=0.01) for a, b in combinations(slots, 2))
        found += len(slots)
    assert found == spec.columns * spec.rows


@pytest.mark.parametrize(("slug", "paper"), [("castle-mat", "a4"), ("tactics-mat-4x4", "letter")])
def test_tiled_pages_say_how_they_join_and_carry_strips_and_matching_ticks(slug, paper, build_pdf):
    reader = PdfReader(io.BytesIO(build_pdf(slug, paper=paper)))
    texts = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert "Page 1 of 4. Lay the pages out 2 across and 2 down, page 1 at the top left." in texts[0]
    assert "Page 2 goes on this strip." in texts[0] and "Page 3 goes on this strip." in texts[0]
    assert "lay it on the grey strip of page 1 so that the ticks meet" in texts[1]
    assert "lay it on the grey strip of page 1 so that the ticks meet" in texts[2]
    assert "strip of page 3 so that the ticks meet" in texts[3] and "strip of page 2 so that" in texts[3]
    # Page 1's ticks reach from its mat across its strip; page 2's start at its cut edge, at the same heights.
    assert not tiling.mat_pages(paper, printables.get_sheet(slug).mat).turned
    first, second = path_boxes(reader.pages[0]), path_boxes(reader.pages[1])
    long_ticks = [box for box in first if box.h < 0.01 and abs(box.w - tiling.TICK - tiling.OVERLAP) < 0.01]
    short_ticks = [box for box in second if box.h < 0.01 and abs(box.w - tiling.TICK) < 0.01]
    assert len(long_ticks) >= 2
    assert sorted(round(box.y, 2) for box in long_ticks) == sorted(round(box.y, 2) for box in short_ticks)
    assert (
        len({round(box.x, 2) for box in long_ticks}) == 1
        and len({round(box.x, 2) for box in short_ticks}) == 1
    )


@pytest.mark.parametrize(("slug", "paper"), CASES)
def test_the_tiling_puts_each_slot_whole_in_one_page_and_every_page_inside_the_paper(slug, paper):
    spec = printables.get_sheet(slug).mat
    pages = tiling.mat_pages(paper, spec)
    for slot in spec.slots():
        assert sum(tile.core.contains(slot) for tile in pages.tiles) == 1
    for tile in pages.tiles:
        assert pages.frame.contains(tile.place(tile.window), tol=1e-6)
        for other in pages.tiles:
            if other.number > tile.number:
                assert not tile.core.overlaps(other.core, tol=1e-6)
    assert sum(tile.core.w * tile.core.h for tile in pages.tiles) == pytest.approx(spec.width * spec.height)


@pytest.mark.parametrize(("slug", "paper"), CASES)
def test_each_strip_s_words_have_a_stretch_no_tick_runs_through(slug, paper):
    """'Page N goes on this strip' is written between the join's ticks, never across one, and the
    stretch it gets holds it at its size (about 40 mm in the longest language)."""
    spec = printables.get_sheet(slug).mat
    for tile in tiling.mat_pages(paper, spec).tiles:
        core, window = tile.place(tile.core), tile.place(tile.window)
        marks_y, marks_x = tiling.join_marks(spec, tile)
        strips = ([(window.h, [y - window.y for y in marks_y])] if tile.right else []) + (
            [(core.w, [x - window.x for x in marks_x])] if tile.below else []
        )
        for length, ticks in strips:
            start, end = tiling.clear_stretch(length, ticks)
            assert not any(start < tick < end for tick in ticks)
            assert end - start >= 45, (slug, paper, tile.number, start, end)


def test_a_mat_whose_slot_cannot_fit_the_paper_is_refused():
    with pytest.raises(ValueError, match="do not fit on a4"):
        tiling.mat_pages("a4", tiling.MatSpec(1, 1, 300, 90))
    with pytest.raises(ValueError, match="1 x 1"):
        tiling.MatSpec(0, 1, 65, 90)


def path_boxes(page) -> list[Rect]:
    """The bounding box, in mm on the page, of every path the page's content strokes or fills."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    matrix, stack, points, boxes = (1, 0, 0, 1, 0, 0), [], [], []
    for operands, op in ops:
        if op == b"q":
            stack.append(matrix)
        elif op == b"Q":
            matrix = stack.pop()
        elif op == b"cm":
            matrix = _multiply(tuple(float(v) for v in operands), matrix)
        elif op in (b"m", b"l"):
            points.append(_apply(matrix, float(operands[0]), float(operands[1])))
        elif op == b"c":
            values = [float(v) for v in operands]
            points += [_apply(matrix, values[i], values[i + 1]) for i in (0, 2, 4)]
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            points += [_apply(matrix, x, y), _apply(matrix, x + w, y + h)]
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if points and op != b"n":
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                boxes.append(
                    Rect(min(xs) / MM, min(ys) / MM, (max(xs) - min(xs)) / MM, (max(ys) - min(ys)) / MM)
                )
            points = []
    return boxes


def _same_size(box: Rect, size: tuple[float, float]) -> bool:
    return abs(box.w - size[0]) < 0.01 and abs(box.h - size[1]) < 0.01


def _multiply(a: tuple, b: tuple) -> tuple:
    """The PDF matrix product a x b (a applied first)."""
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def test_the_print_page_offers_each_mat_on_four_papers_and_says_how_many_pages(browser):
    page = browser.get("/print").data.decode()
    assert 'href="/print/castle-mat.pdf?paper=a3">A3, in one piece</a>' in page
    assert 'href="/print/castle-mat.pdf?paper=a4">A4, 4 pages</a>' in page
    polish = browser.get("/print", headers={"Accept-Language": "pl"}).data.decode()
    assert 'href="/print/castle-mat.pdf?paper=a3">A3, jedna kartka</a>' in polish
    assert 'href="/print/castle-mat.pdf?paper=a4">A4, 4 strony</a>' in polish
    assert 'href="/print/tactics-mat-4x4.pdf?paper=tabloid">Tabloid, 2 pages</a>' in page
    assert 'href="/print/zamek-layout.pdf?paper=letter">Letter, 9 pages</a>' in page
    assert 'href="/print/castle-deck.pdf?paper=letter">Letter</a>' in page
    assert "castle-deck.pdf?paper=a3" not in page
    assert "lay that edge on the grey strip of the page before it so that the short ticks meet" in page


def test_a_turned_mat_names_the_edge_to_cut_as_it_lies_on_the_page(build_pdf):
    """The 3x3 board lies turned on A4: its top edge is the page's left edge, and its second page
    lies to the right of the first as their headers read."""
    assert tiling.mat_pages("a4", printables.get_sheet("tactics-mat-3x3").mat).turned
    reader = PdfReader(io.BytesIO(build_pdf("tactics-mat-3x3", paper="a4")))
    second = " ".join(reader.pages[1].extract_text().split())
    assert "Page 2 of 2. Lay the pages out 2 across and 1 down, page 1 at the bottom left." in second
    assert "Cut this page along the solid line on the left, lay it on the grey strip of page 1" in second
    boxes = path_boxes(reader.pages[1])
    cut = [box for box in boxes if box.w < 0.01 and box.h > 150]  # a line the length of the board's side
    cells = [box for box in boxes if _same_size(box, (90, 65))]  # 65 x 90 mm cells, turned
    assert len(cut) == 1 and len(cells) == 3
    assert all(abs(cut[0].x - cell.x) < 0.01 for cell in cells)  # on the left edge of the cells


def test_a_mat_comes_on_a3_and_a_deck_does_not(browser):
    response = browser.get("/print/castle-mat.pdf?paper=a3")
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [842, 1191]
    assert browser.get("/print/castle-deck.pdf?paper=a3").status_code == 404


def test_the_command_prints_a_mat_on_tabloid_and_refuses_a_deck_on_it_clearly(tmp_path, capsys):
    out = tmp_path / "mat.pdf"
    assert (
        cli.main(["print", "castle-mat", "--paper", "tabloid", "-o", str(out), "--base-url", "http://h:5000"])
        == 0
    )
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [792, 1224]
    assert cli.main(["print", "castle-deck", "--paper", "tabloid", "-o", str(tmp_path / "deck.pdf")]) == 2
    assert "castle-deck comes on a4 or letter paper, not tabloid." in capsys.readouterr().err
    assert not (tmp_path / "deck.pdf").exists()


@pytest.mark.parametrize(("slug", "paper"), [("castle-mat", "a3"), ("tactics-mat-4x4", "letter")])
def test_the_rendered_slot_outlines_lie_where_the_geometry_puts_them(slug, paper, build_pdf, render):
    """At 200 dpi, each slot of page 1 has ink on its edges and clear paper just inside them."""
    pages = tiling.mat_pages(paper, printables.get_sheet(slug).mat)
    tile = pages.tiles[0]
    image = render(build_pdf(slug, paper=paper), 1, dpi=200)
    scale = image.width / pages.page.w

    def ink(x: float, y: float) -> int:
        return image.getpixel((round(x * scale), round((pages.page.h - y) * scale)))

    slots = [tile.place(slot) for slot in pages.spec.slots() if tile.core.contains(slot)]
    assert slots
    for slot in slots:
        y = slot.y + slot.h * 0.3  # clear of the names and dots drawn on the middle of the edges
        assert min(ink(slot.x + dx, y) for dx in (-0.1, 0, 0.1)) < 100, slot
        assert min(ink(slot.right + dx, y) for dx in (-0.1, 0, 0.1)) < 100, slot
        assert ink(slot.x + 0.8, y) > 150 and ink(slot.right - 0.8, y) > 150, slot
