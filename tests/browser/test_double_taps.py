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


@pytest.mark.parametrize("gap", GAPS)
def test_fort_end_turn_twice_ends_one_turn_and_draws_nothing(server, narrow, gap):
    narrow.goto(server + "/fort/")
    csrf = narrow.locator("input[name=csrf_token]").first.get_attribute("value")
    created = narrow.request.post(
        server + "/tables/new/fort",
        form={"csrf_token": csrf, "players": "2", "name_1": "Ana", "name_2": "Ben"},
    )
    deal = {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 9C 6C 4D"}
    for version, form in enumerate([deal, {"type": "start"}, {"type": "draw"}]):
        narrow.request.post(created.url + "/act", form={"csrf_token": csrf, "version": str(version), **form})
    narrow.goto(created.url)
    x, y = double_tap(narrow, narrow.get_by_role("button", name="End Ana's turn"), gap)
    expect(narrow.get_by_role("button", name="Ben draws a card")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", "4")  # one move: the end of Ana's turn
    expect(narrow.get_by_text("Ben drew a card")).to_have_count(0)


@pytest.mark.parametrize("gap", GAPS)
def test_zamek_choice_twice_records_one_turn(server, narrow, gap):
    narrow.goto(server + "/zamek/")
    narrow.get_by_label("1.").fill("Ola")
    narrow.get_by_label("2.").fill("Kuba")
    narrow.get_by_role("button", name="Start the table").click()
    narrow.locator("label.zk-place", has_text="12").first.click()
    narrow.get_by_label("Its number").fill("9")
    narrow.get_by_role("button", name="Turn over").click()
    expect(narrow.get_by_text("What does Ola do with 9?")).to_be_visible()
    settled(narrow)
    version = int(narrow.locator("#live").get_attribute("data-version"))
    x, y = double_tap(narrow, narrow.get_by_role("button", name="Put it back"), gap)
    expect(narrow.get_by_text("Kuba's turn: turn over a card.")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(narrow.get_by_text("Undone")).to_have_count(0)


def test_nothing_covers_the_final_score(server, narrow):
    narrow.goto(server + "/scorepad/")
    narrow.get_by_label("Players, one name per line").fill("Ola\nKuba")
    narrow.get_by_role("button", name="Start").click()
    expect(narrow.get_by_text("You are the referee")).to_be_visible()
    narrow.get_by_label("Ola", exact=True).fill("12")
    narrow.get_by_role("button", name="Record round").click()
    expect(narrow.locator("tfoot .total")).to_have_text(["12", "0"])
    settled(narrow)
    narrow.get_by_role("button", name="Finish the table").click()
    expect(narrow.get_by_text("This table is finished.")).to_be_visible()
    settled(narrow)
    for total in narrow.locator("tfoot .total").all():
        total.scroll_into_view_if_needed()
        box = total.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert narrow.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.answer')", [x, y])
