"""Every sheet, read back as a person and a phone would: page size, pages, text, QR code.

Also the framework itself: discovery, determinism, the embedded font, the card-sheet
engine's page order and mirrored backs, and the ink saver.
"""

from __future__ import annotations

import pytest
import qrcode
from qrcode.constants import ERROR_CORRECT_L, ERROR_CORRECT_M
from qrcode.util import BCH_type_info

import printables
from printables import Sheet
from printables.draw import CALIBRATION_SENTENCE, qr_matrix
from printables.layout import Rect

SHEETS = printables.all_sheets()
CASES = [(sheet, paper) for sheet in SHEETS for paper in sheet.papers]
IDS = [f"{sheet.slug}-{paper}" for sheet, paper in CASES]
PAGE_POINTS = {
    "a4": (595.28, 841.89),
    "letter": (612.0, 792.0),
    "a3": (841.89, 1190.55),
    "tabloid": (792.0, 1224.0),
}
BASE_URL = "http://192.168.1.20:5000"


def expected_url(sheet: Sheet) -> str:
    """Where a sheet's QR code must lead."""
    return f"{BASE_URL}/" if sheet.game == "castellan" else f"{BASE_URL}/{sheet.game}/"


def game_name(sheet: Sheet) -> str:
    """The game's name as the sheet prints it."""
    return sheet.game.replace("-", " ").title()


def card_sheet(faces: int) -> Sheet:
    """A test sheet of `faces` framed cards, each with a black back."""

    def back(doc, slot: Rect) -> None:
        doc.box(slot, fill="#000000")

    def draw(doc) -> None:
        doc.card_sheet([lambda doc, slot: doc.box(slot.inset(3))] * faces, back)

    return Sheet("test-cards", "fort", "Test cards", "Cards for the tests.", draw)


def test_the_proof_sheets_are_discovered():
    slugs = {sheet.slug for sheet in SHEETS}
    assert {"blank-cards", "score-pad"} <= slugs
    assert len(slugs) == len(SHEETS)


def test_sheets_are_sorted_by_game_then_title():
    keys = [(sheet.game, str(sheet.title)) for sheet in printables.all_sheets()]  # a title may be a Message
    assert keys == sorted(keys)


def test_get_sheet_finds_a_slug_and_refuses_an_unknown_one():
    assert printables.get_sheet("score-pad").title == "Score pad"
    with pytest.raises(KeyError):
        printables.get_sheet("no-such-sheet")


def test_bad_options_are_refused(build_pdf):
    with pytest.raises(ValueError, match="paper"):
        build_pdf("score-pad", paper="a5")
    with pytest.raises(ValueError, match="paper"):
        build_pdf("score-pad", paper="a3")  # A3 and Tabloid are for mats
    with pytest.raises(ValueError, match="duplex"):
        build_pdf("score-pad", duplex="sideways")


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_every_page_has_the_paper_size(sheet, paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf(sheet, paper=paper))
    assert len(reader.pages) >= 1
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width, height) == pytest.approx(PAGE_POINTS[paper], abs=0.01)


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_every_page_names_the_game_and_sheet_and_says_how_to_calibrate(sheet, paper, build_pdf, read_pdf):
    pages = read_pdf(build_pdf(sheet, paper=paper)).pages
    for page in pages[:1] if sheet.kind == "kit" else pages:  # a kit's other pages: its sheets' (test_kit)
        text = page.extract_text()
        assert game_name(sheet).lower() in text.lower()
        assert str(sheet.title) in " ".join(text.split())  # in English: a Message says itself in English
        assert CALIBRATION_SENTENCE in text


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_the_same_options_give_the_same_bytes(sheet, paper, build_pdf):
    first = build_pdf(sheet, paper=paper, base_url=BASE_URL)
    assert build_pdf(sheet, paper=paper, base_url=BASE_URL) == first
    assert build_pdf(sheet, paper=paper, base_url=BASE_URL, ink_saver=True) != first


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_the_first_page_qr_code_leads_to_the_game(sheet, paper, build_pdf, render, scan):
    assert scan(render(build_pdf(sheet, paper=paper, base_url=BASE_URL), 1)) == [expected_url(sheet)]


@pytest.mark.parametrize(("sheet", "paper"), CASES, ids=IDS)
def test_the_ink_saver_leaves_no_filled_background(sheet, paper, build_pdf, read_pdf, render, dark_fraction):
    data = build_pdf(sheet, paper=paper, ink_saver=True)
    for number in range(1, len(read_pdf(data).pages) + 1):
        assert dark_fraction(render(data, number, dpi=40)) < 0.12


def test_the_ink_saver_draws_the_card_backs_as_outlines(build_pdf, render, dark_fraction):
    full = dark_fraction(render(build_pdf("blank-cards", rich_backs=True), 4, dpi=40))
    saver = dark_fraction(render(build_pdf("blank-cards", ink_saver=True), 4, dpi=40))
    assert full > 0.5
    assert saver < full / 5


