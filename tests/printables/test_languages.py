"""Printed sheets in French and Polish: the words on the paper, read back with poppler's pdftotext
(the embedded font must carry every Polish letter), from the builder, the web and the command line."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics

import printables
from companion import cli
from printables import castle, fonts, fort
from printables.draw import Document
from printables.layout import Rect
from tests.conftest import pdf_text, sheet_pdf


def _sheet(slug: str, lang: str) -> bytes:
    return sheet_pdf(slug, lang=lang, base_url="http://192.168.1.20:5000")


def test_the_score_pad_sheet_in_polish_carries_every_polish_letter():
    words = pdf_text(_sheet("score-pad", "pl"))
    assert "Notes wyników" in words and "Runda" in words and "Suma" in words
    assert "Ten pasek ma 50 mm: drukuj w skali 100%." in words
    cards = pdf_text(_sheet("blank-cards", "pl"))
    assert "Jak drukować" in cards and "Kontrola druku dwustronnego" in cards
    assert "8 kart na 2 stronach po tym arkuszu." in " ".join(cards.split())
    assert set("ąćęłóśźż") <= set(words + cards)  # drawn, embedded and read back


@pytest.mark.parametrize("face", [fonts.REGULAR, fonts.BOLD])
def test_both_faces_have_every_polish_and_french_letter(face):
    fonts.register()
    glyphs = pdfmetrics.getFont(face).face.charToGlyph
    letters = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻàâæçéèêëîïôœùûüÿÀÂÇÉÈÊÎÔŒÙÛ«»“”„’  ♠♥♦♣"
    assert [letter for letter in letters if ord(letter) not in glyphs] == []


def test_the_score_pad_sheet_in_french():
    words = pdf_text(_sheet("score-pad", "fr"))
    assert "Bloc de score" in words and "Manche" in words and "Total" in words
    assert "Cette barre mesure 50 mm" in words


def test_the_web_gives_a_sheet_in_the_asked_language_and_caches_each_language_apart(browser):
    polish = browser.get("/print/score-pad.pdf?lang=pl")
    french = browser.get("/print/score-pad.pdf", headers={"Accept-Language": "fr"})
    english = browser.get("/print/score-pad.pdf?lang=xx")
    assert "Notes wyników" in pdf_text(polish.data)
    assert "Bloc de score" in pdf_text(french.data)
    assert "Score pad" in pdf_text(english.data)
    assert browser.get("/print/score-pad.pdf?lang=pl").data == polish.data
    page = browser.get("/print", headers={"Accept-Language": "fr"}).data.decode()
    assert (
        "Imprimez à 100\u00a0% (les feuilles" in page
    )  # a literal % in a {% trans %} block (%% in its msgid)
    assert "Cartes vierges" in page and "Pour tous les jeux" in page


def test_the_command_line_prints_a_sheet_in_polish(tmp_path):
    output = tmp_path / "pad.pdf"
    assert (
        cli.main(
            [
                "print",
                "score-pad",
                "--lang",
                "pl",
                "--base-url",
                "http://192.168.1.20:5000",
                "-o",
                str(output),
            ]
        )
        == 0
    )
    assert "Notes wyników" in pdf_text(output.read_bytes())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
@pytest.mark.parametrize("game, card_inset, text_inset", [(castle, 3, 4), (fort, 2.5, 3.5)])
def test_a_quick_reference_cards_words_stay_inside_the_card_in_every_language(
    game, card_inset, text_inset, lang, paper
):
    """A longer translation is set smaller rather than run over the card's edge (Fort's reference
    in Polish, and in English on Letter, used to cross it)."""
    sheet = next(sheet for sheet in printables.all_sheets() if sheet.draw is game.draw_reference)
    doc = Document(io.BytesIO(), sheet, paper=paper, lang=lang)
    content = doc.frame()
    card = Rect(content.x, content.y, content.w, content.h / 2).inset(card_inset)  # the lower card, as two_up
    assert game._reference(doc, card) >= card.y + text_inset
