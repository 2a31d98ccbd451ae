"""Forteresse's sheets read back: both grids indexed, every firing cell with its ways in, the
score boxes, French accents, on A4 and Letter."""

from __future__ import annotations

import re

import pytest

import printables
from companion.rules import forteresse
from printables import PAPERS
from tests.printables.test_print_quality import text_runs

MM = 72 / 25.4
PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def _words(reader) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_player_sheet_holds_both_rounds_each_with_both_grids_every_firing_cell(
    paper, build_pdf, read_pdf
):
    reader = read_pdf(build_pdf("forteresse-player-sheet", paper=paper))
    assert len(reader.pages) == 2
    for number, page in enumerate(reader.pages, start=1):
        assert tuple(round(float(v), 2) for v in page.mediabox[2:]) == PAGE_POINTS[paper]
        words = page.extract_text()
        assert (
            f"Round {number} · grid 1 · my fortress" in words
            and f"Round {number} · grid 2 · my attacks" in words
        )
        assert f"Round {number}: my firing cells" in words
        for cell in forteresse.FIRING_CELLS:
            assert re.search(rf"\b{cell}\b", words), cell
        # The ways in printed for a corner, a cell beside a corner and the middle of a side.
        assert "↘SE" in words and "↙SW ←W" in words and "↑N ↗NE ↖NW" in words
    words = _words(reader)
    assert "Round 1" in words and "kills" in words and "Opponent" in words
    assert "W ← west" in words and "row 1 to the north" in words  # the key of the ways' letters
    assert words.count("7 per besieged killed") == 1  # the rule once, in the legend


@pytest.mark.parametrize("paper", PAPERS)
def test_the_firing_rows_are_at_least_6_mm_tall(paper, build_pdf, read_pdf):
    for page in read_pdf(build_pdf("forteresse-player-sheet", paper=paper)).pages:
        baselines = _baselines(page, set(forteresse.FIRING_CELLS))
        assert len(baselines) == len(forteresse.FIRING_CELLS)
        # Two columns of cells: the first column's names, top to bottom, one per row.
        left = sorted((y for x, y in baselines.values() if x < float(page.mediabox.width) / 2), reverse=True)
        steps = [(high - low) / MM for high, low in zip(left, left[1:], strict=False)]
        assert len(left) == 12 and min(steps) >= 6.0, steps
        assert max(steps) - min(steps) < 0.01


def _baselines(page, words: set[str]) -> dict[str, tuple[float, float]]:
    """Where each of these words is written on the page, (x, y) in points."""
    found = {}

    def visit(text, cm, tm, font, size):
        if text.strip() in words:
            found[text.strip()] = (cm[4] + tm[4], cm[5] + tm[5])

    page.extract_text(visitor_text=visit)
    return found


def test_the_player_sheet_outlines_the_fortress_in_heavy_ink(build_pdf, render, dark_fraction):
    image = render(build_pdf("forteresse-player-sheet"), 1, dpi=100)
    width, height = image.size
    # The top third of the page holds the two grids: plenty of ruled ink there, little in the margins.
    assert dark_fraction(image, (0, int(height * 0.12), width, int(height * 0.45))) > 0.03
    assert dark_fraction(image, (0, int(height * 0.97), width, height)) < 0.01


@pytest.mark.parametrize("paper", PAPERS)
def test_the_score_pad_has_seven_games_with_both_rounds(paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf("forteresse-score-pad", paper=paper))
    words = _words(reader)
    assert "R1 kills" in words and "R2 kills" in words and "Total" in words
    for game in range(1, 8):
        assert re.search(rf"\b{game}\b", words)
    assert "Two rounds; the higher total wins, equal totals are a draw." in words


def test_the_sheets_in_french_keep_the_sources_words_and_their_accents(build_pdf, read_pdf):
    """Forteresse is a French game: its French sheets speak as the source does (murs, assiégés, manche)."""
    sheet = _words(read_pdf(build_pdf("forteresse-player-sheet", lang="fr")))
    assert "Manche 1 · grille 1 · ma forteresse" in sheet and "Manche 2 · grille 2 · mes attaques" in sheet
    assert "W ← ouest" in sheet and "nord est la ligne 1" in sheet
    assert "Canon sur un mur : « Mur détruit en … »" in sheet and "Adversaire" in sheet
    pad = _words(read_pdf(build_pdf("forteresse-score-pad", lang="fr")))
    assert "Partie" in pad and "M1 tués" in pad and "à égalité, la partie est nulle" in pad


def test_the_sheets_in_polish(build_pdf, read_pdf):
    sheet = _words(read_pdf(build_pdf("forteresse-player-sheet", lang="pl")))
    assert "Runda 1 · siatka 1 · moja twierdza" in sheet and "Runda 2: moje pola strzału" in sheet
    assert "Przeciwnik" in sheet and "zabitego oblężonego" in sheet
    assert "W ← zachód" in sheet and "E → wschód" in sheet  # a Polish reader's W is not wschód here
    assert set("ąęłóśż") <= set(sheet)
    pad = _words(read_pdf(build_pdf("forteresse-score-pad", lang="pl")))
    assert "Partia" in pad and "R1 zabici" in pad and "remis" in pad


@pytest.mark.parametrize(
    ("duplex", "name"), [("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")]
)
def test_the_player_sheet_one_sheet_both_sides_asks_the_printer_for_two_sides(
    duplex, name, build_pdf, read_pdf
):
    sheet = read_pdf(build_pdf("forteresse-player-sheet", duplex=duplex))
    assert sheet.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == name
    assert "two-sided" in printables.get_sheet("forteresse-player-sheet").advice.printer_for("long")
    pad = read_pdf(build_pdf("forteresse-score-pad", duplex=duplex))
    assert "/Duplex" not in pad.trailer["/Root"]["/ViewerPreferences"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(
    "lang, heads",
    [
        ("en", ["Round 1", "Round 2", "kills", "cannons", "rifles", "points", "Total"]),
        ("fr", ["Manche 1", "Manche 2", "tués", "canons", "fusils", "points", "Total"]),
        ("pl", ["Runda 1", "Runda 2", "zabici", "armaty", "karabiny", "punkty", "Suma"]),
    ],
)
def test_the_score_boxs_heads_each_stay_on_one_line(paper, lang, heads, build_pdf, read_pdf):
    """Each round's name spans its four columns: no head is wrapped into a column too narrow for it."""
    runs = [
        text
        for page, text, _size in text_runs(
            read_pdf(build_pdf("forteresse-player-sheet", lang=lang, paper=paper))
        )
        if page == 2
    ]
    assert [head for head in heads if head not in runs] == []