def test_blank_cards_are_the_information_sheet_then_a_page_of_fronts_and_a_page_of_backs(build_pdf, read_pdf):
    texts = [page.extract_text() for page in read_pdf(build_pdf("blank-cards")).pages]
    assert len(texts) == 4
    assert "How to print" in texts[0]
    assert "Print at 100 %, double-sided, flip on long edge" in texts[0]
    assert "Duplex check" in texts[1]
    assert "Fronts, page 1 of 1" in texts[2]
    assert "Backs, page 1 of 1" in texts[3]


def test_the_information_page_follows_the_short_edge_option(build_pdf, read_pdf):
    first = read_pdf(build_pdf("blank-cards", duplex="short")).pages[0].extract_text()
    assert "flip on short edge" in first


def test_ten_cards_take_the_information_sheet_then_two_pairs_of_pages(build_pdf, read_pdf):
    texts = [page.extract_text() for page in read_pdf(build_pdf(card_sheet(10))).pages]
    assert len(texts) == 6
    assert "How to print" in texts[0]
    assert ["Fronts, page 1 of 2" in texts[2], "Backs, page 1 of 2" in texts[3]] == [True, True]
    assert ["Fronts, page 2 of 2" in texts[4], "Backs, page 2 of 2" in texts[5]] == [True, True]


@pytest.mark.parametrize(
    ("duplex", "dark_corner", "white_corner"),
    [("long", "top right", "top left"), ("short", "bottom left", "top left")],
)
def test_a_lone_card_has_its_back_behind_it(
    duplex, dark_corner, white_corner, build_pdf, render, dark_fraction
):
    image = render(build_pdf(card_sheet(1), duplex=duplex), 4, dpi=40)
    assert dark_fraction(image, _corner_box(image, dark_corner)) > 0.9
    assert dark_fraction(image, _corner_box(image, white_corner)) < 0.05


def test_polish_and_french_round_trip_through_the_embedded_font(build_pdf, read_pdf):
    phrase = "Łódź żółć, ça été"

    def draw(doc) -> None:
        doc.frame()
        doc.text(20, 150, phrase, size=14)
        doc.text(20, 140, phrase, size=14, bold=True)

    reader = read_pdf(build_pdf(Sheet("test-font", "zamek", "Zażółć gęślą jaźń", "Ça été.", draw)))
    text = reader.pages[0].extract_text()
    assert text.count(phrase) == 2
    assert "Zażółć gęślą jaźń" in text
    fonts = reader.pages[0]["/Resources"]["/Font"]
    descriptors = [font.get_object()["/FontDescriptor"] for font in fonts.values()]
    assert descriptors and all("/FontFile2" in descriptor for descriptor in descriptors)
    assert all("DejaVuSans" in font.get_object()["/BaseFont"] for font in fonts.values())


def test_a_qr_code_with_too_small_modules_is_refused(build_pdf):
    def draw(doc) -> None:
        doc.qr("http://localhost:5000/castle/", Rect(10, 10, 10, 10))

    with pytest.raises(ValueError, match="QR code"):
        build_pdf(Sheet("test-qr", "castle", "QR", "A QR code.", draw))


def test_qr_codes_use_level_m_with_the_full_quiet_zone():
    matrix = qr_matrix("http://localhost:5000/castle/")
    quiet = [row[:4] + row[-4:] for row in matrix] + [*matrix[:4], *matrix[-4:]]
    assert not any(any(row) for row in quiet)
    assert _error_correction(matrix) == ERROR_CORRECT_M
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_L)
    code.add_data("http://localhost:5000/castle/")
    assert _error_correction(code.get_matrix()) == ERROR_CORRECT_L


def test_the_frame_qr_code_has_modules_of_half_a_millimetre_or_more():
    matrix = qr_matrix(f"{BASE_URL}/forteresse/")
    assert printables.layout.QR_SIZE / len(matrix) >= 0.5


def _corner_box(image, corner: str) -> tuple[int, int, int, int]:
    """A small box well inside the top-left, top-right or bottom-left card slot."""
    sheet = printables.layout.card_sheet("a4")
    slot = {"top left": sheet.fronts[0], "top right": sheet.fronts[1], "bottom left": sheet.fronts[-2]}[
        corner
    ]
    scale = image.width / sheet.page.w
    inner = slot.inset(10)
    top = sheet.page.h - inner.top
    return (
        round(inner.x * scale),
        round(top * scale),
        round(inner.right * scale),
        round((top + inner.h) * scale),
    )


def _error_correction(matrix: list[list[bool]]) -> int:
    """The error correction level written in a QR matrix's format bits (column 8)."""
    modules = [row[4:-4] for row in matrix[4:-4]]
    n = len(modules)
    rows = [*range(6), 7, 8, *range(n - 7, n)]
    bits = sum(int(modules[r][8]) << i for i, r in enumerate(rows))
    levels = {BCH_type_info((level << 3) | mask): level for level in range(4) for mask in range(8)}
    return levels[bits]
