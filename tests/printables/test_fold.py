"""Fold-over decks, for printers without duplex: each card's front beside its back on one side.

The geometry (``layout.fold_sheet``): true-size cards, each back the mirror of its front across
its fold, cut lines around the pairs and never on a fold, bleed on the outer edges only. Read
back from the PDFs: every deck on every paper, one-sided, with the back of each card landing
behind its front once folded (a pdftoppm render), and nothing within 8 mm of the paper's edge.
"""

from __future__ import annotations

import math
import re

import pytest
from PIL import Image, ImageOps

import printables
from companion import cli
from printables import LARGE_PAPERS, PAPERS, Sheet, layout
from tests.printables.test_print_quality import box, px

ALL_PAPERS = PAPERS + LARGE_PAPERS
DECKS = [sheet for sheet in printables.all_sheets() if sheet.kind in printables.FOLDABLE]
PER_PAGE = {"a4": 4, "letter": 4, "a3": 9, "tabloid": 6}
CARDS = {"castle-deck": 52, "blank-cards": 8, "zamek-deck": 50}


def test_every_deck_comes_as_fold_over_cards():
    slugs = {sheet.slug for sheet in DECKS}
    assert {"castle-deck", "blank-cards", "zamek-deck"} <= slugs
    assert sum(slug.startswith("tactics-") for slug in slugs) == 4


@pytest.mark.parametrize("paper", ALL_PAPERS)
def test_fold_over_cards_are_true_size_and_each_back_mirrors_its_front_across_its_fold(paper):
    sheet = layout.fold_sheet(paper)
    assert len(sheet.fronts) == PER_PAGE[paper]
    for front, back, fold, bleed, back_bleed in zip(
        sheet.fronts, sheet.backs, sheet.folds, sheet.bleeds, sheet.back_bleeds, strict=True
    ):
        assert (front.w, front.h) == (back.w, back.h) == (88.0, 63.0)  # 63 x 88 mm, lying sideways
        assert back.x == front.x and fold in (front.y, front.top)
        assert back.top - fold == pytest.approx(fold - front.y) and fold - back.y == pytest.approx(
            front.top - fold
        )
        for card, grown in ((front, bleed), (back, back_bleed)):
            beside = [other for other in (*sheet.fronts, *sheet.backs) if other.y == card.y and other != card]
            left = 0 if any(other.right == card.x for other in beside) else layout.BLEED
            right = 0 if any(other.x == card.right for other in beside) else layout.BLEED
            assert (card.x - grown.x, grown.right - card.right) == (left, right)
            at_fold = (grown.top - card.top) if card.top == pytest.approx(fold) else (card.y - grown.y)
            assert at_fold == 0  # no bleed across the fold
    assert not set(sheet.folds) & set(sheet.cuts_y)  # cut lines stay off the folds
    assert min(sheet.folds) > min(sheet.cuts_y) and max(sheet.folds) < max(sheet.cuts_y)
    printable = layout.printable_rect(paper)
    for guide in (*sheet.guides, *sheet.fold_guides):
        assert printable.contains(guide.bounds)


@pytest.mark.parametrize("paper", ALL_PAPERS)
@pytest.mark.parametrize("sheet", DECKS, ids=[sheet.slug for sheet in DECKS])
def test_every_deck_prints_fold_over_on_every_paper_one_sided(sheet, paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf(sheet, paper=paper, fold=True))
    first = " ".join(reader.pages[0].extract_text().split())
    assert "Fold-over cards: print at 100 %, one-sided." in first
    pages = int(re.search(r"(\d+) pages? of cards after this one", first)[1])
    if sheet.slug in CARDS:
        assert pages == math.ceil(CARDS[sheet.slug] / PER_PAGE[paper])
    assert len(reader.pages) == 1 + pages
    assert "/Duplex" not in reader.trailer["/Root"]["/ViewerPreferences"]
    assert "Fold-over, page 1 of" in reader.pages[1].extract_text()


