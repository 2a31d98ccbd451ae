"""Square Tactics on a phone: the referee tracks a turn with a capture, by taps and typed numbers."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import invite_href

pytestmark = pytest.mark.browser


def tap_cell(phone, cell: str) -> None:
    phone.locator(f'label.tcell:has(input[value="{cell}"])').click()


def play_typed(phone, cell: str, numbers: list[int]) -> None:
    tap_cell(phone, cell)
    for edge, number in zip(("top", "right", "bottom", "left"), numbers, strict=True):
        phone.get_by_label(edge, exact=True).fill(str(number))
    phone.get_by_role("button", name="Play these numbers").click()


def start_tactics(phone, server: str) -> None:
    """A two-player Square Tactics table of Ola and Kuba, started from its form as the referee."""
    phone.goto(server + "/tactics/")
    phone.get_by_label("Name", exact=True).first.fill("Ola")
    phone.get_by_label("Name", exact=True).nth(1).fill("Kuba")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()


def test_a_tracked_turn_with_a_capture_on_a_phone(server, phone, second_phone):
    start_tactics(phone, server)
    turn = phone.locator("#whose-turn")
    first = re.match(r"(\w+)'s turn", turn.inner_text()).group(1)
    second = "Kuba" if first == "Ola" else "Ola"

    viewer = invite_href(phone, "Viewer")
    second_phone.goto(server + "/t/" + viewer.split("/t/")[1])
    assert_accessible(phone)  # the first turn

    # The first player's card: tap a cell, then one of the cards of the hand (away from the fight).
    tap_cell(phone, "A1")
    card_name = phone.locator(".hand .card-button .card-name").first.inner_text()
    phone.locator(".hand .card-button").first.click()
    expect(phone.locator("#last-play")).to_contain_text(f"{first} played {card_name} on A1.")
    expect(turn).to_contain_text(f"{second}'s turn")

    # Typed cards whose numbers are known whatever the shuffle: a 1 everywhere, then a 9
    # everywhere beside it, which must capture it (C3's only neighbour with a card is B3).
    play_typed(phone, "C3", [1, 1, 1, 1])
    expect(turn).to_contain_text(f"{first}'s turn")
    play_typed(phone, "B3", [9, 9, 9, 9])
    steps = phone.locator(".steps li")
    expect(steps.first).to_contain_text("→ capture C3")
    expect(phone.locator("#last-play")).to_contain_text("Captured 1: C3, now empty.")
    expect(turn).to_contain_text(f"{second}'s turn")
    expect(phone.locator('label.tcell:has(input[value="C3"])')).to_be_visible()  # free again
    expect(phone.locator(".players tbody tr", has_text=first).locator("td").nth(2)).to_have_text("1")

    # The viewer's phone follows by itself and shows the same capture.
    expect(second_phone.locator("#last-play")).to_contain_text("capture C3", timeout=3_000)
    assert_accessible(second_phone)  # a viewer after a capture

    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"
    # Every touch target on screen (cards folded away in a closed <details> are not on screen).
    boxes = phone.locator("label.tcell:visible, .card-button:visible").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    )
    assert len(boxes) >= 9
    for box in boxes:
        assert box[0] >= 44 and box[1] >= 44, box

    # A refused play says why and changes nothing.
    phone.locator(".hand .card-button").first.click()
    expect(phone.get_by_role("alert")).to_contain_text("Tap the cell the card was laid on first.")
    assert_accessible(phone)  # a refusal
    expect(turn).to_contain_text(f"{second}'s turn")


def test_seen_from_north_turns_the_board_for_this_phone(server, phone):
    phone.goto(server + "/tactics/")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    expect(phone.locator(".tboard .cell-name").first).to_have_text("A1")
    phone.get_by_role("button", name=re.compile(r"^N · ")).click()
    expect(phone.locator(".tboard .cell-name").first).to_have_text("C3")
    expect(phone.locator(".side-bottom")).to_contain_text("(N)")


def test_the_players_table_shows_every_column_on_a_phone(server, sized_phone):
    sized_phone.goto(server + "/tactics/")
    sized_phone.get_by_role("button", name="Start a Square Tactics table").click()
    table = sized_phone.locator("table.players")
    expect(table).to_contain_text("Captured")
    # The whole table in its region, Captured included: nothing to swipe sideways for.
    overflow = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
    assert overflow <= 0, f"the players' table is {overflow}px wider than the screen"
    right = table.locator("th", has_text="Captured").evaluate("th => th.getBoundingClientRect().right")
    assert right <= sized_phone.viewport_size["width"], f"Captured ends at {right}px"


def test_a_cells_name_stays_readable_over_the_card_laid_there(server, phone):
    phone.goto(server + "/tactics/")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    tap_cell(phone, "B2")  # a centre cell: its own ground colour
    phone.locator(".hand .card-button").first.click()
    cell = phone.locator(".tboard .tcell", has=phone.locator(".cell-name", has_text="B2")).first
    expect(cell.locator(".tcard")).to_be_visible()
    # The name stands on the cell's ground, above the card's frame, not crossed by it.
    name_ground, cell_ground = cell.locator(".cell-name").evaluate(
        "n => [getComputedStyle(n).backgroundColor, getComputedStyle(n.parentElement).backgroundColor]"
    )
    assert name_ground == cell_ground and name_ground not in ("rgba(0, 0, 0, 0)", "transparent")


def test_a_four_player_table_with_long_names_fits_a_phone(server, phone):
    # The players' table with long names used to push the whole table page past 390px.
    phone.goto(server + "/tactics/")
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    form = {"csrf_token": csrf, "players": "4"}
    for number, faction in enumerate(["wardens", "roost", "marches", "shieldwall"], start=1):
        form |= {f"faction_p{number}": faction, f"name_p{number}": f"Bartholomew-Maximilian {number}"}
    created = phone.request.post(server + "/tables/new/tactics", form=form)
    phone.goto(created.url)
    expect(phone.locator("table.players")).to_contain_text("Bartholomew-Maximilian 4")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"


def test_a_finished_game_and_match_on_a_phone(server, phone):
    """The phases after the last card: a game over, the next game offered, and the match over."""
    phone.goto(server + "/tactics/")
    phone.get_by_label("Name", exact=True).first.fill("Ola")
    phone.get_by_label("Name", exact=True).nth(1).fill("Kuba")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    table = phone.url

    def act(form: dict) -> None:
        html = phone.request.get(table).text()
        fields = {
            "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', html).group(1),
            "version": re.search(r'data-version="(\d+)"', html).group(1),
        }
        if form["type"] == "play":
            fields["player"] = re.search(r'name="player" value="([^"]+)"', html).group(1)
        answer = phone.request.post(table + "/act", form={**fields, **form})
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]

    for game in (1, 2, 3):
        # A 5 on every edge, cell after cell: nothing is captured and the board fills.
        for cell in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"):
            act(
                {
                    "type": "play",
                    "cell": cell,
                    "typed": "1",
                    "top": "5",
                    "right": "5",
                    "bottom": "5",
                    "left": "5",
                }
            )
        phone.goto(table)
        expect(phone.locator("#game-result")).to_contain_text(f"Game {game} is over")
        if game < 3:
            expect(phone.get_by_role("button", name=f"Start game {game + 1}")).to_be_visible()
            if game == 1:
                assert_accessible(phone)  # a game over, the next one offered
            act({"type": "next_game"})
    expect(phone.locator("#match-result")).to_contain_text(
        re.compile(r"wins the match with \d+ points\.|The match is a draw\.")
    )
    expect(phone.locator("#match-scores tfoot .total")).to_have_count(2)
    assert_accessible(phone)  # the match over, its score sheet
