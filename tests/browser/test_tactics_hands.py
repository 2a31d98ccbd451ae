"""Square Tactics with the real hands, on a phone held in one hand: the referee ticks each hand by
taps, only those cards are offered, a card outside the hand is refused where the eye is, and a
player's own link shows that player's hand. At 390x844 and 360x740."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import _context, invite_href
from tests.browser.test_answers import on_screen

pytestmark = pytest.mark.browser

SIZES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


@pytest.fixture(params=SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def phones(request, chromium):
    """The referee's phone and a player's, both of one size, each failing the test on a page error."""
    contexts = [_context(chromium, viewport=request.param) for _ in range(2)]
    yield [next(context) for context in contexts]
    for context in contexts:
        next(context, None)  # closes it and checks it reported no error


def tick_hand(phone, name: str) -> list[str]:
    """Open "Enter <name>'s hand", tick its first three cards, save; the names ticked."""
    hand = phone.locator("details.enter-hand", has_text=f"{name}'s hand")
    if hand.get_attribute("open") is None:
        hand.locator("summary").click()
    ticks = hand.locator("label.tick")
    names = [ticks.nth(index).locator(".card-name").inner_text() for index in range(3)]
    for index in range(3):
        ticks.nth(index).click()
    hand.get_by_role("button", name=f"Save {name}'s hand").click()
    expect(phone.locator("details.enter-hand", has_text=f"{name}'s hand")).to_contain_text("(3 of 3 entered)")
    status = phone.get_by_role("status").filter(has_text=f"{name}'s hand was entered (cards known: 3 of 3).")
    on_screen(phone, status)
    return names


def test_hands_ticked_by_taps_limit_the_cards_and_a_players_link_shows_its_own(server, phones):
    phone, player_phone = phones
    phone.goto(server + "/tactics/")
    phone.get_by_label("Name", exact=True).first.fill("Ola")
    phone.get_by_label("Name", exact=True).nth(1).fill("Kuba")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    turn = phone.locator("#whose-turn")
    first = re.match(r"(\w+)'s turn", turn.inner_text()).group(1)
    second = "Kuba" if first == "Ola" else "Ola"

    # Before any hand is entered, every unplayed card is offered; once ticked, only the hand.
    expect(phone.locator(".hand")).to_contain_text("any unplayed card of the faction is accepted")
    held = tick_hand(phone, first)
    offered = phone.locator(".hand > .hand-cards .card-button .card-name")
    expect(offered).to_have_count(3)
    assert offered.all_inner_texts() == held
    expect(phone.locator(".hand")).to_contain_text(
        f"{first}'s hand is entered: only these cards can be played."
    )
    assert_accessible(phone, both_widths=False)  # a hand entered
    width = phone.viewport_size["width"]
    for box in phone.locator("label.tick:visible, label.tcell:visible").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, box

    phone.locator('label.tcell:has(input[value="A1"])').click()
    phone.locator(".hand .card-button", has_text=held[1]).click()
    expect(phone.locator("#last-play")).to_contain_text(f"{first} played {held[1]} on A1.")
    expect(turn).to_contain_text(f"{second}'s turn")

    # The second player's hand is ticked too; numbers typed that are in no card of it are refused.
    tick_hand(phone, second)
    phone.locator('label.tcell:has(input[value="C3"])').click()
    for edge in ("top", "right", "bottom", "left"):
        phone.get_by_label(edge, exact=True).fill("1")
    phone.get_by_role("button", name="Play these numbers").click()
    alert = phone.get_by_role("alert")
    expect(alert).to_contain_text(f"No card [1 1 1 1] is in {second}'s hand, which holds")
    on_screen(phone, alert)
    assert_accessible(phone, both_widths=False)  # numbers in no card of the hand, refused
    expect(turn).to_contain_text(f"{second}'s turn")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width

    # The first player's own link shows the two cards left and asks for the one drawn.
    own = invite_href(phone, first)
    player_phone.goto(server + "/t/" + own.split("/t/")[1])
    mine = player_phone.locator("#own-hand")
    expect(mine).to_contain_text("One card in your hand is not entered yet")
    expect(mine.locator(".card-name")).to_have_text([held[0], held[2]])
    expect(player_phone.locator("details.enter-hand")).to_have_count(1)
    assert_accessible(player_phone, both_widths=False)  # a player's own hand
    assert player_phone.evaluate("document.documentElement.scrollWidth") <= width


def test_a_hands_tick_boxes_are_big_enough_to_tap(server, chromium):
    """An opened hand's boxes pass axe-core's checks, the box in each card's corner included (at
    least 24 px, WCAG 2.5.8; the whole card is its label and the bigger target)."""
    context = _context(chromium, viewport=SIZES[1])
    phone = next(context)
    phone.goto(server + "/tactics/")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    expect(phone.locator("#whose-turn")).to_be_visible()  # the table's page, opened (.all() does not wait)
    for hand in phone.locator("details.enter-hand:not([open]) summary").all():
        hand.click()
    expect(phone.locator("label.tick").first).to_be_visible()
    for box in phone.locator("label.tick input").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 24 and box[1] >= 24, box
    # Every box in view: on a short screen the lower ones scroll under the answer pinned to its
    # bottom, by design (castellan.css, .answer-fresh).
    phone.set_viewport_size({"width": SIZES[1]["width"], "height": 3000})
    assert_accessible(phone, both_widths=False)
    next(context, None)
