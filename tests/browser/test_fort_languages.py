"""Fort in French and Polish on a 360 px phone: the start form, the table page and the battle
adjudicator fit with the longer words (no sideways scroll, no wrapped button)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

WORDS = {
    "fr": {
        "players": "Joueurs",
        "start": "Ouvrir une table",
        "referee": "Vous êtes l'arbitre",
        "deal": "Distribuez à chaque joueur 4 cartes face visible",
        "check": "Ce défi est-il autorisé ?",
        "refused": "Refusé. Le sommet d'une tour de guet de 2 cartes demande 6 cartes d'armée",
    },
    "pl": {
        "players": "Gracze",
        "start": "Załóż stół Fortu",
        "referee": "Jesteś sędzią",
        "deal": "Rozdaj każdemu graczowi 4 karty odkryte",
        "check": "Czy to wyzwanie dozwolone?",
        "refused": "Niedozwolone. Wyzwanie o szczyt wieży strażniczej z 2 kart wymaga 6 kart armii",
    },
}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_forts_pages_in_the_phones_language_at_360_px(server, chromium, lang):
    words = WORDS[lang]
    page = phone_in(chromium, lang, f"{server}/fort/")
    assert_fits(page, f"fort start form, {lang}")
    page.locator("fieldset", has_text=words["players"]).locator("label", has_text=re.compile("^4$")).click()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    expect(page.locator("#fort-status")).to_contain_text(words["deal"])
    assert_fits(page, f"fort table, {lang}")
    page.goto(f"{server}/fort/battle?do=check&a_army=5&a_fort=3&d_army=4&stake=card&target=9H&height=2")
    expect(page.locator("#allowed")).to_contain_text(words["refused"].replace(" :", "\u00a0:"))
    expect(page.get_by_role("button", name=words["check"].replace(" ?", "\u00a0?"))).to_be_visible()
    assert_fits(page, f"fort adjudicator, {lang}")
    page.context.close()
