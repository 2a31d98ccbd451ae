"""Replay and times on a phone: stepping with the thumb, and times in the phone's own zone, named."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def _pad(page, server):
    page.goto(server + "/scorepad/")
    page.get_by_label("Players, one name per line").fill("Ola\nKuba")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Record round")).to_be_visible()  # the table's page, opened
    for ola, kuba in (("5", "3"), ("1", "9")):
        page.get_by_label("Ola", exact=True).fill(ola)
        page.get_by_label("Kuba", exact=True).fill(kuba)
        page.get_by_role("button", name="Record round").click()
        expect(page.get_by_role("status").filter(has_text="Recorded.")).to_be_visible()


def test_a_table_is_stepped_through_from_its_first_move(server, sized_phone):
    page = sized_phone
    _pad(page, server)
    page.get_by_role("link", name="Replay").click()
    step = page.locator("#replay-step")
    expect(step).to_have_text("Move 2 of 2: Round 2: Ola 1, Kuba 9.")
    nav = page.get_by_role("navigation", name="Step through the moves")
    for name in ("First", "Previous"):
        box = nav.get_by_label(name).bounding_box()
        assert box["y"] + box["height"] <= page.viewport_size["height"] and box["height"] >= 44
    nav.get_by_label("First").click()
    expect(step).to_have_text("The start, before any move (2 moves in all).")
    expect(page.locator("tfoot .total")).to_have_text(["0", "0"])
    assert_accessible(page, both_widths=False)
    nav.get_by_label("Next").click()
    expect(step).to_have_text("Move 1 of 2: Round 1: Ola 5, Kuba 3.")
    expect(page.locator("tfoot .total")).to_have_text(["5", "3"])
    assert page.url.endswith("?step=1")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_times_are_in_the_phones_zone_and_say_so_and_utc_without_javascript(server, chromium):
    context = chromium.new_context(**PHONE, timezone_id="Asia/Kolkata", locale="en-GB")
    page = context.new_page()
    _pad(page, server)
    page.get_by_role("navigation", name="This table").get_by_role("link", name="History").click()
    shown = page.locator("ol.history time").first
    utc = shown.get_attribute("datetime")
    hours, minutes = int(utc[11:13]), int(utc[14:16])
    local = f"{(hours + 5 + (minutes + 30) // 60) % 24:02d}:{(minutes + 30) % 60:02d}"
    expect(shown).to_contain_text(local)
    expect(shown).to_contain_text(re.compile(r"GMT\+5:30|IST"))
    context.close()

    plain = chromium.new_context(**PHONE, java_script_enabled=False)
    page = plain.new_page()
    page.goto(server + "/")
    _pad(page, server)
    page.get_by_role("navigation", name="This table").get_by_role("link", name="History").click()
    expect(page.locator("ol.history time").first).to_have_text(re.compile(r"^\d\d:\d\d:\d\d UTC$"))
    plain.close()
