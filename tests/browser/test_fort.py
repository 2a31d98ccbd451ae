"""Fort as people do it on a phone: one battle adjudicated, from the situation to where every card goes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible

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

    for rank, suit, symbol in [
        ("7", "spades", "♠"),
        ("A", "diamonds", "♦"),
        ("K", "hearts", "♥"),
        ("2", "clubs", "♣"),
    ]:
        # Two taps a soldier: the rank, then the suit, which lays the card at once. The next rank is
        # tapped on the answer, as a person does (a tap on the page it replaces would be lost).
        picker = phone.locator(".card-picker.quick")
        picker.locator(".picker-ranks label", has_text=re.compile(f"^{rank}$")).click()
        picker.locator(".picker-suits button", has_text=suit).click()
        expect(phone.locator("#slots")).to_contain_text(rank + symbol)
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
    assert "a_soldiers=7S%20KH" in phone.url  # htmx kept the address shareable
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the adjudicator scrolls sideways: {width}px"
    assert_accessible(phone)


def test_a_table_with_long_names_and_a_battle_fits_a_phone(server, phone):
    # The verdict's pairs table with long names used to push the whole table page to 505px,
    # and Jinja's capitalize turned "McKay-Fitzgerald" into "Mckay-fitzgerald".
    names = ["McKay-Fitzgerald", "Bartholomew-Maximilian"]
    phone.goto(server + "/fort/")
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    created = phone.request.post(
        server + "/tables/new/fort",
        form={"csrf_token": csrf, "players": "2", "name_1": names[0], "name_2": names[1]},
    )
    table = created.url
    for version, form in enumerate(
        [
            {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 8D 6C 4D"},
            {"type": "start"},
            {"type": "draw"},
            {
                "type": "challenge",
                "target": "p2:9H",
                "size": "2",
                "a_soldiers": "7S KH",
                "d_soldiers": "AD 2C",
            },
        ]
    ):
        answer = phone.request.post(
            table + "/act", form={"csrf_token": csrf, "version": str(version), **form}
        )
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]
    phone.goto(table)
    expect(phone.locator("#battle-result")).to_have_text("McKay-Fitzgerald wins the battle and takes the 9♥.")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"


SMALL_PHONE = {"width": 360, "height": 740}
PHONES = [None, SMALL_PHONE]  # 390x844 (the fixture's), then 360x740


class Taps:
    """Every tap the test makes, counted: the numbers docs/fort.md reports."""

    def __init__(self):
        self.count = 0

    def tap(self, locator):
        locator.click()
        self.count += 1


def _tap_slot(taps, slot, card):
    rank, suit = card[:-1], {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card[-1]]
    taps.tap(slot.locator(".picker-ranks label", has_text=re.compile(f"^{rank}$")))
    taps.tap(slot.locator(".picker-suits label", has_text=suit))


def _no_sideways_scroll(phone):
    width = phone.evaluate("document.documentElement.scrollWidth")
    viewport = phone.viewport_size["width"]
    assert width <= viewport, f"the table scrolls sideways: {width}px on a {viewport}px phone"


@pytest.mark.parametrize("viewport", PHONES, ids=["390x844", "360x740"])
def test_a_four_player_game_is_dealt_by_taps_alone(server, phone, viewport):
    """Issue 12.2: 16 fort cards named by rank and suit taps, one open slot at a time, no keyboard."""
    if viewport:
        phone.set_viewport_size(viewport)
    taps = Taps()
    phone.goto(server + "/fort/")
    taps.tap(phone.locator("fieldset", has_text="Players").locator("label", has_text=re.compile("^4$")))
    taps.tap(phone.get_by_role("button", name="Start a Fort table"))
    expect(phone.locator("#fort-status")).to_contain_text("Deal 4 cards face up")
    assert_accessible(phone, both_widths=False)  # the deal
    forts = {
        "Player 1": ["9H", "9C", "2S", "KD"],
        "Player 2": ["5H", "8C", "JS", "4D"],
        "Player 3": ["3C", "3D", "3H", "QS"],
        "Player 4": ["10S", "AH", "7D", "6C"],
    }
    slots = phone.locator("form.deal .slot")
    expect(slots).to_have_count(16)
    setup = taps.count
    for index, card in enumerate(card for cards in forts.values() for card in cards):
        # One open slot at a time: its 13 ranks, and each filled slot shrunk to its own rank.
        expect(phone.locator("form.deal .picker-ranks label:visible")).to_have_count(13 + index)
        _tap_slot(taps, slots.nth(index), card)
        _no_sideways_scroll(phone)
    taps.tap(phone.get_by_role("button", name="Record the deal"))
    expect(phone.locator("#fort-status")).to_contain_text("Before the game, each player may burn one card.")
    for number, (name, cards) in enumerate(forts.items(), start=1):
        player = phone.locator(f"#player-p{number}")
        expect(player.locator("h3")).to_contain_text(name)
        expect(player.locator(".towers")).to_contain_text(" ".join(c[:-1] for c in cards[:1]))
    expect(phone.locator("#player-p3 .towers")).to_contain_text("triple")
    assert_accessible(phone, both_widths=False)  # burning
    assert taps.count - setup == 33  # 16 cards x (rank + suit) + "Record the deal"
    _no_sideways_scroll(phone)


def _table_at(phone, server, forms):
    phone.goto(server + "/fort/")
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    created = phone.request.post(
        server + "/tables/new/fort",
        form={"csrf_token": csrf, "players": "2", "name_1": "Ann", "name_2": "Bob"},
    )
    for version, form in enumerate(forms):
        answer = phone.request.post(
            created.url + "/act", form={"csrf_token": csrf, "version": str(version), **form}
        )
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]
    phone.goto(created.url)
    return created.url


@pytest.mark.parametrize("viewport", PHONES, ids=["390x844", "360x740"])
def test_an_illegal_challenge_is_refused_before_any_card_then_a_battle_is_settled_by_taps(
    server, phone, viewport
):
    """Issue 12.2: only legal targets are offered; a size the armies cannot meet is refused at once, in words."""
    if viewport:
        phone.set_viewport_size(viewport)
    deal = {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 9C 6C 4D"}
    table = _table_at(phone, server, [deal, {"type": "start"}, {"type": "draw"}])
    challenge = phone.locator("#challenge")
    expect(challenge.locator("input[name=challenge]")).to_have_count(2)  # 6♣ and 4♦, not the double's top
    closed = challenge.locator("details.closed-targets")
    closed.locator("summary").click()
    expect(closed).to_contain_text(
        "Bob's 9♣ (top of a double): The top of a watchtower of 2 needs 6 army cards to challenge, "
        "and the attacker holds 5."
    )
    # Bob builds his fort from 5 army cards down to 1; Ann, back with 6, may now go for the double's top.
    _table_forms = [
        {"type": "end_turn"},
        {"type": "draw"},
        {"type": "fortify", "cards": "KC KD KH KS"},
        {"type": "end_turn"},
        {"type": "draw"},
    ]
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    for version, form in enumerate(_table_forms, start=3):
        answer = phone.request.post(
            table + "/act", form={"csrf_token": csrf, "version": str(version), **form}
        )
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]
    phone.goto(table)
    taps = Taps()
    taps.tap(challenge.locator("label", has_text="Bob's 6♣"))
    taps.tap(challenge.locator("fieldset", has_text="Soldiers each").locator("label", has_text="2"))
    refusal = phone.get_by_role("alert")
    expect(refusal).to_have_text(
        "Not allowed: A challenge of 2 needs 2 army cards on each side; the attacker holds 6 and the defender 1."
    )
    expect(refusal).to_be_in_viewport(
        ratio=0.99
    )  # brought there once the swap settles (a busy machine is slower)
    box = refusal.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= phone.viewport_size["height"] + 1  # where the eye is
    expect(phone.locator(".slot", has_text="soldier")).to_have_count(0)  # no soldier asked for, no card shown
    expect(phone.locator("#challenge-allowed")).to_have_count(0)
    assert_accessible(phone, both_widths=False)  # a challenge refused
    taps.tap(challenge.locator("fieldset", has_text="Soldiers each").locator("label", has_text="1"))
    expect(phone.locator("#challenge-allowed")).to_have_text(
        "Allowed: Bob's 6♣, 1 soldier each, picked blind from the other's army."
    )
    slots = phone.locator(".slot", has_text="soldier")
    _tap_slot(taps, slots.nth(0), "7D")
    _tap_slot(taps, slots.nth(1), "AS")
    taps.tap(phone.get_by_role("button", name="Settle the battle"))
    expect(phone.locator("#battle-result")).to_have_text("Ann wins the battle and takes the 6♣.")
    assert_accessible(phone, both_widths=False)  # a battle settled
    phone.screenshot(path=f"/tmp/fort-battle-{phone.viewport_size['width']}.png", full_page=True)
    assert taps.count == 8  # target, size 2 (refused), size 1, 2 soldiers x (rank + suit), settle
    _no_sideways_scroll(phone)


@pytest.mark.parametrize("viewport", PHONES, ids=["390x844", "360x740"])
def test_the_showdown_judge_by_taps(server, phone, viewport):
    """Issue 12.2: the showdown judge's armies are tapped card by card, with no sideways scrolling."""
    if viewport:
        phone.set_viewport_size(viewport)
    phone.goto(server + "/fort/showdown")
    taps = Taps()
    for seat, cards in ((1, ["5H", "JC", "2D"]), (2, ["9C", "4S", "QH", "6D"])):
        slots = phone.locator(f"details.showdown-player:nth-of-type({seat}) .slot")
        for index, card in enumerate(cards):
            _tap_slot(taps, slots.nth(index), card)
    _no_sideways_scroll(phone)
    taps.tap(phone.get_by_role("button", name="Judge the showdown"))
    expect(phone.locator("#showdown-result")).to_have_text("Player 2 wins the game with 2 tricks.")
    assert_accessible(phone, both_widths=False)
    assert taps.count == 15  # 7 cards x (rank + suit) + judge
    _no_sideways_scroll(phone)
    phone.screenshot(path=f"/tmp/fort-showdown-{phone.viewport_size['width']}.png", full_page=True)
