"""Castle's sheets and the standard deck, read back: pages, text, neighbour counts, QR code."""

from __future__ import annotations

import re
import subprocess

import pytest
from PIL import Image

from companion.rules import castle
from companion.rules.cards import SUIT_SYMBOLS, deck
from tests.conftest import pdf_text
from tests.printables.test_print_quality import text_runs

BASE_URL = "http://192.168.1.20:5000"


@pytest.mark.parametrize(("paper", "pages"), [("a4", 4), ("letter", 4), ("a3", 1), ("tabloid", 1)])
def test_the_mat_names_every_position_with_its_neighbour_count(paper, pages, build_pdf, read_pdf):
    reader = read_pdf(build_pdf("castle-mat", paper=paper))
    assert len(reader.pages) == pages
    text = " ".join(page.extract_text() for page in reader.pages)
    for pile in castle.PILES:
        assert pile in text
    counts = re.findall(r"(\d) neighbours", text)
    assert sorted(counts) == sorted(str(len(castle.neighbours(pile))) for pile in castle.PILES)
    assert counts.count("4") == 2 and counts.count("2") == 4 and counts.count("3") == 6


def test_the_mat_qr_code_opens_castle(build_pdf, render, scan):
    assert scan(render(build_pdf("castle-mat", base_url=BASE_URL), 1)) == [f"{BASE_URL}/castle/"]


def test_the_reference_card_has_the_value_rule_the_three_rules_and_the_points(build_pdf, read_pdf):
    text = re.sub(r"\s+", " ", read_pdf(build_pdf("castle-reference")).pages[0].extract_text())
    assert text.count("Castle: quick reference") == 2
    assert "a red 10 with 3 red and 1 black neighbour is worth 12" in text
    assert "(equal is not enough)" in text and "3. Pass" in text
    for name, points in [("Ace", 9), ("King", 4), ("Queen", 3), ("Jack", 2), ("Any other", 1)]:
        assert f"{name} {points}" in text


def test_the_score_pad_has_a_column_per_rank_for_each_team_and_a_row_per_game(build_pdf, read_pdf):
    text = read_pdf(build_pdf("castle-score-pad", paper="letter")).pages[0].extract_text()
    assert "Team 1" in text and "Team 2" in text
    assert text.count("×9") == 2 and text.count("2-10") == 2
    assert "18" in text and "Total" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang, hint", [("en", "R / B"), ("fr", "R / N"), ("pl", "Czer. / Czar.")])
def test_the_score_pads_colour_hint_stays_on_one_line(paper, lang, hint, build_pdf, read_pdf):
    runs = [
        text
        for _page, text, _size in text_runs(read_pdf(build_pdf("castle-score-pad", lang=lang, paper=paper)))
    ]
    assert runs.count(hint) == 2, [
        text for text in runs if text[:2] == hint[:2]
    ]  # one run per team, not wrapped


def test_the_deck_is_the_printing_sheet_then_52_faces_on_seven_pairs_of_pages(build_pdf, read_pdf):
    texts = [page.extract_text() for page in read_pdf(build_pdf("castle-deck")).pages]
    assert len(texts) == 16
    assert "52 cards on 14 pages after this sheet" in texts[0]
    assert all(f"Fronts, page {n} of 7" in texts[2 * n] for n in range(1, 8))
    assert all(f"Backs, page {n} of 7" in texts[2 * n + 1] for n in range(1, 8))
    fronts = " ".join(texts[2:16:2])
    for card in deck():
        assert fronts.count(SUIT_SYMBOLS[card.suit]) >= 13 * 3
    assert fronts.count("10") >= 4 * 3  # the two corners and the centre of each ten


def test_the_deck_prints_hearts_and_diamonds_red_and_spades_black(build_pdf, tmp_path):
    pdf = tmp_path / "deck.pdf"
    pdf.write_bytes(build_pdf("castle-deck"))
    reds = {}
    for page in (3, 5):  # fronts of the spades, then of cards 9-16 (the 9 of spades to the 3 of hearts)
        prefix = tmp_path / f"p{page}"
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "30",
                "-png",
                "-f",
                str(page),
                "-l",
                str(page),
                "-singlefile",
                str(pdf),
                str(prefix),
            ],
            check=True,
        )
        image = Image.open(prefix.with_suffix(".png")).convert("RGB")
        reds[page] = sum(1 for r, g, b in image.get_flattened_data() if r > 140 and g < 90 and b < 90)
    assert reds[3] == 0
    assert reds[5] > 100


def _pdftotext(pdf: bytes) -> str:
    return re.sub(r"\s+", " ", pdf_text(pdf).replace("\u00a0", " "))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_castles_sheets_in_polish_read_back_with_every_letter(paper, build_pdf):
    """The reference card, the score pad and the mat printed in Polish: pdftotext reads the words back."""
    reference = _pdftotext(build_pdf("castle-reference", lang="pl", paper=paper))
    assert reference.count("Castle: ściągawka") == 2 and "Ile jest wart stos" in reference
    assert "czerwona 10 z 3 czerwonymi i 1 czarnym sąsiadem jest warta 12" in reference
    for name, points in [("As", 9), ("Król", 4), ("Dama", 3), ("Walet", 2), ("Inna", 1)]:
        assert f"{name} {points}" in reference
    pad = _pdftotext(build_pdf("castle-score-pad", lang="pl", paper=paper))
    assert "Notes wyników do Castle" in pad and "Drużyna 1:" in pad and "Drużyna 2:" in pad
    assert pad.count(" W ") >= 2 and "Suma" in pad and "Partia" in pad  # W: walet, the Polish jack
    mat = _pdftotext(build_pdf("castle-mat", lang="pl", paper=paper))
    assert mat.count("4 sąsiadów") == 2 and mat.count("2 sąsiadów") == 4 and mat.count("3 sąsiadów") == 6
    assert set("ąćęłóśż") <= set(reference + pad + mat)  # drawn, embedded and read back


def test_castles_reference_card_in_french(build_pdf):
    reference = _pdftotext(build_pdf("castle-reference", lang="fr"))
    assert reference.count("Castle : aide-mémoire") == 2 and "Aide-mémoire de Castle" in reference
    assert (
        "Dame 3" in reference
        and "Valet 2" in reference
        and "sa propre valeur dépasse celle du tas" in reference
    )
