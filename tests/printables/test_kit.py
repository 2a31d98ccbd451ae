"""Game kits: one PDF per game with every sheet it needs, after one page of print advice.

Read back with pypdf: the kit's pages are the advice page then each sheet's own pages, word for
word as the sheet prints alone (headers included), grouped by the paper they want, and the
advice page names each group's pages and paper.
"""

from __future__ import annotations

import pytest

import printables
from printables import ADVICE, kit

KITS = [f"{game}-kit" for game in kit.KITS]


def words(page) -> str:
    """A page's text, its whitespace made single spaces."""
    return " ".join(page.extract_text().split())


def test_every_game_has_a_kit_of_its_sheets_grouped_by_paper():
    assert {sheet.slug for sheet in printables.all_sheets() if sheet.kind == "kit"} == set(KITS)
    castle = [sheet.slug for sheet in kit.kit_sheets("castle")]
    assert castle == ["castle-deck", "castle-mat", "castle-reference", "castle-score-pad"]
    assert [sheet.slug for sheet in kit.kit_sheets("fort")] == [
        "castle-deck",
        "fort-reference",
        "fort-challenge-tracker",
    ]
    for game in kit.KITS:
        kinds = [list(ADVICE).index(sheet.kind) for sheet in kit.kit_sheets(game)]
        assert kinds == sorted(kinds), game


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", KITS)
def test_a_kit_is_its_advice_page_then_each_sheet_s_pages_in_order(slug, paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf(slug, paper=paper))
    sheets = kit.kit_sheets(slug.removesuffix("-kit"))
    alone = [read_pdf(build_pdf(sheet, paper=paper)).pages for sheet in sheets]
    assert len(reader.pages) == 1 + sum(len(pages) for pages in alone)
    kit_pages = iter(reader.pages[1:])
    for sheet, pages in zip(sheets, alone, strict=True):
        for number, page in enumerate(pages, start=1):
            assert words(next(kit_pages)) == words(page), f"{sheet.slug} page {number}"
    assert "/Duplex" not in reader.trailer["/Root"]["/ViewerPreferences"]  # its sheets differ


def test_the_advice_page_names_each_group_of_pages_and_its_paper(build_pdf, read_pdf):
    first = words(read_pdf(build_pdf("castle-kit")).pages[0])
    assert "How to print this kit" in first and "want different paper" in first
    deck = printables.get_sheet("castle-deck")
    assert "Pages 2 to 17: Standard 52-card deck." in first
    assert deck.advice.paper in first and deck.advice.printer_for("long") in first
    assert "Pages 18 to 21: Castle mat." in first and "Page 22: Castle quick reference." in first
    assert "Page 23: Castle score pad." in first
    folded = words(read_pdf(build_pdf("castle-kit", fold=True)).pages[0])
    assert "Pages 2 to 15: Standard 52-card deck." in folded  # 1 + 13 pages of 4
    assert "Printer: actual size (100 %), one-sided." in folded


def test_a_kit_comes_from_the_print_page_and_the_command_line(app, tmp_path, build_pdf):
    from companion import cli

    page = app.test_client().get("/print").get_data(as_text=True)
    assert "Everything for a Zamek evening" in page and "/print/zamek-kit.pdf?paper=letter" in page
    out = tmp_path / "kit.pdf"
    assert cli.main(["print", "zamek-kit", "-o", str(out), "--base-url", "http://localhost:5000"]) == 0
    assert out.read_bytes() == build_pdf("zamek-kit")
