"""A double tap, or a bouncing thumb, records one move: the second tap lands on nothing the first one
put under the finger (castellan.js, docs/taps.md). Taps are real touches at 360 px, 150 and 300 ms apart."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import settled

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
GAPS = [150, 300]


@pytest.fixture
def narrow(chromium):
    """A 360x740 touch phone."""
    from tests.browser.conftest import _context

    yield from _context(chromium, viewport=NARROW)


def double_tap(page, control, gap_ms: int) -> tuple[float, float]:
    """Tap the middle of ``control`` twice, ``gap_ms`` apart, as a thumb does; the point tapped."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap_ms)  # the double tap's own gap, not a wait for the page
    page.touchscreen.tap(x, y)
    return x, y


def undo_under(page, x: float, y: float) -> bool:
    """True when an Undo (or a control marked destructive) covers the point ``(x, y)``."""
    return page.evaluate(
        """([x, y]) => [...document.querySelectorAll('#live .undo button, #live [data-guard]')].some(b => {
            const r = b.getBoundingClientRect();
            return r.width > 0 && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
        })""",
        [x, y],
    )


@pytest.mark.parametrize("gap", GAPS)
def test_score_pad_record_round_twice_records_one_round(server, narrow, gap):
    narrow.goto(server + "/scorepad/")
    narrow.get_by_label("Players, one name per line").fill("Ola\nKuba\nEla\nJan")
    narrow.get_by_role("button", name="Start").click()
    expect(narrow.get_by_text("You are the referee")).to_be_visible()
    narrow.get_by_label("Ola", exact=True).fill("12")
    x, y = double_tap(narrow, narrow.get_by_role("button", name="Record round"), gap)
    expect(narrow.get_by_text("Round 1: Ola 12")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("tbody tr")).to_have_count(1)
    expect(narrow.locator("tfoot .total")).to_have_text(["12", "0", "0", "0"])
    expect(narrow.get_by_text("Undone")).to_have_count(0)
