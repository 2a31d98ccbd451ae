"""Invitations that can't be mis-scanned, on a phone: the codes stand a code's width apart, each
names its link in large text, the referee's own comes last, and the panel folds and reopens."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible

pytestmark = pytest.mark.browser


def _gap(a: dict, b: dict) -> float:
    """The distance between two boxes: along whichever axis they are apart."""
    horizontal = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
    vertical = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
    return max(horizontal, vertical)


def test_codes_are_a_code_apart_named_in_large_text_and_the_panel_folds(server, sized_phone, chromium):
    page = sized_phone
    page.goto(server + "/forteresse/")
    page.get_by_role("button", name="Start a Forteresse table").click()
    panel = page.locator("details.invites")
    expect(panel).to_have_attribute("open", "")
    cards = page.locator(".invite-card")
    expect(cards.first).not_to_contain_text("Referee")
    expect(cards.last).to_contain_text("The referee's own link")
    codes = [
        box
        for box in page.locator(".invite-card svg.qr").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
        )
    ]
    assert len(codes) == 4
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            assert _gap(a, b) >= a["width"] - 1, (a, b)
    for size in page.locator(".invite-card figcaption strong").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    ):
        assert size >= 24, size
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert_accessible(page, both_widths=False)  # the invitations open

    # Both players open their links: the panel is folded on the referee's next look, and reopens on a tap.
    addresses = [cards.nth(i).locator("a.address").get_attribute("href") for i in range(2)]
    other = chromium.new_context(viewport=page.viewport_size)
    for address in addresses:
        other.new_page().goto(server + "/t/" + address.split("/t/")[1])
    other.close()
    page.reload()
    expect(panel).not_to_have_attribute("open", "")
    expect(cards.first).to_be_hidden()
    # Folded, it still shows that it opens: the summary keeps its disclosure triangle (a list item's marker).
    assert panel.locator("summary").evaluate("s => getComputedStyle(s).display") == "list-item"
    assert panel.locator("summary").evaluate("s => s.getBoundingClientRect().height") >= 44
    panel.locator("summary").click()
    expect(cards.first).to_be_visible()
    expect(cards.first).to_contain_text("✓ opened")
    assert_accessible(page, both_widths=False)  # reopened, the links taken
