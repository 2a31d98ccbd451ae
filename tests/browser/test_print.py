"""The print page on a phone: every paper link of every sheet, mats' page counts included, fits the screen."""

from __future__ import annotations

import pytest

SIZES = [pytest.param((390, 844), id="390x844"), pytest.param((360, 740), id="360x740")]


@pytest.mark.parametrize("size", SIZES)
def test_every_paper_link_fits_the_phone_screen(size, phone, server):
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    phone.goto(f"{server}/print")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    links = phone.locator(".papers a")
    assert links.count() > 40
    assert phone.get_by_role("link", name="Tabloid, in one piece").first.is_visible()
    for box in (links.nth(i).bounding_box() for i in range(links.count())):
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
