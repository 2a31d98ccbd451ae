"""Castellan in English, French and Polish: the catalogs are complete and current, each request
gets its language (cookie, Accept-Language), and a rules module's refusal and a move's
description are said in it, on the page and through the API, with CLDR's plural forms."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.http.security import TABLES_MESSAGE
from companion.i18n import catalogs, language
from companion.rules import cards, scorepad
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Either, Message
from companion.rules.stored_sentences import dump, load
from tests.conftest import text

ROOT = Path(__file__).resolve().parents[2]


def _catalog(lang: str):
    with catalogs.po_path(lang).open("rb") as file:
        return read_po(file, locale=lang)


@pytest.mark.parametrize("lang, forms", [("fr", 2), ("pl", 3)])
def test_every_sentence_is_translated_and_none_is_fuzzy(lang, forms):
    catalog = _catalog(lang)
    assert catalog.num_plurals == forms
    untranslated = [
        message.id
        for message in catalog
        if message.id
        and (
            message.fuzzy
            or not all(message.string if isinstance(message.string, tuple) else [message.string])
        )
    ]
    assert untranslated == [], f"{lang}: translate these in {catalogs.po_path(lang)} (docs/translating.md)"


_PARAMETER = re.compile(r"%\((\w+)\)[sdif]")
_TAG = re.compile(r"</?([a-z][a-z0-9]*)")


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_every_translation_keeps_its_sentences_parameters_and_markup(lang):
    """A translation naming a parameter its sentence lacks would fail when said (a 500), and one
    dropping a parameter or a link would lose what the sentence says. A plural form may leave out
    its ``count`` ("une carte")."""
    catalog = _catalog(lang)
    assert [(message.id, str(error)) for message, error in catalog.check()] == []
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        given = set(_PARAMETER.findall(" ".join(sources)))
        tags = sorted(_TAG.findall(sources[0]))
        for translation in message.string if isinstance(message.string, tuple) else (message.string,):
            said = set(_PARAMETER.findall(translation))
            if said - given or given - said - {"count"} or sorted(_TAG.findall(translation)) != tags:
                wrong.append((sources[0], translation))
    assert wrong == [], f"{lang}: these translations change their sentence's parameters or markup"


def test_the_catalogs_hold_exactly_the_sentences_the_code_marks(tmp_path):
    """A sentence marked but not in the catalogs (or left there after its code went) fails here:
    run `make translations` and translate what it adds."""
    pot = tmp_path / "messages.pot"
    catalogs.extract(pot)
    with pot.open("rb") as file:
        marked = {message.id for message in read_po(file) if message.id}
    for lang in ("fr", "pl"):
        held = {message.id for message in _catalog(lang) if message.id}
        assert sorted(map(str, marked - held)) == [], (
            f"marked but not in the {lang} catalog: run make translations"
        )
        assert sorted(map(str, held - marked)) == [], (
            f"in the {lang} catalog but no longer marked: run make translations"
        )


def test_the_language_is_the_cookies_else_accept_languages_best_else_english(browser):
    def lang(**headers):
        return text(browser.get("/", headers=headers)).split('<html lang="')[1][:2]

    assert lang() == "en"
    assert lang(**{"Accept-Language": "de-DE,de;q=0.9"}) == "en"
    assert lang(**{"Accept-Language": "de-DE,pl;q=0.8,fr;q=0.5"}) == "pl"
    assert lang(**{"Accept-Language": "fr-CA"}) == "fr"
    chosen = browser.get("/language/fr?next=/scorepad/%3Fa%3D1")
    assert (chosen.status_code, chosen.headers["Location"]) == (303, "/scorepad/?a=1")
    assert lang(**{"Accept-Language": "pl"}) == "fr"  # the switch wins over the phone's setting


def test_the_switch_comes_back_to_this_sites_pages_only(browser):
    assert browser.get("/language/pl?next=//evil.example/").headers["Location"] == "/"
    assert browser.get("/language/pl?next=https://evil.example/").headers["Location"] == "/"
    assert "lang=" not in browser.get("/language/de?next=/").headers.get("Set-Cookie", "")
    page = text(browser.get("/scorepad/?x=1"))
    assert '<a href="/language/fr?next=/scorepad/?x%3D1" lang="fr" hreflang="fr">Français</a>' in page


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ["Start a score pad", "Players, one name per line", "Games", "Skip to content"]),
        ("fr", ["Ouvrir un bloc de score", "Joueurs, un nom par ligne", "Jeux", "Aller au contenu"]),
        ("pl", ["Załóż notes wyników", "Gracze, jedno imię w wierszu", "Gry", "Przejdź do treści"]),
    ],
)
def test_the_score_pads_page_in_each_language(browser, lang, words):
    page = text(browser.get("/scorepad/", headers={"Accept-Language": lang}))
    assert f'<html lang="{lang}">' in page and all(word in page for word in words)
    assert "aria-current=true>" + i18n.NAMES[lang] in page


def test_a_refusal_of_the_rules_is_said_in_the_page_language(browser):
    browser.get("/language/pl")
    browser.post("/tables/new/scorepad", {"players": "Ola\nOla"})
    assert "Dwóch graczy ma to samo imię; rozróżnij ich." in text(browser.get("/scorepad/"))
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    refused = browser.post(f"/t/{token}/act", {"version": "0", "points": ["5", "x"]}, htmx=True)
    assert refused.status_code == 422 and "„x” to nie całkowita liczba punktów." in text(refused)


def test_a_move_is_recorded_and_described_in_each_phones_own_language(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get("/language/fr")
    recorded = text(browser.post(f"/t/{token}/act", {"version": "0", "points": ["5", "3"]}, htmx=True))
    assert "C'est noté." in recorded and "Manche 1\u00a0: Ola 5, Kuba 3." in recorded
    assert "En tête\u00a0: Ola" in recorded
    history = text(other_browser.get(f"/t/{token}/history", headers={"Accept-Language": "pl"}))
    assert "Runda 1: Ola 5, Kuba 3." in history
    log = other_browser.client.get(
        f"/api/v1/tables/{token}/log", headers={"Accept-Language": "pl"}
    ).get_json()
    assert log["actions"][0]["text"] == "Runda 1: Ola 5, Kuba 3."
    assert (
        browser.get(f"/t/{token}/export.json").get_json()["history"][0]["description"]
        == "Manche 1\u00a0: Ola 5, Kuba 3."
    )


def test_the_api_says_its_message_by_accept_language_and_keeps_its_code(app):
    client = app.test_client()
    answers = {
        lang: client.post(
            "/api/v1/tables",
            json={"game": "scorepad", "options": {"players": ["Ola", "Ola"]}},
            headers={"Accept-Language": lang},
        ).get_json()["error"]
        for lang in ("en", "fr", "pl")
    }
    assert {error["code"] for error in answers.values()} == {"bad_players"}
    assert answers["en"]["message"] == "Two players have the same name; tell them apart."
    assert answers["fr"]["message"] == "Deux joueurs ont le même nom\u00a0; distinguez-les."
    assert answers["pl"]["message"] == "Dwóch graczy ma to samo imię; rozróżnij ich."
    client.set_cookie("lang", "fr")  # a page's choice; the API follows Accept-Language alone
    refused = client.post(
        "/api/v1/tables", data="{", content_type="application/json", headers={"Accept-Language": "pl"}
    )
    assert refused.get_json()["error"] == {
        "code": "malformed_json",
        "message": "Treść żądania nie jest poprawnym JSON-em.",
    }


@pytest.mark.parametrize(
    "count, polish",
    [
        (1, "1 stół"),
        (2, "2 stoły"),
        (5, "5 stołów"),
        (12, "12 stołów"),
        (22, "22 stoły"),
        (25, "25 stołów"),
    ],
)
def test_polish_has_three_plural_forms_and_french_two(count, polish):
    assert f"utworzono w ostatniej minucie {polish}." in i18n.say(Message(TABLES_MESSAGE, count=count), "pl")
    french = i18n.say(Message(TABLES_MESSAGE, count=count), "fr")
    assert f"a créé {count} table{'s' if count > 1 else ''} dans" in french


def test_a_rules_error_keeps_its_english_sentence_and_its_parameters():
    with pytest.raises(RuleError) as refused:
        scorepad.new_table({"players": ["x" * 30]}, 1)
    error = refused.value
    assert str(error) == error.message == "A player's name is at most 24 characters."
    assert error.code == "bad_players" and error.sentence.params == {"most": 24}
    assert i18n.say(error, "pl") == "Imię gracza może mieć do 24 znaków."
    with pytest.raises(RuleError) as refused:
        scorepad.apply(
            scorepad.new_table({"players": ["Ola"]}, 1), {"type": "round", "points": [10**6]}, "referee"
        )
    assert "(at most 100,000)" in str(refused.value)
    assert "(au plus 100\u202f000)" in i18n.say(refused.value, "fr")


def test_a_sentence_is_stored_and_read_back_with_its_parameters():
    sentence = Message(N_("Round %(round)s: %(scores)s."), round=2, scores="Ola 5")
    nested = Message(
        N_("Undone: %(move)s"),
        move=sentence,
        card=cards.parse("QS"),
        kinds=Either([N_("text"), N_("a list")]),
    )
    for value in (sentence, nested, Message(NP_("%(count)s table", "%(count)s tables"), count=3)):
        assert load(dump(value)) == value and str(load(dump(value))) == str(value)
    assert load("Ola plays.") == "Ola plays."  # a description stored before sentences were kept whole
    assert (
        i18n.say(
            Message(
                N_("In the action, “%(name)s” must be %(kinds)s."),
                name="n",
                kinds=Either([N_("text"), N_("a list")]),
            ),
            "pl",
        )
        == "W akcji pole „n” musi być: tekst lub lista."
    )


@pytest.mark.parametrize(
    "lang, typed, card, label",
    [
        ("en", "QH", "QH", "Q♥"),
        ("fr", "DC", "QH", "D♥"),
        ("fr", "rk", "KD", "R♦"),
        ("fr", "VT", "JC", "V♣"),
        ("pl", "DH", "QH", "D♥"),
        ("pl", "W♠", "JS", "W♠"),
        ("pl", "kd", "KD", "K♦"),
        ("fr", "10p", "10S", "10♠"),
    ],
)
def test_a_player_types_and_reads_ranks_and_suits_in_their_language(lang, typed, card, label):
    parsed = cards.parse(typed, lang=lang)
    assert (str(parsed), parsed.label(lang)) == (card, label)


def test_a_rank_of_another_language_is_refused_with_the_players_own_letters():
    with pytest.raises(RuleError) as refused:
        cards.parse("QH", lang="fr")
    assert i18n.say(refused.value, "fr") == (
        "«\u00a0QH\u00a0» n'est pas une carte\u00a0: écrivez une valeur (A, 2-10, V, D, R) "
        "et une couleur (P, C, K, T), comme 7P ou 10C."
    )
    assert i18n.say(cards.parse("QS").in_words, "pl") == "dama pik"


def test_a_clean_build_compiles_the_catalogs_into_the_package(tmp_path):
    """What `pip install .` ships: setup.py's build step writes each .mo beside its .po."""
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.mo")
    for name in ("companion", "printables", "templates"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
        cwd=source,
        check=True,
        capture_output=True,
    )
    for lang in ("fr", "pl"):
        built = (
            tmp_path / "lib" / "companion" / "i18n" / "translations" / lang / "LC_MESSAGES" / "messages.mo"
        )
        assert built.stat().st_size > 1000


