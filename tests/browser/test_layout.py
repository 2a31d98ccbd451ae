"""Layout at a phone's width: a destroyed wall is marked by a pattern as well as its colour,
in light and dark mode, and the Forteresse table never scrolls sideways at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

WALLS = "B2 B3 B4 B5 B6 C2 C3 C4 C5 C6"
BESIEGED = "D2 D3 D4 D5 D6"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_destroyed_wall_is_hatched_not_only_coloured(server, chromium, scheme):
    context = chromium.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{server}/forteresse/resolver?walls={WALLS}&besieged={BESIEGED}&do=fire&weapon=cannon&direction=E&from=A2")
    destroyed = page.locator('.fc.destroyed[data-cell="B2"]')
    expect(destroyed).to_contain_text("✕")
    assert "repeating-linear-gradient" in destroyed.evaluate("e => getComputedStyle(e).backgroundImage")
    standing = page.locator('.fc.wall[data-cell="B3"]')
    assert standing.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
