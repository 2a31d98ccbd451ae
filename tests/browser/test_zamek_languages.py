"""Zamek in French and Polish on a 360 px phone: an extended game with teams, its table page with
the teams' links (a team's default link name said in the phone's language), and the help page
fit with the longer words (no sideways scroll, no wrapped button)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

WORDS = {
    "fr": {
        "extended": "Avancé : jouer jusqu'à vider la table, puis compter",
        "teams": "Les équipes votent depuis leurs téléphones",
        "start": "Ouvrir la table",
        "referee": "Vous êtes l'arbitre",
        "team": "Équipe Rouge",
        "deck": "Le paquet Zamek par défaut de Castellan (zamek-default@1)",
        "help": "Le magicien appartient au jeu avancé.",
    },
    "pl": {
        "extended": "Rozszerzony: gra do opróżnienia stołu, potem liczenie punktów",
        "teams": "Drużyny głosują na telefonach",
        "start": "Załóż stół",
        "referee": "Jesteś sędzią",
        "team": "Drużyna Rouge",
        "deck": "Domyślna talia Castellana do Zamku (zamek-default@1)",
        "help": "Czarnoksiężnik należy do wariantu rozszerzonego.",
    },
}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_zameks_table_in_the_phones_language_at_360_px(server, chromium, lang):
    words = {key: value.replace(" :", "\u00a0:") for key, value in WORDS[lang].items()}
    page = phone_in(chromium, lang, f"{server}/zamek/")
    page.get_by_label("1.").fill("Rouge")
    page.get_by_label("2.").fill("Bleu")
    page.get_by_label(words["extended"]).check()
    page.get_by_label(words["teams"]).check()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    expect(page.get_by_text(words["team"], exact=True).first).to_be_visible()
    expect(page.get_by_text(words["deck"])).to_be_visible()
    assert_fits(page, f"zamek table with teams, {lang}")
    page.goto(f"{server}/zamek/help")
    expect(page.get_by_text(words["help"])).to_be_visible()
    assert_fits(page, f"zamek help, {lang}")
    page.context.close()
