"""The print page on a phone: every paper link of every sheet, mats' page counts included, fits the screen."""

from __future__ import annotations

import pytest

SIZES = [pytest.param((390, 844), id="390x844"), pytest.param((360, 740), id="360x740")]


@pytest.mark.parametrize("size", SIZES)
def test_every_paper_link_fits_the_phone_screen(size, phone, server):
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    phone.goto(f"{server}/print")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    links = phone.locator(".papers a")
    assert links.count() > 40
    assert phone.get_by_role("link", name="Tabloid, in one piece").first.is_visible()
    for box in (links.nth(i).bounding_box() for i in range(links.count())):
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def test_a_faction_s_balance_is_checked_under_a_progress_bar_then_shown_in_a_table(phone, server):
    import json

    from companion.rules import tactics
    from tests.browser.accessibility import assert_accessible

    phone.set_viewport_size({"width": 360, "height": 740})
    phone.goto(f"{server}/print")
    faction = {**tactics.load_factions()["wardens"], "name": "Ravens of Kraków"}
    phone.locator("#own-deck").fill(json.dumps(faction))
    phone.get_by_role("button", name="Check the faction's balance").click()
    rates = phone.locator("table.balance tbody tr")
    rates.first.wait_for(timeout=60_000)
    assert rates.count() == 4 and phone.locator("#balance progress").count() == 0
    assert "Watchtower Wardens" in rates.nth(3).inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert_accessible(phone)
