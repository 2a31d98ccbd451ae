"""Square Tactics in French and Polish on a 360 px phone: the start form and the table page, on the
3x3 and the 4x4 board, fit with the longer words (no sideways scroll, no wrapped button, every
cell of the board the same size, at least 44 px, within the margins), before and after a capture."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_narrow import _capture, assert_fits, phone_in

pytestmark = pytest.mark.browser

NB = "\u00a0"
WORDS = {
    "fr": {
        "start": "Ouvrir une table",
        "four": "4, sur un plateau 4x4",
        "referee": "Vous êtes l'arbitre",
        "game": "Partie 1 sur 3",
        "edges": ("haut", "droite", "bas", "gauche"),
        "play": "Jouer ces nombres",
        "on": "en {cell}.",
        "captured": f"1 carte prise{NB}: C3, la case est vide.",
    },
    "pl": {
        "start": "Załóż stół Square Tactics",
        "four": "4, na planszy 4x4",
        "referee": "Jesteś sędzią",
        "game": "Partia 1 z 3",
        "edges": ("góra", "prawo", "dół", "lewo"),
        "play": "Zagraj tę kartę",
        "on": "na {cell}.",
        "captured": "Zdobyta 1 karta: C3, pole jest teraz puste.",
    },
}


def _fits_with_44_px_cells(page, where, cells):
    assert_fits(page, where)
    board = page.locator(".tboard .tcell")
    expect(board).to_have_count(cells)
    sizes = board.evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect()).map(b => [b.width, b.height])"
    )
    assert min(min(size) for size in sizes) >= 44, (where, sizes)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_tactics_table_at_360_px_in_each_language(server, chromium, lang):
    words = WORDS[lang]
    page = phone_in(chromium, lang, f"{server}/tactics/")
    assert_fits(page, f"tactics start form, {lang}")
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    expect(page.locator(".game-no")).to_contain_text(words["game"])
    _fits_with_44_px_cells(page, f"tactics 3x3 table, {lang}", 9)
    _capture(page, lambda where: _fits_with_44_px_cells(page, f"{where}, {lang}", 9), words)
    page.goto(f"{server}/tactics/")
    page.get_by_text(words["four"]).click()
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    _fits_with_44_px_cells(page, f"tactics 4x4 table, {lang}", 16)
    page.context.close()