@pytest.mark.parametrize("paper", ALL_PAPERS)
def test_folded_each_back_lands_behind_its_front_and_turned_like_it(paper, build_pdf, render):
    """Fronts have a black square in their top-left corner; backs are black with a white square in
    their top-right corner. Folded over the fold (the back's half mirrored across it), each back
    lies on its front and its white square on the front's black one."""

    def face(doc, slot):
        doc.box(layout.Rect(slot.x + 6, slot.top - 16, 10, 10), stroke=None, fill="#000000")

    def back(doc, slot):
        doc.box(slot.inset(3), stroke=None, fill="#000000")
        doc.box(layout.Rect(slot.right - 16, slot.top - 16, 10, 10), stroke=None, fill="#ffffff")

    sheet = Sheet(
        "test-fold", "castellan", "T", "F.", lambda doc: doc.card_sheet([face] * 9, back), kind="cards"
    )
    geometry = layout.fold_sheet(paper)
    page = render(build_pdf(sheet, paper=paper, fold=True), 2, dpi=100)
    tolerance = px(0.5, 100)
    for front, behind in zip(geometry.fronts, geometry.backs, strict=True):
        folded = ImageOps.flip(page.crop(box(behind, geometry.page, 100)))  # mirrored across the fold
        mark = page.crop(box(front, geometry.page, 100)).point(lambda v: 255 if v < 128 else 0).getbbox()
        dark = folded.point(lambda v: 255 if v < 128 else 0)
        left, top, right, bottom = dark.getbbox()
        assert (left + right) / 2 == pytest.approx(dark.width / 2, abs=tolerance)
        assert (top + bottom) / 2 == pytest.approx(dark.height / 2, abs=tolerance)
        inner = (
            round(px(4, 100)),
            round(px(4, 100)),
            dark.width - round(px(4, 100)),
            dark.height - round(px(4, 100)),
        )
        hole = folded.crop(inner).point(lambda v: 255 if v > 128 else 0).getbbox()
        mark_inner = page.crop(box(front.inset(4), geometry.page, 100)).point(lambda v: 255 if v < 128 else 0)
        assert mark is not None and hole is not None
        assert all(abs(a - b) <= tolerance for a, b in zip(hole, mark_inner.getbbox(), strict=True))


@pytest.mark.parametrize("paper", ALL_PAPERS)
def test_nothing_of_a_fold_over_deck_lies_within_8_mm_of_the_edge(paper, build_pdf, render):
    data = build_pdf("tactics-roost", paper=paper, fold=True)
    border = math.floor(px(7.8, 30))
    image = render(data, 2, dpi=30)
    inner = Image.new("L", (image.width - 2 * border, image.height - 2 * border), 255)
    image.paste(inner, (border, border))
    assert min(image.get_flattened_data()) > 245


def test_a_sheet_that_is_not_a_deck_has_no_fold_over_cards(build_pdf):
    with pytest.raises(ValueError, match="not a deck"):
        build_pdf("castle-mat", fold=True)
    with pytest.raises(ValueError, match="paper must be one of"):
        build_pdf("castle-deck", paper="a3")  # large papers are for fold-over decks and mats


def test_castellan_print_fold(tmp_path, build_pdf, capsys):
    out = tmp_path / "deck.pdf"
    base = ["-o", str(out), "--base-url", "http://localhost:5000"]
    assert cli.main(["print", "zamek-deck", "--fold", "--paper", "tabloid", *base]) == 0
    assert out.read_bytes() == build_pdf("zamek-deck", paper="tabloid", fold=True)
    assert cli.main(["print", "score-pad", "--fold", *base]) == 2
    assert "not a deck" in capsys.readouterr().err


def test_the_print_page_offers_fold_over_decks_on_four_papers(app):
    client = app.test_client()
    page = client.get("/print?layout=fold").get_data(as_text=True)
    assert "/print/castle-deck.pdf?paper=tabloid&amp;layout=fold" in page
    assert "/print/score-pad.pdf?paper=a4&amp;layout=fold" in page  # not a deck: the sheet ignores it
    assert "/print/castle-deck.pdf?paper=a3" not in client.get("/print").get_data(as_text=True)
    pdf = client.get("/print/castle-deck.pdf?paper=a3&layout=fold&lang=en")
    assert pdf.status_code == 200 and "castle-deck-fold-a3.pdf" in pdf.headers["Content-Disposition"]
    pad = client.get("/print/score-pad.pdf?paper=a4&layout=fold&lang=en")  # a link of the page: not a deck
    assert pad.status_code == 200 and pad.data == client.get("/print/score-pad.pdf?paper=a4&lang=en").data
    assert client.get("/print/score-pad.pdf?paper=a3&layout=fold").status_code == 404
