"""Forteresse in French and Polish on a 360 px phone: the start form, Ola's drawing grid and her
shot, and the shot resolver fit with the longer words (no sideways scroll, no wrapped button),
and the 7x7 grid's columns stay wide enough to tap (44 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_forteresse import KUBA, OLA, _address, _draw
from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

NB = "\u00a0"
WORDS = {
    "fr": {
        "a": "Joueur A",
        "b": "Joueur B",
        "start": "Ouvrir une table",
        "referee": "Vous êtes l'arbitre",
        "drawing": f"Dessin des forteresses{NB}: Ola dessine, Kuba dessine.",
        "mine": "Voici ma forteresse",
        "turn": "À vous de tirer.",
        "rifle": "Fusil",
        "cannon": "Canon",
        "hit": "Assiégé tué en D4.",
        "wall": "Mur détruit en B2.",
    },
    "pl": {
        "a": "Gracz A",
        "b": "Gracz B",
        "start": "Załóż stół Forteresse",
        "referee": "Jesteś sędzią",
        "drawing": "Rysowanie twierdz: Ola rysuje, Kuba rysuje.",
        "mine": "To moja twierdza",
        "turn": "Twoja kolej: strzelaj.",
        "rifle": "Karabin",
        "cannon": "Armata",
        "hit": "Oblężony zabity na D4.",
        "wall": "Mur zniszczony na B2.",
    },
}
# The narrowest cell of each 7x7 grid on the page, in px.
NARROWEST_CELL = """() => Math.min(...[...document.querySelectorAll('.fort-board .fc')]
  .map(e => e.getBoundingClientRect().width).filter(w => w))"""


def _grid_fits(page, where):
    assert_fits(page, where)
    assert page.evaluate(NARROWEST_CELL) >= 44, where


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_forteresse_in_the_phones_language_at_360_px(server, chromium, lang):
    words = WORDS[lang]
    page = phone_in(chromium, lang, f"{server}/forteresse/")
    assert_fits(page, f"forteresse start form, {lang}")
    page.get_by_role("combobox", name=words["a"]).fill("Ola")
    page.get_by_role("combobox", name=words["b"]).fill("Kuba")
    page.locator(".choices label", has_text=words["a"]).click()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    expect(page.locator("#whose-turn")).to_have_text(words["drawing"])
    assert_fits(page, f"forteresse table, {lang}")
    ola, kuba = _address(page, server, "Ola"), _address(page, server, "Kuba")
    page.goto(kuba)
    _draw(page, KUBA, words["mine"])
    page.goto(ola)
    assert_fits(page, f"forteresse drawing grid, {lang}")
    _draw(page, OLA, words["mine"])
    expect(page.locator("#whose-turn")).to_have_text(words["turn"])
    page.get_by_role("button", name="A4", exact=True).click()
    page.locator(".choices label", has_text=words["rifle"]).click()
    page.get_by_role("button", name="→ E").click()
    expect(page.locator("#last-shot")).to_contain_text(words["hit"])
    _grid_fits(page, f"forteresse table after a shot, {lang}")
    page.goto(
        f"{server}/forteresse/resolver?do=start&"
        + "&".join([f"c_{c}=wall" for c in OLA["walls"]] + [f"c_{c}=besieged" for c in OLA["besieged"]])
    )
    page.get_by_role("button", name="A2", exact=True).click()
    page.locator(".choices label", has_text=words["cannon"]).click()
    page.get_by_role("button", name="→ E").click()
    expect(page.locator("#announcement")).to_contain_text(words["wall"])
    _grid_fits(page, f"forteresse resolver, {lang}")
    page.context.close()
