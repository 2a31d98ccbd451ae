"""WCAG 2.2 A/AA by axe-core over every public page, light and dark, at 390 and 360 px; then its
tap targets (44 px) and its controls with text at 200 %.

The table pages are checked by the game flows themselves (``assert_accessible`` at each phase
they go through, and test_keyboard.py's moves); this sweep covers the pages anyone can open
without a table.
"""

from __future__ import annotations

import pytest

from tests.browser.accessibility import assert_accessible, assert_tap_targets, assert_zoomable

pytestmark = pytest.mark.browser

PUBLIC_PAGES = [
    "/", "/print", "/scorepad/", "/history", "/players",
    "/castle/", "/castle/calculator", "/castle/score", "/castle/help",
    "/fort/", "/fort/battle", "/fort/showdown", "/fort/help",
    "/forteresse/", "/forteresse/resolver", "/forteresse/score", "/forteresse/help",
    "/tactics/", "/tactics/score", "/tactics/help",
    "/zamek/", "/zamek/score", "/zamek/help",
]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_every_public_page_has_no_wcag_violation(server, phone, path):
    phone.goto(server + path)
    assert_accessible(phone)
    assert_tap_targets(phone)
    assert_zoomable(phone)


def test_a_violation_fails_naming_the_rule_and_the_element(phone):
    phone.set_content('<html lang="en"><title>t</title><main><input id="nameless" type="text"></main></html>')
    with pytest.raises(AssertionError) as failure:
        assert_accessible(phone)
    assert "label (critical): #nameless" in str(failure.value)
    assert "360px light" in str(failure.value) and "390px light" in str(failure.value)


def test_small_and_lost_controls_are_named(phone):
    phone.set_content(
        '<html lang="en"><title>t</title><main><button id="tiny" style="width:20px;height:20px">+</button>'
        '<div style="position:relative"><button id="under">Go</button>'
        '<div style="position:absolute;inset:0;background:#fff"></div></div></main></html>'
    )
    with pytest.raises(AssertionError, match='20x20 px: <button id="tiny"'):
        assert_tap_targets(phone)
    with pytest.raises(AssertionError, match='<button id="under">Go</button>'):
        assert_zoomable(phone)
