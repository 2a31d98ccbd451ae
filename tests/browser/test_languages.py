"""The score pad in French and Polish on a 360 px phone: a phone set to its language gets it, the
page fits and stays accessible with the longer words, and the switch at the foot changes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

WORDS = {
    "fr": {
        "players": "Joueurs, un nom par ligne",
        "start": "Commencer",
        "referee": "Vous êtes l'arbitre",
        "record": "Noter la manche",
        "recorded": "Manche 1\u00a0: Ola 5, Kuba 3.",
        "leader": "En tête\u00a0: Ola",
    },
    "pl": {
        "players": "Gracze, jedno imię w wierszu",
        "start": "Zacznij",
        "referee": "Jesteś sędzią",
        "record": "Zapisz rundę",
        "recorded": "Runda 1: Ola 5, Kuba 3.",
        "leader": "Prowadzi: Ola",
    },
}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_score_pad_in_the_phones_language_at_360_px(server, chromium, lang):
    words = WORDS[lang]
    page = phone_in(chromium, lang, f"{server}/scorepad/")
    assert_fits(page, f"score pad, {lang}")
    page.get_by_label(words["players"]).fill("Ola\nKuba")
    page.get_by_role("button", name=words["start"]).click()
    expect(page.get_by_text(words["referee"])).to_be_visible()
    fields = page.locator("input[name=points]")
    fields.nth(0).fill("5")
    fields.nth(1).fill("3")
    page.get_by_role("button", name=words["record"]).click()
    expect(page.locator("#answer")).to_contain_text(words["recorded"])
    expect(page.locator(".leader")).to_have_text(words["leader"])
    assert_fits(page, f"score pad table, {lang}")
    assert_accessible(page)
    page.get_by_role("link", name="English").click()
    expect(page.get_by_text("You are the referee")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "en" and "/t/" in page.url
    page.context.close()
