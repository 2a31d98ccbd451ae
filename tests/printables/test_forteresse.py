"""Forteresse's sheets read back: both grids indexed, every firing cell with its ways in, the
score boxes, French accents, on A4 and Letter."""

from __future__ import annotations

import re

import pytest

from companion.rules import forteresse
from printables import PAPERS

PAGE_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def _words(reader) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_player_sheet_has_both_grids_every_firing_cell_and_the_score_box(paper, build_pdf, read_pdf):
    reader = read_pdf(build_pdf("forteresse-player-sheet", paper=paper))
    assert len(reader.pages) == 1
    assert tuple(round(float(v), 2) for v in reader.pages[0].mediabox[2:]) == PAGE_POINTS[paper]
    words = _words(reader)
    assert "Grid 1 · my fortress" in words and "Grid 2 · my attacks" in words
    for cell in forteresse.FIRING_CELLS:
        assert re.search(rf"\b{cell}\b", words), cell
    assert "Round 1: kills" in words and "Round 2: kills" in words and "Opponent" in words
    assert "assiégés" in words and "révélé" in words and "reçoit" in words and "Règle" in words
    # The ways in printed for a corner, a cell beside a corner and the middle of a side.
    assert "↘SE" in words and "↙SW ←W" in words and "↑N ↗NE ↖NW" in words


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
    assert "égalité" in words
