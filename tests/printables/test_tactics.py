"""Square Tactics' sheets read back: every shipped faction's deck and backs, the two mats, the score pad."""

from __future__ import annotations

import re

import pytest

from companion.rules import tactics
from printables import layout

BASE_URL = "http://192.168.1.20:5000"
FACTIONS = tactics.load_factions()
MM = 72 / 25.4  # points in a millimetre
PAGE_POINTS = {"a4": (595, 842), "letter": (612, 792)}


def pages_with(reader, words: str) -> list[str]:
    return [page.extract_text() for page in reader.pages if words in page.extract_text()]


@pytest.mark.parametrize("faction_id", sorted(FACTIONS))
def test_each_faction_prints_every_card_with_its_name_and_four_numbers(faction_id, build_pdf, read_pdf):
    faction = FACTIONS[faction_id]
    reader = read_pdf(build_pdf(f"tactics-{faction_id}"))
    chunks = -(-len(faction["cards"]) // 8)
    assert len(reader.pages) == 2 + 2 * chunks  # the information sheet, then fronts and backs
    fronts = "\n".join(pages_with(reader, "Fronts, page"))
    lines = [line.strip() for line in fronts.splitlines()]
    for card in faction["cards"]:
        assert card["name"] in lines, card["name"]
    numbers = [int(n) for n in re.findall(r"^\s*([1-9])\s*$", fronts, re.M)]
    expected = sorted(number for card in faction["cards"] for number in card["edges"])
    assert sorted(numbers) == expected
    backs = "\n".join(pages_with(reader, "Backs, page"))
    assert backs.count(faction["name"].upper()) == len(faction["cards"])


def test_a_card_puts_each_number_on_its_own_edge(build_pdf, read_pdf):
    """The first card's numbers, located on the card (which lies sideways, its top to the left of the
    page): top highest, bottom lowest, left and right beside."""
    card = FACTIONS["wardens"]["cards"][0]
    placed = layout.card_sheet("a4").fronts[0]
    page = read_pdf(build_pdf("tactics-wardens")).pages[2]
    found = []

    def visit(t, cm, tm, *_):
        x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.append((t.strip(), x / MM, y / MM))

    page.extract_text(visitor_text=visit)
    slot = layout.Rect(0, 0, placed.h, placed.w)  # the card upright: its x runs up the page, its y leftwards
    inside = [
        (int(t), y - placed.y, placed.right - x)
        for t, x, y in found
        if t.isdigit() and placed.x <= x <= placed.right and placed.y <= y <= placed.top
    ]
    assert len(inside) == 4
    top, bottom = max(inside, key=lambda n: n[2]), min(inside, key=lambda n: n[2])
    left, right = min(inside, key=lambda n: n[1]), max(inside, key=lambda n: n[1])
    assert [top[0], right[0], bottom[0], left[0]] == card["edges"]
    assert top[2] > slot.cy + 30 and bottom[2] < slot.cy - 30
    assert left[1] < slot.cx - 15 and right[1] > slot.cx + 15


@pytest.mark.parametrize(
    ("paper", "pages_3x3", "pages_4x4"), [("a4", 2, 4), ("letter", 2, 4), ("a3", 1, 2), ("tabloid", 1, 2)]
)
@pytest.mark.parametrize(
    ("slug", "size", "seats"), [("tactics-mat-3x3", 3, "SN"), ("tactics-mat-4x4", 4, "SWNE")]
)
def test_the_mats_name_every_cell_and_seat(
    slug, size, seats, paper, pages_3x3, pages_4x4, build_pdf, read_pdf, render, scan
):
    data = build_pdf(slug, paper=paper, base_url=BASE_URL)
    reader = read_pdf(data)
    assert len(reader.pages) == (pages_3x3 if size == 3 else pages_4x4)
    text = " ".join(page.extract_text() for page in reader.pages)
    for cell in tactics.cells(size):
        assert cell in text
    assert text.count("+3") == (1 if size == 3 else 4)
    for seat in seats:
        assert f"Seat {seat}" in text
    assert "a cell holds a card (63 x 88 mm)" in text
    assert scan(render(data, 1, dpi=150)) == [f"{BASE_URL}/tactics/"]


def test_the_score_pad_has_three_games_and_the_match(build_pdf, read_pdf):
    text = read_pdf(build_pdf("tactics-score-pad", paper="letter")).pages[0].extract_text()
    for words in (
        "Game 1",
        "Game 2",
        "Game 3",
        "Corners × 1",
        "Sides × 2",
        "Centres × 3",
        "Captured",
        "Match: total of the three games",
    ):
        assert words in text


def test_every_tactics_sheet_is_on_the_print_page(browser):
    html = browser.get("/print").data.decode()
    for slug in [f"tactics-{faction_id}" for faction_id in FACTIONS] + [
        "tactics-mat-3x3",
        "tactics-mat-4x4",
        "tactics-score-pad",
    ]:
        assert f"/print/{slug}.pdf" in html


def test_the_backs_are_coloured_and_the_ink_saver_makes_them_outlines(build_pdf, render, dark_fraction):
    full = dark_fraction(render(build_pdf("tactics-roost", rich_backs=True), 4, dpi=40))
    saver = dark_fraction(render(build_pdf("tactics-roost", ink_saver=True), 4, dpi=40))
    assert full > 0.4
    assert saver < full / 5


def test_tactics_sheets_print_the_game_s_full_name():
    import io

    from pypdf import PdfReader

    import printables

    out = io.BytesIO()
    printables.build("tactics-score-pad", out, paper="a4", base_url="http://10.0.0.2:5000")
    text = PdfReader(io.BytesIO(out.getvalue())).pages[0].extract_text()
    assert "SQUARE TACTICS" in text.upper()
