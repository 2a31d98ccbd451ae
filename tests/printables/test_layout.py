"""The pure geometry of printables.layout: card slots, mirrored backs, cut guides, frames."""

from __future__ import annotations

import itertools
from dataclasses import astuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printables import PAPERS, layout
from printables.layout import BLEED, GUIDE_CLEARANCE, MIN_GUIDE, MIN_MARGIN, CardSpec, Rect

SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.mark.parametrize("paper", PAPERS)
def test_page_sizes_and_printable_area(paper):
    page = layout.page_rect(paper)
    assert (page.w, page.h) == SIZES[paper]
    assert layout.printable_rect(paper) == Rect(8.0, 8.0, page.w - 16.0, page.h - 16.0)


@pytest.mark.parametrize("paper", PAPERS)
def test_eight_poker_cards_lie_sideways_centred_inside_the_margins_with_their_bleed(paper):
    sheet = layout.card_sheet(paper)
    printable = layout.printable_rect(paper)
    assert len(sheet.fronts) == 8
    assert all((slot.w, slot.h) == (88.0, 63.0) for slot in sheet.fronts)
    assert all(printable.contains(bleed) for bleed in sheet.bleeds)
    assert sheet.area.cx == pytest.approx(sheet.page.w / 2)
    assert sheet.area.cy == pytest.approx(sheet.page.h / 2)
    for a, b in itertools.combinations(sheet.fronts, 2):
        assert not a.overlaps(b)


@pytest.mark.parametrize("paper", PAPERS)
def test_fronts_are_in_reading_order(paper):
    fronts = layout.card_sheet(paper).fronts
    assert fronts[0].x < fronts[1].x
    assert fronts[0].y == fronts[1].y > fronts[2].y > fronts[4].y > fronts[6].y == fronts[7].y


@pytest.mark.parametrize("paper", PAPERS)
def test_long_edge_backs_mirror_the_columns(paper):
    sheet = layout.card_sheet(paper)
    backs = sheet.backs("long")
    for row in range(4):
        for col in range(2):
            assert astuple(backs[2 * row + col]) == pytest.approx(astuple(sheet.fronts[2 * row + 1 - col]))
    for front, back in zip(sheet.fronts, backs, strict=True):
        assert back.cx == pytest.approx(sheet.page.w - front.cx)
        assert back.y == front.y


@pytest.mark.parametrize("paper", PAPERS)
def test_short_edge_backs_mirror_the_rows(paper):
    sheet = layout.card_sheet(paper)
    backs = sheet.backs("short")
    for row in range(4):
        for col in range(2):
            assert astuple(backs[2 * row + col]) == pytest.approx(astuple(sheet.fronts[2 * (3 - row) + col]))


@pytest.mark.parametrize("paper", PAPERS)
def test_the_outer_edges_bleed_3_mm_and_the_edges_where_cards_meet_do_not(paper):
    sheet = layout.card_sheet(paper)
    area = sheet.area
    sides = [(sheet.fronts, sheet.bleeds)] + [
        (sheet.backs(d), sheet.back_bleeds(d)) for d in ("long", "short")
    ]
    for slots, bleeds in sides:
        for slot, bleed in zip(slots, bleeds, strict=True):
            assert slot.x - bleed.x == pytest.approx(BLEED if slot.x == pytest.approx(area.x) else 0)
            assert bleed.right - slot.right == pytest.approx(
                BLEED if slot.right == pytest.approx(area.right) else 0
            )
            assert slot.y - bleed.y == pytest.approx(BLEED if slot.y == pytest.approx(area.y) else 0)
            assert bleed.top - slot.top == pytest.approx(BLEED if slot.top == pytest.approx(area.top) else 0)


@pytest.mark.parametrize("paper", PAPERS)
def test_cut_guides_lie_outside_the_bleed_and_8_mm_from_the_paper_s_edge(paper):
    sheet = layout.card_sheet(paper)
    clear = sheet.page.inset(8.0)
    for guide in sheet.guides:
        assert clear.contains(guide.bounds)
        assert not any(bleed.inset(-GUIDE_CLEARANCE).overlaps(guide.bounds) for bleed in sheet.bleeds)
    for span in sheet.header + sheet.footer:
        assert clear.contains(span)
        assert not any(bleed.overlaps(span) for bleed in sheet.bleeds)


def test_an_asymmetric_slot_mirrors_about_the_page_not_the_cards():
    page = layout.page_rect("a4")
    slot = Rect(10.0, 20.0, 30.0, 40.0)
    assert slot.mirrored(page, "long") == Rect(170.0, 20.0, 30.0, 40.0)
    assert slot.mirrored(page, "short") == Rect(10.0, 237.0, 30.0, 40.0)
    with pytest.raises(ValueError, match="duplex"):
        slot.mirrored(page, "sideways")


@pytest.mark.parametrize("paper", PAPERS)
def test_cut_guides_stay_in_the_printable_margins(paper):
    sheet = layout.card_sheet(paper)
    printable = layout.printable_rect(paper)
    keep_out = sheet.area.inset(-BLEED - GUIDE_CLEARANCE)
    for guide in sheet.guides:
        assert printable.contains(guide.bounds)
        assert not keep_out.overlaps(guide.bounds)
        assert max(guide.bounds.w, guide.bounds.h) >= MIN_GUIDE


