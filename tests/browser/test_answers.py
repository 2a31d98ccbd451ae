"""The answer is where the eye is: after a tap that posts a move, the refusal (role=alert) or
what was recorded (role=status) is on screen without scrolling, and a refused move keeps what
was typed and tapped, with JavaScript and without. At both phone sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import own_phone

pytestmark = pytest.mark.browser


def on_screen(page, locator) -> None:
    """The element is visible inside the viewport, not above or below it."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (box, height)


def _scorepad(page, server, players="Ola\nKuba\nAda\nJan"):
    page.goto(server + "/scorepad/")
    page.get_by_label("Players, one name per line").fill(players)
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Record round")).to_be_visible()  # the table's page, opened


def _zamek(page, server):
    page.goto(server + "/zamek/")
    page.get_by_label("1.").fill("Ola")
    page.get_by_label("2.").fill("Kuba")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_text("Ola's turn: turn over a card.")).to_be_visible()


def _tactics(page, server):
    page.goto(server + "/tactics/")
    page.get_by_label("Name", exact=True).first.fill("Ola")
    page.get_by_label("Name", exact=True).nth(1).fill("Kuba")
    page.get_by_role("button", name="Start a Square Tactics table").click()
    expect(page.get_by_text("You are the referee")).to_be_visible()


def test_a_recorded_round_is_said_on_screen_with_its_undo(server, sized_phone):
    page = sized_phone
    _scorepad(page, server)
    page.get_by_label("Ola", exact=True).fill("5")
    page.get_by_label("Kuba", exact=True).fill("3")
    page.get_by_role("button", name="Record round").click()
    status = page.get_by_role("status").filter(has_text="Recorded.")
    expect(status).to_have_text("Recorded. Round 1: Ola 5, Kuba 3, Ada 0, Jan 0.")
    on_screen(page, status)
    undo = page.locator("#answer").get_by_role("button", name="Undo")
    on_screen(page, undo)
    # Nothing the referee was using is hidden under it: the next round's button is on screen too.
    on_screen(page, page.get_by_role("button", name="Record round"))
    assert_accessible(page, both_widths=False)  # a move recorded, its answer pinned
    undo.click()
    on_screen(page, page.get_by_role("status").filter(has_text="Undone: Round 1"))


def test_a_refused_play_is_said_on_screen_and_keeps_the_tapped_cell_and_typed_numbers(server, sized_phone):
    page = sized_phone
    _tactics(page, server)
    page.locator('label.tcell:has(input[value="B2"])').click()
    for edge, number in (("top", 3), ("right", 4), ("bottom", 5)):
        page.get_by_label(edge, exact=True).fill(str(number))
    page.get_by_role("button", name="Play these numbers").click()
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    on_screen(page, alert)
    expect(page.locator('input[name="cell"][value="B2"]')).to_be_checked()
    expect(page.get_by_label("top", exact=True)).to_have_value("3")
    expect(page.get_by_label("bottom", exact=True)).to_have_value("5")
    assert_accessible(page, both_widths=False)  # a refusal, what was typed kept


def test_a_refused_turn_keeps_its_place_and_number_without_javascript(server, plain_phone):
    page = plain_phone
    _zamek(page, server)
    page.locator("label.zk-place", has_text="12").first.click()
    page.get_by_label("Its number").fill("99")
    page.get_by_role("button", name="Turn over").click()
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    on_screen(page, alert)
    expect(page.get_by_label("Its number")).to_have_value("99")
    expect(page.locator('input[name="position"][value="12"]')).to_be_checked()
    expect(page.get_by_text("Ola's turn: turn over a card.")).to_be_visible()  # nothing changed


