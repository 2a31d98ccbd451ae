"""Castle in French and Polish on a 360 px phone: the start form, the tracked table after a move
(longer words under each pile: value, height, last move) and the pile-value calculator fit with no
sideways scroll and no wrapped button; the castle is typed in the page's own card letters."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

NB = "\u00a0"
FULL = "A1=4C&B1=8D&C1=JS&D1=2S&A2=2H&B2=9H&C2=5C&D2=3S&A3=10C&B3=6S&C3=7D&D3=AH"
WORDS = {
    "fr": {
        "east": "Est",
        "start": "Ouvrir une table",
        "referee": "Vous êtes l'arbitre",
        "line": "Ou les 12 sur une ligne",
        "castle": "4t 8k vp 2p 2c 9c 5t 3p 10t 6p 7k ac",
        "lay": "Disposer le château",
        "turn": "Au tour d'Ewa",
        "queen": "D",
        "hearts": "cœur",
        "marks": "D♥ peut aller sur les tas marqués ✓ :",
        "last": "Dernier coup : Ewa a posé la carte D♥ sur C2.",
        "height": "2 cartes",
        "verdict": "9♠ peut aller sur A1, A2, A3, B1, B3, C1, C2, C3, D1, D2, D3.",
    },
    "pl": {
        "east": "Wschód",
        "start": "Załóż stół Castle",
        "referee": "Jesteś sędzią",
        "line": "Albo wszystkie 12 w jednej linii",
        "castle": "4c 8d ws 2s 2h 9h 5c 3s tc 6s 7d ah",
        "lay": "Ułóż zamek",
        "turn": "Kolej gracza Ewa",
        "queen": "D",
        "hearts": "kier",
        "marks": "D♥ może trafić na stosy oznaczone ✓:",
        "last": "Ostatni ruch: Ewa – D♥ na C2.",
        "height": "2 karty",
        "verdict": "9♠ może trafić na A1, A2, A3, B1, B3, C1, C2, C3, D1, D2, D3.",
    },
}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_castles_table_and_calculator_in_the_phones_language_at_360_px(server, chromium, lang):
    words = {key: value.replace(" :", NB + ":") for key, value in WORDS[lang].items()}
    page = phone_in(chromium, lang, f"{server}/castle/")
    page.get_by_role("combobox", name=words["east"], exact=True).fill("Ewa")
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    assert_fits(page, f"castle before the deal, {lang}")
    page.get_by_label(re.compile(f"^{words['line']}")).fill(words["castle"])
    page.get_by_role("button", name=words["lay"]).click()
    expect(page.locator("#whose-turn")).to_contain_text(words["turn"])

    picker = page.locator(".card-picker")
    picker.locator(".picker-ranks label", has_text=re.compile(f"^{words['queen']}$")).click()
    picker.locator(".picker-suits label", has_text=words["hearts"]).click()
    expect(page.locator(".marks")).to_contain_text(words["marks"])
    page.locator('button.pile[value="C2"]').click()
    expect(page.locator("#last-move")).to_contain_text(words["last"])
    expect(page.locator('button.pile[value="C2"] .pile-height')).to_have_text(words["height"])
    assert_fits(page, f"castle table after a move, {lang}")
    # Not just fitting, with room to spare: "valeur 11" once filled its pile to the last pixel
    # and wrapped or not from one run to the next.
    spare = page.evaluate("""() => Math.min(...[...document.querySelectorAll('button.pile .pile-value')].map(value => {
        const pile = value.closest('button'), style = getComputedStyle(pile);
        return pile.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            - value.getBoundingClientRect().width; }))""")
    assert spare >= 2, f"a pile's value has {spare:.1f}px to spare ({lang})"

    page.goto(f"{server}/castle/calculator?{FULL}&card=9S")
    expect(page.locator(".verdict")).to_contain_text(words["verdict"])
    assert_fits(page, f"castle calculator, {lang}")
    assert_accessible(page, both_widths=False)
    page.context.close()
