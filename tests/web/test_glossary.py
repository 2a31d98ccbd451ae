"""Each language keeps its glossary (issue 41): a word docs/translating.md rejects for French or
Polish appears in no sentence of that language's catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "companion" / "i18n" / "translations"
SECTIONS = {"fr": "Rejected French variants", "pl": "Rejected Polish variants"}


def rejected(lang: str) -> list[str]:
    """The variants docs/translating.md rejects for ``lang``: the code spans of its paragraph."""
    guide = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    paragraph = guide.split(SECTIONS[lang], 1)[1].split("\n\n", 1)[0]
    return [
        word
        for word in re.findall(r"`([^`]+)`", paragraph)
        if word not in ("msgstr", "tests/web/test_glossary.py")
    ]


def sentences(lang: str) -> list[tuple[str, str]]:
    """Every (English, translation) of the language's catalog, plural forms each on their own."""
    with open(CATALOGS / lang / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file, locale=lang)
    found = []
    for message in catalog:
        if message.id:
            english = message.id if isinstance(message.id, str) else message.id[0]
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            found += [(english, string) for string in strings if string]
    return found


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_no_sentence_uses_a_word_the_glossary_rejects(lang):
    words = rejected(lang)
    assert len(words) >= 15  # the paragraph was read
    found = [(word, english) for english, said in sentences(lang) for word in words if word in said]
    assert found == []


@pytest.mark.parametrize(
    "lang, word",
    [
        ("fr", "feuille de score"),
        ("fr", "tapis"),
        ("fr", "carte d'aide"),
        ("fr", "Annulé"),
        ("fr", "tour de guet de %(rank)s"),
        ("fr", "connue vide"),
        ("pl", "wyzywa"),
        ("pl", "Twoja tura"),
        ("pl", "karta pomocy"),
        ("pl", "graczowi nr"),
        ("pl", "o wartości %(rank)s"),
    ],
)
def test_the_glossary_rejects_what_the_reviews_rejected(lang, word):
    assert word in rejected(lang)


@pytest.mark.parametrize(
    "lang, terms",
    [
        (
            "fr",
            {
                "Undo": "Revenir en arrière",
                "Cancel": "Annuler",
                "Score pad": "Bloc de score",
                "Score sheet": "Feuille de marque",
                "Castle mat": "Plateau de Castle",
            },
        ),
        (
            "pl",
            {
                "Undo": "Cofnij",
                "Cancel": "Anuluj",
                "Score pad": "Notes wyników",
                "Score sheet": "Karta wyników",
                "Castle mat": "Plansza do Castle",
            },
        ),
    ],
)
def test_the_glossarys_own_words_name_the_buttons_and_sheets(lang, terms):
    said = dict(sentences(lang))
    assert {english: said[english] for english in terms} == terms
    assert said["Undo"] != said["Cancel"]  # one screen shows both