def test_a_refused_correction_keeps_the_numbers_with_and_without_javascript(server, sized_phone, plain_phone):
    for page in (sized_phone, plain_phone):
        _scorepad(page, server, "Ola\nKuba")
        page.get_by_label("Ola", exact=True).fill("4")
        page.get_by_label("Kuba", exact=True).fill("2")
        page.get_by_role("button", name="Record round").click()
        page.get_by_role("link", name="Correct round 1").click()
        expect(page.get_by_role("group", name="Correct round 1")).to_be_visible()
        page.get_by_label("Kuba", exact=True).fill("2")
        page.get_by_role("button", name="Save round 1").click()
        alert = page.get_by_role("alert")
        expect(alert).to_have_text("Round 1 already has these points: nothing to correct.")
        on_screen(page, alert)
        if page is sized_phone:  # axe runs as a script: not on the phone without JavaScript
            assert_accessible(page, both_widths=False)  # a correction refused
        expect(page.get_by_label("Ola", exact=True)).to_have_value("4")
        page.get_by_label("Negative points for Kuba").check()
        page.get_by_role("button", name="Save round 1").click()
        expect(page.locator("tbody tr").first).to_contain_text("corrected")
        expect(page.locator("tfoot .total")).to_have_text(["4", "-2"])


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}], ids=["360x740"])
def test_a_move_on_an_expired_form_says_so_keeps_the_table_and_a_reload_mends_it(server, chromium, size):
    context, page = own_phone(chromium, viewport=size)
    _scorepad(page, server, "Ola\nKuba")
    context.clear_cookies()  # the session, and the form's token with it, is gone
    page.get_by_label("Ola", exact=True).fill("5")
    page.get_by_role("button", name="Record round").click()
    said = page.locator("#trouble .trouble-text")
    expect(said).to_have_text("This form has expired. Reload the page and try again.")
    on_screen(page, said)
    on_screen(page, page.locator("#trouble").get_by_role("button", name="Reload the page"))
    expect(page.locator("#live tfoot .total")).to_have_text(["0", "0"])  # the table, not an error page
    expect(page.get_by_label("Ola", exact=True)).to_have_value("5")  # what was typed is still there
    page.locator("#trouble").get_by_role("button", name="Reload the page").click()
    expect(page.locator("#trouble")).to_be_hidden()
    page.get_by_label("Ola", exact=True).fill("5")
    page.get_by_role("button", name="Record round").click()
    expect(page.locator("#live tfoot .total")).to_have_text(["5", "0"])
    context.close()


def test_a_move_that_cannot_reach_castellan_waits_on_the_phone_and_goes_by_itself(server, chromium):
    context, page = own_phone(chromium, viewport={"width": 360, "height": 740})
    _scorepad(page, server, "Ola\nKuba")
    page.route("**/act", lambda route: route.abort("internetdisconnected"))  # the Wi-Fi is gone
    page.get_by_label("Kuba", exact=True).fill("4")
    page.get_by_role("button", name="Record round").click()
    said = page.locator("#outbox .outbox-status")
    expect(said).to_have_text("Not connected: 1 move waits on this phone.")
    expect(page.locator("#outbox li")).to_have_text("Waiting, not recorded yet: Record round: Kuba 4")
    expect(page.locator("#trouble")).to_be_hidden()  # said once, by the outbox
    expect(page.locator("#live tfoot .total")).to_have_text(["0", "0"])
    page.reload()  # kept on the phone, not in the page
    expect(said).to_have_text("Not connected: 1 move waits on this phone.")
    page.unroute("**/act")
    page.get_by_role("button", name="Send now").click()
    expect(said).to_have_text("Sent: the table shows your moves.")
    expect(page.locator("#live tfoot .total")).to_have_text(["0", "4"])
    context.close()


def test_could_not_be_reached_gives_way_to_connected_again_once_a_request_gets_through(server, chromium):
    context, page = own_phone(chromium, viewport={"width": 360, "height": 740})
    _scorepad(page, server, "Ola\nKuba")
    page.get_by_label("Kuba", exact=True).fill("4")
    page.get_by_role("button", name="Record round").click()
    expect(page.locator("#live tfoot .total")).to_have_text(["0", "4"])
    page.route("**/t/*", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("link", name="Correct round 1").click()  # a look, not a move: nothing to keep
    said = page.locator("#trouble .trouble-text")
    expect(said).to_have_text("Castellan could not be reached. Check the Wi-Fi, then try again.")
    page.unroute("**/t/*")
    expect(said).to_have_text("Connected again.")  # the next poll got through
    expect(page.locator("#trouble")).to_have_attribute("role", "status")
    button = page.get_by_role("button", name="Record round").bounding_box()
    box = page.locator("#trouble").bounding_box()
    assert box["y"] + box["height"] <= button["y"] or box["y"] >= button["y"] + button["height"]
    expect(page.locator("#trouble")).to_be_hidden(timeout=6_000)
    context.close()
