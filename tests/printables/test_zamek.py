"""Zamek's sheets read back: the deck's 45 cards, tiles and deck card, the layout, the score pad."""

from __future__ import annotations

import re

import pytest

from companion.rules import zamek
from printables import PAPERS

BASE_URL = "http://192.168.1.20:5000"
DECK_URL = f"{BASE_URL}/zamek/?deck=zamek-default@1"


def fronts(reader) -> str:
    """The text of every page of card fronts."""
    return "\n".join(page.extract_text() for page in reader.pages if "Fronts, page" in page.extract_text())


@pytest.mark.parametrize("paper", PAPERS)
def test_the_deck_is_45_cards_four_tiles_and_a_deck_card_with_their_backs(paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf("zamek-deck", paper=paper))
    assert (
        len(reader.pages) == 2 + 7 * 2
    )  # the information sheet; then 50 faces, eight a page, each with its backs
    text = fronts(reader)
    numbers = [int(n) for n in re.findall(r"\b(\d{1,2})\b", text)]
    for number in range(2, 47):
        assert numbers.count(number) >= 3, number  # big, and in two corners
    assert "50 cards on 14 pages after this sheet" in reader.pages[0].extract_text()


def test_every_picture_card_shows_its_picture_in_english_and_polish(build_pdf, read_pdf):
    text = fronts(read_pdf(build_pdf("zamek-deck")))
    deck = zamek.default_deck()
    lines = [line.strip() for line in text.splitlines()]
    assert lines.count("Knight") == lines.count("Rycerz") == len(deck["knights"])
    assert lines.count("Princess") == lines.count("Księżniczka") == len(deck["princesses"])
    for english, polish in (("King", "Król"), ("Queen", "Królowa"), ("Wizard", "Czarnoksiężnik")):
        assert english in text and polish in text
    for english, polish in (
        ("Red", "Czerwony"),
        ("Blue", "Niebieski"),
        ("Green", "Zielony"),
        ("Yellow", "Żółty"),
    ):
        assert english in text and polish in text


@pytest.mark.parametrize("paper", PAPERS)
def test_the_deck_cards_qr_code_names_the_deck(paper, build_pdf, read_pdf, render, scan):
    data = build_pdf("zamek-deck", paper=paper, base_url=BASE_URL)
    page = 15  # the seventh page of fronts: the tiles and the deck card
    words = read_pdf(data).pages[page - 1].extract_text()
    assert "Castellan's default Zamek deck" in words and "zamek-default@1" in words
    assert scan(render(data, page)) == [DECK_URL]


def test_the_deck_cards_address_shows_that_deck(browser):
    page = browser.get(DECK_URL.replace(BASE_URL, "")).data.decode()
    assert "zamek-default@1</strong>, Castellan's default deck" in page


@pytest.mark.parametrize("slug", ["zamek-deck", "zamek-score-pad"])
def test_every_zamek_sheet_says_which_deck_it_uses(slug, build_pdf, read_pdf):
    for page in read_pdf(build_pdf(slug)).pages:
        assert "zamek-default@1" in page.extract_text()


def test_the_layout_says_on_its_first_page_which_deck_castellan_prints(build_pdf, read_pdf):
    """The layout takes any deck of the size; its first page names the deck Castellan prints."""
    assert "Castellan prints zamek-default@1" in read_pdf(build_pdf("zamek-layout")).pages[0].extract_text()


@pytest.mark.parametrize(("paper", "pages"), [("a4", 9), ("letter", 9), ("a3", 4), ("tabloid", 6)])
def test_the_layout_numbers_the_places_1_to_45_each_on_one_page(paper, pages, build_pdf, read_pdf):
    reader = read_pdf(build_pdf("zamek-layout", paper=paper))
    assert len(reader.pages) == pages
    big = []  # the numbers printed big, one on each place

    def visit(text, cm, tm, font, size):
        if tm[0] * size > 20 and text.strip():
            big.append(int(text))

    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    assert sorted(big) == list(range(1, 46))


def test_the_score_pad_has_the_breakdown_the_tie_break_and_the_pictures(build_pdf, read_pdf):
    text = read_pdf(build_pdf("zamek-score-pad")).pages[0].extract_text()
    for words in (
        "Knights",
        "Princess–knight pairs",
        "Total",
        "the tied castle holding the king wins",
        "King 41, queen 34, wizard 18",
        "wizard 18; knights 3, 9, 15, 22, 28, 37, 44;",  # one sentence: lower case after ";"
    ):
        assert words in text


def test_the_rich_card_backs_are_dark_and_the_ink_saver_makes_them_outlines(build_pdf, render, dark_fraction):
    full = dark_fraction(render(build_pdf("zamek-deck", rich_backs=True), 4, dpi=40))
    saver = dark_fraction(render(build_pdf("zamek-deck", ink_saver=True), 4, dpi=40))
    assert full > 0.5
    assert saver < full / 5


@pytest.mark.parametrize("paper", PAPERS)
def test_the_coloured_tiles_run_their_colour_3_mm_past_every_free_cut_line(paper, build_pdf, render):
    """A full-colour face bleeds like a back: a cut a millimetre or two off leaves no white sliver.
    The yellow tile is the first card of the last page of fronts, the deck card beside it."""
    from printables import layout
    from printables.zamek import TILE_COLOURS

    geometry = layout.card_sheet(paper)
    image = render(build_pdf("zamek-deck", paper=paper), 2 + 2 * 6 + 1, dpi=100, mode="RGB")
    px = 100 / 25.4
    slot, bleed = geometry.fronts[0], geometry.bleeds[0]
    yellow = tuple(int(TILE_COLOURS[3][1][i : i + 2], 16) for i in (1, 3, 5))

    def colour_at(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x * px), round((geometry.page.h - y) * px)))

    free = [
        (slot.x - 1.5, slot.cy),
        (slot.cx, slot.y - 1.5),
        (slot.cx, slot.top + 1.5),
        (slot.right + 1.5, slot.cy),
    ]
    free = [(x, y) for x, y in free if bleed.contains(layout.Rect(x, y, 0, 0))]
    inside = [
        (slot.x + 1, slot.cy),
        (slot.cx, slot.y + 1),
        (slot.cx, slot.top - 1),
        (slot.right - 1, slot.cy),
    ]
    assert len(free) >= 2  # the tile has free sides, where it must bleed
    for x, y in free + inside:
        assert all(abs(a - b) <= 12 for a, b in zip(colour_at(x, y), yellow, strict=True)), (
            x,
            y,
            colour_at(x, y),
        )
