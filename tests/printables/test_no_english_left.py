"""Nothing printed in Polish or French is still English (issue 17): every sheet, built in each and read
back with poppler's pdftotext, holds none of the common English words that
tests/web/test_no_english_left.py looks for on the pages (with the same short allow-list)."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

import printables
from tests.web.test_no_english_left import english_in


def _text(pdf: bytes, tmp_path) -> str:
    tool = shutil.which("pdftotext") or pytest.fail("pdftotext is missing: run `make debs`")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    said = subprocess.run([tool, str(path), "-"], check=True, capture_output=True, text=True).stdout
    return " ".join(said.split())


def _sheet(slug: str, lang: str) -> bytes:
    out = io.BytesIO()
    printables.build(slug, out, lang=lang, base_url="http://192.168.1.20:5000")
    return out.getvalue()


@pytest.mark.parametrize("lang", ["pl", "fr"])
@pytest.mark.parametrize("slug", [sheet.slug for sheet in printables.all_sheets()])
def test_no_printed_sheet_says_english(slug, lang, tmp_path):
    said = _text(_sheet(slug, lang), tmp_path)
    assert said.strip(), "nothing could be read back"
    assert english_in(said) == []


def test_the_sweep_reads_english_on_a_sheet(tmp_path):
    said = _text(_sheet("score-pad", "en"), tmp_path)
    assert english_in(said) != []
