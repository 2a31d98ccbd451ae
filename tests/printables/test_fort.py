"""Fort's sheets read back: page size and count, the rules' numbers in the text, the tracker's boxes, QR code."""

from __future__ import annotations

import re

import pytest

from companion.rules import fort
from printables import fort as printables_fort
from printables.layout import page_frame, page_rect

BASE_URL = "http://192.168.1.20:5000"


def _text(reader) -> str:
    return re.sub(r"\s+", " ", reader.pages[0].extract_text())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", ["fort-reference", "fort-challenge-tracker"])
def test_each_sheet_is_one_page_of_the_chosen_paper(slug, paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf(slug, paper=paper))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    page = page_rect(paper)
    assert abs(float(box.width) / 72 * 25.4 - page.w) < 0.5
    assert abs(float(box.height) / 72 * 25.4 - page.h) < 0.5


def test_the_reference_card_has_the_turn_the_seven_rule_watchtowers_and_the_showdown(build_pdf, read_pdf):
    text = _text(read_pdf(build_pdf("fort-reference")))
    assert text.count("Fort: quick reference") == 2
    assert "Campaigns fight only campaigns" not in text  # issue 11.4: campaigners challenge forts too
    for words in [
        "Your turn",
        "A pair with a 7 in it always goes to the attacker",
        f"The top of a double needs {fort.ARMY_NEEDED[2]} army cards, of a triple {fort.ARMY_NEEDED[3]}",
        "Royals and aces that fought go to the bottom of the barracks",
        "A campaigner draws nothing and challenges forts; only another campaigner may fight them, 3 soldiers each",
        "Put a card of your fort at the bottom of the barracks",
        "one or two for a jack, queen, king or ace",
        "The win is shared only when no shuffle can separate them",
        "an even count drops its last card",
    ]:
        assert words in text, words


def test_the_tracker_has_three_boxes_per_card_and_attacker(build_pdf, read_pdf, render):
    data = build_pdf("fort-challenge-tracker")
    text = _text(read_pdf(data))
    assert text.count("Fort of:") == 4 and text.count("Attacker:") == 12
    assert f"{fort.MAX_CHALLENGES} at most" in text
    image = render(data, 1, dpi=100)
    assert image.size[0] < image.size[1]  # portrait


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_trackers_rows_are_a_pencils_line_high(build_pdf, render, paper):
    """Read back: down the fort card column, the 28 rows (4 forts of 7) are each 5.5 mm or more."""
    dpi = 200
    image = render(build_pdf("fort-challenge-tracker", paper=paper), 1, dpi=dpi)
    frame = page_frame(paper)
    x = round(
        (frame.content.x + printables_fort.CARD_COLUMN - 3) * dpi / 25.4
    )  # right of every language's words
    top = round((page_rect(paper).h - frame.content.top) * dpi / 25.4)  # below the page's title and intro
    lines = [y for y in range(top, image.size[1]) if image.getpixel((x, y)) < 160]
    tops = [
        y for previous, y in zip([-9, *lines], lines, strict=False) if y - previous > 1
    ]  # one per line drawn
    gaps = [(below - above) * 25.4 / dpi for above, below in zip(tops, tops[1:], strict=False)]
    rows = [gap for gap in gaps if 5.5 <= gap < 7.5]
    assert len(rows) == printables_fort.FORTS * printables_fort.FORT_ROWS, [round(gap, 2) for gap in gaps]


def test_the_qr_codes_open_fort(build_pdf, render, scan):
    for slug in ("fort-reference", "fort-challenge-tracker"):
        assert scan(render(build_pdf(slug, base_url=BASE_URL), 1)) == [f"{BASE_URL}/fort/"]


def test_the_same_options_give_the_same_bytes(build_pdf):
    assert build_pdf("fort-reference") == build_pdf("fort-reference")
