"""French and Polish typography (issue 41): in the catalogs and on the pages drawn from them, French
has a no-break space before : ; ? ! and inside « », Polish quotes „like this”."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.test_glossary import sentences
from tests.web.test_language_leaks import PAGES, _pages

FRENCH_GAPS = re.compile(r" [:;?!»]|« ")  # a plain space where French wants a no-break one
POLISH_QUOTES = re.compile(r"[“«»]")  # a quote that is not „ ” around a Polish word


def test_every_french_sentence_keeps_its_no_break_spaces():
    assert [english for english, said in sentences("fr") if FRENCH_GAPS.search(said)] == []


def test_every_polish_sentence_quotes_the_polish_way():
    assert [english for english, said in sentences("pl") if POLISH_QUOTES.search(said)] == []


def _words(page: str) -> str:
    """The text a reader sees: tags, scripts and styles left out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


@pytest.mark.parametrize(("lang", "wrong"), [("fr", FRENCH_GAPS), ("pl", POLISH_QUOTES)])
def test_every_page_reads_with_its_languages_typography(database, lang, wrong):
    drawn = _pages(database, lang, ())
    found = {path: wrong.findall(_words(drawn[path])) for path in PAGES}
    assert {path: marks for path, marks in found.items() if marks} == {}
