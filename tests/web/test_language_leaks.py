"""No language leaks into another reader's page (issue 41): a page in one language is the same
whether it is the process's first page or comes after the same pages in the other two languages.

A value computed once for every reader (a filter folded on a constant when Jinja compiled the
template, a module-level cache) would carry the first reader's language to everyone after.
"""

from __future__ import annotations

import re

import pytest

from companion.app import create_app

LANGUAGES = ("en", "fr", "pl")
PAGES = [
    "/",
    "/history",
    "/print",
    "/scorepad/",
    *(
        f"/{game}/{page}"
        for game in ("forteresse", "castle", "fort", "tactics", "zamek")
        for page in ("", "help")
    ),
    "/forteresse/resolver",
    "/forteresse/score",
    "/castle/calculator",
    "/castle/score",
    "/fort/battle",
    "/fort/showdown",
    "/tactics/score",
    "/zamek/score",
]
_PER_REQUEST = re.compile(r'(csrf_token" value="|"X-CSRF-Token": "|nonce=")[^"]*')


def _pages(database, lang: str, first: tuple[str, ...]) -> dict[str, str]:
    """Every page of ``PAGES`` in ``lang``, from a new app that first drew them all in ``first``."""
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    for earlier in first:
        for path in PAGES:
            client.get(path, headers={"Accept-Language": earlier})
    drawn = {}
    for path in PAGES:
        response = client.get(path, headers={"Accept-Language": lang})
        assert response.status_code == 200, path
        drawn[path] = _PER_REQUEST.sub(r"\1", response.data.decode())
    return drawn


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_page_is_the_same_after_the_other_languages_drew_it(database, lang):
    others = tuple(other for other in LANGUAGES if other != lang)
    alone, after = _pages(database, lang, ()), _pages(database, lang, others)
    assert [path for path in PAGES if alone[path] != after[path]] == []


def test_the_zamek_pictures_are_named_in_the_readers_language_after_a_polish_reader(database):
    page = _pages(database, "fr", ("pl",))["/zamek/help"]
    assert "Roi" in page and "Reine" in page and "Król" not in page and "Królowa" not in page


# Words that are the same in the three languages: names, and French's own "Site".
SAME_IN_EVERY_LANGUAGE = {"Square Tactics", "Zamek", "Castle", "Fort", "Forteresse", "Castellan", "Site"}
_ATTRIBUTE = re.compile(r'\b(?:aria-label|aria-description|title|alt|placeholder)="([^"]*)"')


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_every_attribute_a_person_or_a_screen_reader_meets_is_in_the_page_language(database, lang):
    english, other = _pages(database, "en", ()), _pages(database, lang, ())
    left = {
        (path, said)
        for path in PAGES
        for said in set(_ATTRIBUTE.findall(english[path])) & set(_ATTRIBUTE.findall(other[path]))
        if re.search("[A-Za-z]{3}", said) and said not in SAME_IN_EVERY_LANGUAGE
    }
    assert left == set()
