"""Zamek as people play it: a referee's phone and two team members voting from their own phones."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PHONE, invite_href, settled

pytestmark = pytest.mark.browser


@pytest.fixture
def third_phone(chromium):
    """A third phone (a second member of the same team), with its own cookies."""
    context = chromium.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _join(page, address: str, name: str) -> None:
    page.goto(address)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join Team Red").click()


def test_two_team_members_vote_from_their_phones_and_the_referee_sees_each_decision(
    server, phone, second_phone, third_phone
):
    phone.goto(server + "/zamek/")
    phone.get_by_label("1.").fill("Red")
    phone.get_by_label("2.").fill("Blue")
    phone.get_by_label("Extended: play until the table is empty, then score").check()
    phone.get_by_label("Teams vote from their phones").check()
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    address = invite_href(phone, "Team Red")
    address = address.replace(address.split("/t/")[0], server)

    _join(second_phone, address, "Ala")
    expect(second_phone.get_by_text("You are Ala, captain of Team Red.")).to_be_visible()
    _join(third_phone, address, "Bea")
    expect(third_phone.get_by_text("You are Bea in Team Red.")).to_be_visible()

    # Each phone acts on the table as it last saw it: Ala's phone first learns that Bea joined.
    expect(second_phone.locator(".zk-members", has_text="Bea")).to_be_visible(timeout=3_000)

    # Ala votes: Bea's phone shows it by itself; the referee only sees that one of two voted.
    second_phone.get_by_role("button", name="Vote for place 4", exact=True).click()
    expect(third_phone.get_by_text("Ala: 4")).to_be_visible(timeout=3_000)
    expect(phone.get_by_text("Team Red is voting on the card to turn over (votes: 1 of 2).")).to_be_visible(
        timeout=3_000
    )
    assert_accessible(phone)  # the referee while a team votes
    expect(phone.get_by_text("Ala: 4")).to_have_count(0)

    third_phone.get_by_role("button", name="Vote for place 4", exact=True).click()
    expect(phone.get_by_text("Team Red chose place 4.")).to_be_visible(timeout=3_000)
    phone.get_by_label("Its number").fill("23")
    phone.get_by_role("button", name="Turn over").click()

    # A tie on what to do with 23: the captain's choice wins.
    expect(second_phone.locator(".zk-vote")).to_contain_text("23 is face up. Vote", timeout=3_000)
    second_phone.get_by_role("button", name="Add to the castle").click()
    expect(third_phone.get_by_text("Ala: add")).to_be_visible(timeout=3_000)
    assert_accessible(third_phone)  # a team member's screen
    third_phone.get_by_role("button", name="Put it back").click()
    expect(phone.get_by_text("Last turn (Red, team vote): card 23 added.")).to_be_visible(timeout=3_000)
    expect(phone.locator(".zk-player", has_text="Red").locator(".zk-number")).to_have_text(["1", "23"])
    expect(second_phone.get_by_text("Blue's turn: turn over a card.")).to_be_visible(timeout=3_000)


def test_the_referees_table_fits_a_phone_with_big_touch_targets(server, phone):
    phone.goto(server + "/zamek/")
    phone.get_by_label("1.").fill("Ola")
    phone.get_by_label("2.").fill("Kuba")
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_text("Ola's turn: turn over a card.")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    for box in phone.locator(".zk-place, .zk-step button").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, box
    phone.locator("label.zk-place", has_text="12").first.click()
    phone.get_by_label("Its number").fill("9")
    phone.get_by_role("button", name="Turn over").click()
    expect(phone.get_by_text("What does Ola do with 9?")).to_be_visible()
    assert_accessible(phone)  # a card face up
    phone.get_by_role("button", name="Add to the castle").click()
    expect(phone.get_by_text("Last turn (Ola): card 9 added.")).to_be_visible()


SIZES = [pytest.param((390, 844), id="390x844"), pytest.param((360, 740), id="360x740")]


def _two_players(server, phone, size, variant="Basic") -> None:
    phone.set_viewport_size({"width": size[0], "height": size[1]})
    phone.goto(server + "/zamek/")
    phone.get_by_label("1.").fill("Ola")
    phone.get_by_label("2.").fill("Kuba")
    phone.get_by_role("button", name="Start the table").click()
    expect(phone.get_by_text("Ola's turn: turn over a card.")).to_be_visible()


def _turn_over(phone, place: int, number: int, choice: str | None) -> None:
    """A referee's turn: tap the place, type the number, then one tap, on the player's choice if it is known."""
    phone.locator(f".zk-places input[value='{place}']").check()
    phone.get_by_label("Its number").fill(str(number))
    phone.get_by_role("button", name=choice or "Turn over").click()
    expect(phone.get_by_label("Its number")).to_have_count(1 if choice else 0)


@pytest.mark.parametrize("size", SIZES)
def test_the_referee_ends_a_game_where_the_cards_keep_going_back(server, phone, size):
    _two_players(server, phone, size)
    _turn_over(phone, 1, 30, "Put it back")
    expect(phone.get_by_text("Last turn (Ola): card 30 put back.")).to_be_visible()
    _turn_over(phone, 2, 12, "Add to the castle")  # Kuba: 1 12
    expect(phone.get_by_text("Last turn (Kuba): card 12 added.")).to_be_visible()
    _turn_over(phone, 1, 30, None)  # Ola turns the 30 over again, and would put it back again...
    expect(
        phone.get_by_text("43 cards lie face down.")
    ).to_be_visible()  # 45, less 12 in a castle, less 30 face up
    expect(phone.get_by_text("The card numbered 30 is face up.")).to_be_visible()
    phone.get_by_text("End the game now").click()
    expect(phone.get_by_text("the longest castle wins, as when the table is empty")).to_be_visible()
    phone.get_by_role("button", name="End the game and score it").click()
    # The answer to the tap is where the eye is (pinned near the thumb); the status line says it too.
    expect(
        phone.get_by_role("status").filter(has_text="Kuba wins with the longest castle")
    ).to_be_in_viewport()
    expect(phone.get_by_text("Game over: Kuba wins with the longest castle.")).to_be_visible()
    assert_accessible(phone, both_widths=False)  # game over
    expect(phone.get_by_text("is face up")).to_have_count(0)
    expect(phone.get_by_role("button", name="Turn over")).to_have_count(0)
    assert phone.evaluate("document.documentElement.scrollWidth") <= size[0]


@pytest.mark.parametrize("size", SIZES)
def test_a_team_link_is_the_whole_teams_and_an_outvoted_member_hears_the_decision(
    server, phone, second_phone, third_phone, size
):
    for each in (phone, second_phone, third_phone):
        each.set_viewport_size({"width": size[0], "height": size[1]})
    phone.goto(server + "/zamek/")
    phone.get_by_label("1.").fill("Red")
    phone.get_by_label("2.").fill("Blue")
    phone.get_by_label("Teams vote from their phones").check()
    phone.get_by_role("button", name="Start the table").click()
    card = phone.locator(".invite-card", has_text="Team Red")
    expect(card).to_contain_text("For the whole team: each member opens it on their own phone.")
    expect(phone.locator(".invite-card", has_text="only for this player")).to_have_count(0)
    address = card.locator("a.address").get_attribute("href")
    address = address.replace(address.split("/t/")[0], server)

    _join(second_phone, address, "Ala")
    _join(third_phone, address, "Bea")
    expect(third_phone.get_by_text("Team Red's screen, shared by its members")).to_be_visible()
    expect(second_phone.locator(".zk-members", has_text="Bea")).to_be_visible(timeout=3_000)
    # A tie: Ala is the captain, so her place wins and Bea's phone says so where she is looking.
    second_phone.get_by_role("button", name="Vote for place 4", exact=True).click()
    expect(third_phone.get_by_text("Ala: 4")).to_be_visible(timeout=3_000)
    settled(third_phone)  # Ala's vote just swapped in: Bea taps once it has settled
    third_phone.get_by_role("button", name="Vote for place 9", exact=True).click()
    told = third_phone.get_by_role("status").filter(
        has_text="Your team chose place 4; you had voted for place 9."
    )
    expect(told).to_be_in_viewport()
    expect(second_phone.get_by_text("Your team chose")).to_have_count(0)
    assert third_phone.evaluate("document.documentElement.scrollWidth") <= size[0]
