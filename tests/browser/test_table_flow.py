"""The foundation's flow as people do it: create a table on one phone, watch it on another."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import invite_href

pytestmark = pytest.mark.browser


def test_viewer_phone_follows_the_referee_without_reloading(server, phone, second_phone):
    phone.goto(server + "/")
    expect(phone.get_by_role("heading", name="Games")).to_be_visible()
    phone.get_by_role("link", name=re.compile("Score pad")).click()
    phone.get_by_label("Players, one name per line").fill("Ola\nKuba")
    phone.get_by_role("button", name="Start").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()

    viewer_address = invite_href(phone, "Viewer")
    second_phone.goto(viewer_address.replace(viewer_address.split("/t/")[0], server))
    expect(second_phone.get_by_text("You are watching")).to_be_visible()
    expect(second_phone.locator("tfoot .total")).to_have_text(["0", "0"])
    second_phone.evaluate("window.__notReloaded = true")

    phone.get_by_label("Ola", exact=True).fill("12")
    phone.get_by_label("Kuba", exact=True).fill("5")
    phone.get_by_role("button", name="Record round").click()
    expect(phone.locator("tfoot .total")).to_have_text(["12", "5"])

    # The viewer's screen changes by itself, within two seconds, without a reload.
    expect(second_phone.locator("tfoot .total")).to_have_text(["12", "5"], timeout=2_000)
    expect(second_phone.get_by_text("Leading: Ola")).to_be_visible()
    assert_accessible(phone)
    assert_accessible(second_phone)
    assert second_phone.evaluate("window.__notReloaded") is True

    # The referee undoes; the viewer follows again.
    phone.get_by_role("button", name="Undo").click()
    expect(phone.get_by_text("Undone: Round 1: Ola 12, Kuba 5.")).to_be_visible()
    expect(second_phone.locator("tfoot .total")).to_have_text(["0", "0"], timeout=2_000)


def test_home_page_fits_a_phone_and_has_big_touch_targets(server, phone):
    phone.goto(server + "/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    for box in phone.locator("ul.cards a, header.site a").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, box


def test_a_phone_without_javascript_can_still_keep_the_table(server, chromium):
    """htmx makes it faster, not possible: with scripting off, plain forms and redirects do it all."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/scorepad/")
    page.get_by_label("Players, one name per line").fill("Ada\nJan")
    page.get_by_role("button", name="Start").click()
    page.get_by_label("Ada", exact=True).fill("3")
    page.get_by_label("Jan", exact=True).fill("9")
    page.get_by_role("button", name="Record round").click()
    expect(page.locator("tfoot .total")).to_have_text(["3", "9"])
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_text("Undone: Round 1: Ada 3, Jan 9.")).to_be_visible()
    expect(page.locator("tfoot .total")).to_have_text(["0", "0"])
    context.close()


def test_a_phone_that_loses_the_network_catches_up_when_it_is_back(server, phone, chromium):
    """A phone asleep or off the Wi-Fi misses polls; back online, it shows the table as it is now."""
    # Its own context: while offline, Chromium logs every failed poll, which is the point here.
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    second_phone = context.new_page()
    phone.goto(server + "/scorepad/")
    phone.get_by_label("Players, one name per line").fill("Ola")
    phone.get_by_role("button", name="Start").click()
    viewer_address = invite_href(phone, "Viewer")
    second_phone.goto(viewer_address.replace(viewer_address.split("/t/")[0], server))
    expect(second_phone.locator("tfoot .total")).to_have_text(["0"])

    context.set_offline(True)
    second_phone.wait_for_timeout(4_000)  # several failed polls: the phone is backing off
    phone.get_by_label("Ola", exact=True).fill("8")
    phone.get_by_role("button", name="Record round").click()
    expect(phone.locator("tfoot .total")).to_have_text(["8"])
    expect(second_phone.locator("tfoot .total")).to_have_text(["0"])

    context.set_offline(False)
    expect(second_phone.locator("tfoot .total")).to_have_text(["8"], timeout=2_000)
    context.close()


def test_a_poll_answered_while_a_tap_is_out_leaves_the_taps_answer_on_screen(server, phone):
    """The phone's own poll can reach the server while its tap's request is still out and come back
    first, already showing the move: the tap's answer ("The table is finished", Undo) must still land.
    The tap's answer is held back here, after the server recorded the move, for several polls."""
    phone.goto(server + "/scorepad/")
    phone.get_by_label("Players, one name per line").fill("Ola\nKuba")
    phone.get_by_role("button", name="Start").click()
    expect(phone.get_by_role("button", name="Record round")).to_be_visible()  # the table's page, opened
    phone.get_by_label("Ola", exact=True).fill("4")
    phone.get_by_role("button", name="Record round").click()
    expect(phone.locator(".answer-fresh")).to_contain_text("Recorded.")

    held = []
    phone.route("**/finish", lambda route: held.append((route, route.fetch())))  # recorded, answer kept back
    polls = []
    phone.on("response", lambda response: polls.append(response.status) if "/live" in response.url else None)
    phone.get_by_role("button", name="Finish the table").click()
    phone.wait_for_timeout(2_000)  # four poll intervals: the table has changed, the phone has not heard yet
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)

    expect(phone.get_by_text("The table is finished: these totals are the final score.")).to_be_visible()
    expect(phone.get_by_role("button", name="Rematch")).to_be_visible()
    phone.wait_for_timeout(1_500)  # the next polls find the version shown: the answer stays
    expect(phone.get_by_text("The table is finished: these totals are the final score.")).to_be_visible()
    assert polls, "the phone went on polling"
