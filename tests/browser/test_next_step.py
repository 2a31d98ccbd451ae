"""After a tap that opens a next step, that step is on screen (castellan.js: data-step, data-then),
and the pinned answer of the last move lets go at the next tap, uncovering the next turn's controls.
At 360x740, the smaller phone, where each of these steps used to land below the screen's foot."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_answers import _scorepad
from tests.browser.test_answers import on_screen as _wholly_on_screen
from tests.browser.test_fort import SMALL_PHONE, _table_at
from tests.browser.test_tactics import tap_cell
from tests.browser.test_zamek import _two_players

pytestmark = pytest.mark.browser


def on_screen(page, locator) -> None:
    """``locator`` wholly on screen, once the swap has settled (the step is brought there after it)."""
    expect(locator).to_be_in_viewport(
        ratio=0.99
    )  # a fraction of a pixel may stay out; the check below allows 1 px
    _wholly_on_screen(page, locator)


def _scroll_to(page, locator, at: int = 60) -> None:
    """The person scrolls until ``locator`` sits ``at`` px under the screen's top."""
    top = locator.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    page.evaluate(f"window.scrollTo(0, {top} - {at})")


def test_square_tactics_a_tapped_cell_brings_the_hand_on_screen(server, phone):
    phone.set_viewport_size(SMALL_PHONE)
    phone.goto(server + "/tactics/")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    board = phone.locator("form.tactics-play .tboard")
    _scroll_to(phone, board)
    cards = phone.locator(".pick-card .hand-cards")
    assert (
        cards.bounding_box()["y"] + cards.bounding_box()["height"] > SMALL_PHONE["height"]
    )  # below, at first
    tap_cell(phone, "C3")
    on_screen(phone, cards)
    cell = phone.locator('label.tcell:has(input[value="C3"])').bounding_box()
    assert cell["y"] + cell["height"] > 0, cell  # the cell tapped still in sight, above it


def test_forteresse_on_paper_the_direction_brings_the_weapon_and_the_answer_on_screen(server, phone):
    phone.set_viewport_size(SMALL_PHONE)
    phone.goto(server + "/forteresse/")
    phone.get_by_text("On paper", exact=True).click()
    phone.get_by_role("button", name="Start a Forteresse table").click()
    aim = phone.locator("#aim-board button").last
    aim.scroll_into_view_if_needed()
    aim.click()
    expect(phone.get_by_text("2. Now the direction.")).to_be_visible()
    on_screen(phone, phone.locator("#live [data-step] button[name=direction]").first)
    phone.locator("#live [data-step] button[name=direction]").first.click()
    expect(phone.get_by_text("3. The weapon and the defender's answer.")).to_be_visible()
    on_screen(phone, phone.get_by_role("button", name="Record the shot"))
    on_screen(phone, phone.locator("fieldset", has_text="Weapon"))


def test_fort_an_allowed_challenge_and_its_soldiers_come_on_screen(server, phone):
    phone.set_viewport_size(SMALL_PHONE)
    deal = {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 9C 6C 4D"}
    _table_at(phone, server, [deal, {"type": "start"}, {"type": "draw"}])
    challenge = phone.locator("#challenge")
    target = challenge.locator("label", has_text="Bob's 6♣")
    _scroll_to(phone, target, at=620)  # near the thumb, at the screen's foot
    target.click()
    allowed = phone.locator("#challenge-allowed")
    expect(allowed).to_contain_text("Allowed: Bob's 6♣")
    on_screen(phone, allowed)


def test_zamek_the_card_turned_over_brings_its_question_on_screen(server, phone):
    _two_players(server, phone, (360, 740))
    phone.locator(".zk-places input[value='7']").check()
    phone.get_by_label("Its number").fill("30")
    phone.get_by_role("button", name="Turn over").click()
    on_screen(phone, phone.get_by_text("What does Ola do with 30?"))


def test_the_pinned_answer_lets_go_at_the_next_tap(server, phone):
    phone.set_viewport_size(SMALL_PHONE)
    _scorepad(phone, server, "Ola\nKuba")
    phone.get_by_label("Ola", exact=True).fill("5")
    phone.get_by_role("button", name="Record round").click()
    answer = phone.locator(".answer-fresh")
    expect(answer).to_contain_text("Recorded.")
    assert answer.evaluate("e => getComputedStyle(e).position") == "sticky"
    below = "e => e.nextElementSibling.getBoundingClientRect().top + scrollY"  # where what follows it starts
    before = answer.evaluate(below)
    phone.get_by_label("Kuba", exact=True).click()  # the next round begins
    assert answer.evaluate("e => getComputedStyle(e).position") == "static"
    assert answer.evaluate(below) == before  # letting go moves nothing under the player's finger
    # The next move's answer is pinned from the moment it lands: htmx carries an element's old class
    # over to its successor (same id) until the swap settles, and the answer let go must not be one.
    phone.evaluate("""() => document.addEventListener('htmx:afterSwap', () => {
      window.pinnedAtSwap = getComputedStyle(document.getElementById('answer')).position; }, {once: true})""")
    phone.get_by_label("Kuba", exact=True).fill("2")
    phone.get_by_role("button", name="Record round").click()
    expect(answer).to_contain_text("Recorded. Round 2")
    assert phone.evaluate("window.pinnedAtSwap") == "sticky"
    phone.get_by_label("Ola", exact=True).click()
    phone.locator("#answer").get_by_role("button", name="Undo").click()  # still there, in its own place
    expect(phone.get_by_role("status").filter(has_text="Undone: Round 2")).to_be_visible()
