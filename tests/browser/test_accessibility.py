"""WCAG 2.2 A/AA by axe-core over every public page, light and dark, at 390 and 360 px.

The table pages are checked by the game flows themselves (``assert_accessible`` at each phase
they go through); this sweep covers the pages anyone can open without a table.
"""

from __future__ import annotations

import pytest

from tests.browser.accessibility import assert_accessible

pytestmark = pytest.mark.browser

PUBLIC_PAGES = [
    "/", "/print", "/scorepad/",
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


def test_a_violation_fails_naming_the_rule_and_the_element(phone):
    phone.set_content('<html lang="en"><title>t</title><main><input id="nameless" type="text"></main></html>')
    with pytest.raises(AssertionError) as failure:
        assert_accessible(phone)
    assert "label (critical): #nameless" in str(failure.value)
    assert "360px light" in str(failure.value) and "390px light" in str(failure.value)