@pytest.mark.parametrize("paper", PAPERS)
def test_every_cut_line_has_a_guide_on_both_opposite_margins(paper):
    sheet = layout.card_sheet(paper)
    area = sheet.area
    assert (len(sheet.cuts_x), len(sheet.cuts_y)) == (3, 5)
    for x in sheet.cuts_x:
        on_line = [g.bounds for g in sheet.guides if g.x1 == g.x2 == x]
        assert any(b.y >= area.top for b in on_line), "no guide above the cards"
        assert any(b.top <= area.y for b in on_line), "no guide below the cards"
    for y in sheet.cuts_y:
        on_line = [g.bounds for g in sheet.guides if g.y1 == g.y2 == y]
        assert any(b.right <= area.x for b in on_line), "no guide left of the cards"
        assert any(b.x >= area.right for b in on_line), "no guide right of the cards"


def test_a_gap_between_cards_doubles_the_cut_lines():
    sheet = layout.card_sheet("a4", CardSpec(width=56, height=70, gap=3))
    assert len(sheet.cuts_x) == len(sheet.cuts_y) == 6
    assert len(sheet.guides) == 2 * 12


@pytest.mark.parametrize("paper", PAPERS)
def test_margin_labels_keep_clear_of_cards_and_guides(paper):
    sheet = layout.card_sheet(paper)
    printable = layout.printable_rect(paper)
    spans = sheet.header + sheet.footer
    assert len(sheet.header) == len(sheet.footer) >= 2
    for span in spans:
        assert printable.contains(span)
        assert not span.overlaps(sheet.area)
        assert not any(span.overlaps(guide.bounds.inset(-0.5)) for guide in sheet.guides)


def test_letter_labels_run_up_the_side_margins_a4_labels_across():
    assert layout.card_sheet("a4").vertical_labels is False
    assert layout.card_sheet("letter").vertical_labels is True


@pytest.mark.parametrize(
    ("paper", "spec"),
    [
        ("a4", CardSpec(columns=4)),
        ("letter", CardSpec(rows=4)),
        ("a4", CardSpec(width=66, height=92)),
        ("letter", CardSpec(gap=2)),
    ],
)
def test_a_sheet_that_does_not_fit_is_refused(paper, spec):
    with pytest.raises(ValueError, match="do not fit"):
        layout.card_sheet(paper, spec)


@pytest.mark.parametrize(
    "kwargs",
    [{"width": 0}, {"height": -5}, {"columns": 0}, {"rows": 2.5}, {"gap": -1}],
)
def test_an_impossible_card_spec_is_refused_when_made(kwargs):
    with pytest.raises(ValueError):
        CardSpec(**kwargs)


def test_cards_too_narrow_for_the_calibration_bar_are_refused():
    with pytest.raises(ValueError, match="calibration bar"):
        layout.card_sheet("a4", CardSpec(width=40, height=60, columns=4, rows=4))


def test_an_unknown_paper_is_refused():
    with pytest.raises(ValueError, match="paper"):
        layout.page_rect("a5")


@pytest.mark.parametrize("paper", PAPERS)
def test_page_frame_parts_are_inside_the_page_and_apart(paper):
    frame = layout.page_frame(paper)
    printable = layout.printable_rect(paper)
    parts = [frame.header, frame.qr, frame.description, frame.content, frame.footer]
    assert all(printable.contains(part) for part in parts)
    for a, b in itertools.combinations(parts, 2):
        assert not a.overlaps(b)
    assert frame.qr.w == frame.qr.h == layout.QR_SIZE


def test_grid_cells_tile_the_rectangle_top_row_first():
    cells = layout.grid_cells(Rect(0, 0, 30, 20), columns=3, rows=2)
    assert cells[0][0] == Rect(0, 10, 10, 10)
    assert cells[1][2] == Rect(20, 0, 10, 10)
    with pytest.raises(ValueError):
        layout.grid_cells(Rect(0, 0, 1, 1), columns=0, rows=1)


@given(
    paper=st.sampled_from(PAPERS),
    width=st.floats(20, 120),
    height=st.floats(20, 160),
    columns=st.integers(1, 6),
    rows=st.integers(1, 6),
    gap=st.floats(0, 5),
)
def test_any_spec_is_either_refused_or_printable(paper, width, height, columns, rows, gap):
    spec = CardSpec(width, height, columns, rows, gap)
    try:
        sheet = layout.card_sheet(paper, spec)
    except ValueError:
        return
    printable = layout.printable_rect(paper)
    assert all(printable.contains(bleed) for bleed in sheet.bleeds)
    assert all(printable.contains(bleed) for bleed in sheet.back_bleeds("long") + sheet.back_bleeds("short"))
    assert min(sheet.area.x, sheet.area.y) >= MIN_MARGIN + BLEED
    assert not any(sheet.area.inset(-BLEED).overlaps(guide.bounds) for guide in sheet.guides)
    for a, b in itertools.combinations(sheet.fronts, 2):
        assert not a.overlaps(b)