def test_the_card_picker_shows_and_reads_the_pages_letters(browser):
    page = text(browser.get("/castle/calculator", headers={"Accept-Language": "pl"}))
    assert '<input type="radio" name="pick_rank" value="Q"><span>D</span>' in page
    assert '<input type="radio" name="pick_rank" value="J"><span>W</span>' in page
    assert "albo wpisz ją" in page and '<span class="sr-only">kier</span>' in page
    refused = text(browser.get("/castle/calculator?do=check&pick=QH", headers={"Accept-Language": "fr"}))
    assert "(A, 2-10, V, D, R)" in refused and "(P, C, K, T)" in refused  # QH is no card in French
    # The card checked travels on in a hidden field by its canonical name, which every language reads.
    kept = text(browser.get("/castle/calculator?do=check&pick=DC", headers={"Accept-Language": "fr"}))
    assert '<input type="hidden" name="card" value="QH">' in kept
    assert "(P, C, K, T)" not in text(
        browser.get("/castle/calculator?card=QH", headers={"Accept-Language": "fr"})
    )


def test_a_phone_that_changes_language_gets_the_live_table_again(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    polish = browser.get(f"/t/{token}/live", headers={"Accept-Language": "pl"})
    assert polish.status_code == 200 and "Suma" in text(polish)
    etag = polish.headers["ETag"]
    assert (
        browser.get(f"/t/{token}/live", headers={"Accept-Language": "pl", "If-None-Match": etag}).status_code
        == 304
    )
    french = browser.get(f"/t/{token}/live", headers={"Accept-Language": "fr", "If-None-Match": etag})
    assert french.status_code == 200 and "Manche" in text(french)
    browser.client.set_cookie("lang", "pl")  # the switch's cookie counts before Flask too
    assert (
        browser.get(f"/t/{token}/live", headers={"Accept-Language": "fr", "If-None-Match": etag}).status_code
        == 304
    )


@pytest.mark.parametrize(
    "path, cookie, accept",
    [
        ("/", None, None),
        ("/", "fr", "pl"),
        ("/t/x", None, "pl-PL,pl;q=0.9,en;q=0.5"),
        ("/t/x", "de", "fr-CA"),
        ("/api/v1/tables", "pl", "fr"),  # the API follows Accept-Language only
    ],
)
def test_a_requests_words_are_flask_babels_locale_and_catalog(app, path, cookie, accept):
    """``_words`` finds the language and catalog itself (once per language): the same as Flask-Babel's."""
    from flask_babel import get_locale, get_translations

    headers = {"Accept-Language": accept} if accept else {}
    if cookie:
        headers["Cookie"] = f"{i18n.COOKIE}={cookie}"
    for _ in range(2):  # the catalog found, then the one kept
        with app.test_request_context(path, headers=headers):
            lang, catalog = language._words()
            assert lang == str(get_locale())
            assert catalog is get_translations()
            assert i18n.current_language() == lang
