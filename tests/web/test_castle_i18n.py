"""Castle in French and Polish (issue 17): the start page, a tracked table's turn and its
refusal said in the phone's language (the API's code stays English), the history in each
phone's language."""

from __future__ import annotations

import re

import pytest

from tests.conftest import text

NB = "\u00a0"
ROW = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"  # the castle of tests/web/test_castle.py, row by row


def _words(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page))


def _dealt_table(browser) -> str:
    token = browser.create_table(
        "castle", {"players": "4", "dealer": "N", "name_N": "Ola", "name_S": "Kuba", "name_E": "Ewa", "name_W": "Jan"}
    )
    dealt = browser.post(f"/t/{token}/act", {"version": "0", "type": "deal", "castle_line": ROW}, htmx=True)
    assert dealt.status_code == 200, text(dealt)[:300]
    return token


@pytest.mark.parametrize("lang, words", [
    ("fr", ["Ouvrir une table de Castle", "Donneur", "4, en deux équipes", "Valeur des tas"]),
    ("pl", ["Załóż stół Castle", "Rozdający", "4, w dwóch drużynach", "Wartości stosów"]),
])
def test_the_start_page_in_each_language(browser, lang, words):
    page = text(browser.get("/castle/", headers={"Accept-Language": lang}))
    assert f'<html lang="{lang}">' in page
    said = _words(page)
    assert [word for word in words if word not in said] == []


@pytest.mark.parametrize("lang, turn, refusal", [
    ("fr", "Au tour de Ewa (Ewa & Jan)",
     "Une carte rouge de rang 5 doit dépasser la valeur de ce tas, 5."),
    ("pl", "Kolej gracza Ewa (Ewa & Jan)",
     "Czerwona karta o randze 5 musi przebić wartość tego stosu, 5."),
])
def test_a_tracked_table_and_its_refusal_in_each_language(browser, lang, turn, refusal):
    token = _dealt_table(browser)
    browser.client.set_cookie("lang", lang)
    page = _words(text(browser.get(f"/t/{token}"))).replace("&amp;", "&")
    assert turn in page
    refused = browser.post(f"/t/{token}/act", {"version": "1", "type": "play", "card_rank": "5", "card_suit": "H",
                                              "pile": "C2"}, htmx=True)
    assert refused.status_code == 422
    assert refusal in _words(text(refused))


def test_the_api_says_a_refusal_in_the_asked_language_and_keeps_its_code(app):
    client = app.test_client()
    body = {"castle": dict(zip(("A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"),
                               ROW.split(), strict=True)), "card": "9H"}
    body["card"] = body["castle"]["B1"]  # a card already on the castle
    answers = {lang: client.post("/api/v1/castle/values", json=body, headers={"Accept-Language": lang}).get_json()
               for lang in ("en", "fr", "pl")}
    assert {answer["error"]["code"] for answer in answers.values()} == {"card_elsewhere"}
    assert answers["en"]["error"]["message"].startswith("The 8 of diamonds is already elsewhere (on B1)")
    assert answers["fr"]["error"]["message"].startswith("La carte ")
    assert "est déjà ailleurs (sur B1)" in answers["fr"]["error"]["message"]
    assert answers["pl"]["error"]["message"].startswith("Karta ")
    assert "jest już gdzie indziej (na B1)" in answers["pl"]["error"]["message"]
