"""Fort as people do it on a phone: one battle adjudicated, from the situation to where every card goes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _tap_card(page, rank, suit):
    picker = page.locator(".card-picker")
    picker.locator(".picker-ranks label", has_text=re.compile(f"^{rank}$")).click()
    picker.locator(".picker-suits label", has_text=suit).click()


def test_one_battle_adjudicated_on_a_phone(server, phone):
    phone.goto(server + "/fort/")
    phone.get_by_role("link", name=re.compile("Settle a battle")).click()

    phone.get_by_label("Army cards").first.fill("5")
    phone.get_by_label("Fort cards").fill("3")
    phone.get_by_label("Army cards").nth(1).fill("4")
    _tap_card(phone, "9", "hearts")
    phone.locator("label", has_text="top of a double").click()
    phone.locator("fieldset", has_text="Soldiers each").locator("label", has_text="2").click()
    phone.get_by_role("button", name="Is this challenge allowed?").click()
    expect(phone.locator("#allowed")).to_have_text(
        "Not allowed: The top of a watchtower of 2 needs 6 army cards to challenge, and the attacker holds 5."
    )

    phone.locator("label", has_text="a single card").click()
    phone.get_by_role("button", name="Is this challenge allowed?").click()
    expect(phone.locator("#allowed")).to_contain_text("Allowed. Each side lays 2 soldiers")
    expect(phone.locator("#verdict")).to_have_count(0)  # nobody has shown a card yet

    for rank, suit in [("7", "spades"), ("A", "diamonds"), ("K", "hearts"), ("2", "clubs")]:
        _tap_card(phone, rank, suit)
        phone.get_by_role("button", name="Turn it over").click()
    expect(phone.locator("#slots")).to_contain_text("Pair 2: K♥ against 2♣")
    expect(phone.locator("#battle-result")).to_have_text("The attacker wins the battle and takes the 9♥.")
    expect(phone.locator("#moves li")).to_have_text(
        [
            "7♠ → the attacker's army",
            "A♦ → the bottom of the barracks",
            "K♥ → the bottom of the barracks",
            "2♣ → the attacker's army",
            "9♥ (the fort card) → the attacker's army",
        ]
    )
    assert "do=lay" in phone.url  # htmx kept the address shareable
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the adjudicator scrolls sideways: {width}px"


def test_a_table_with_long_names_and_a_battle_fits_a_phone(server, phone):
    # The verdict's pairs table with long names used to push the whole table page to 505px,
    # and Jinja's capitalize turned "McKay-Fitzgerald" into "Mckay-fitzgerald".
    names = ["McKay-Fitzgerald", "Bartholomew-Maximilian"]
    phone.goto(server + "/fort/")
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    created = phone.request.post(server + "/tables/new/fort", form={
        "csrf_token": csrf, "players": "2", "name_1": names[0], "name_2": names[1]})
    table = created.url
    for version, form in enumerate([
        {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 8D 6C 4D"},
        {"type": "start"},
        {"type": "draw"},
        {"type": "challenge", "target": "p2:9H", "size": "2", "a_soldiers": "7S KH", "d_soldiers": "AD 2C"},
    ]):
        answer = phone.request.post(table + "/act", form={"csrf_token": csrf, "version": str(version), **form})
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]
    phone.goto(table)
    expect(phone.locator("#battle-result")).to_have_text("McKay-Fitzgerald wins the battle and takes the 9♥.")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"
