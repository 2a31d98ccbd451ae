"""Nothing printed in Polish or French is still English (issue 17): every sheet, built in each and read
back with poppler's pdftotext, holds none of the common English words that
tests/web/test_no_english_left.py looks for on the pages (with the same short allow-list)."""

from __future__ import annotations

import pytest

import printables
from tests.conftest import pdf_text, sheet_pdf
from tests.web.test_no_english_left import english_in


def _text(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf, layout=False).split())


def _sheet(slug: str, lang: str) -> bytes:
    return sheet_pdf(slug, lang=lang, base_url="http://192.168.1.20:5000")


@pytest.mark.parametrize("lang", ["pl", "fr"])
@pytest.mark.parametrize("slug", [sheet.slug for sheet in printables.all_sheets()])
def test_no_printed_sheet_says_english(slug, lang):
    said = _text(_sheet(slug, lang))
    assert said.strip(), "nothing could be read back"
    assert english_in(said) == []


def test_the_sweep_reads_english_on_a_sheet():
    said = _text(_sheet("score-pad", "en"))
    assert english_in(said) != []
