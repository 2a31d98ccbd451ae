"""A phone's first table, opened from a shared link before it had a cookie, is on its home page after."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import invite_href

pytestmark = pytest.mark.browser


def test_a_table_opened_from_a_link_first_is_listed_on_the_phones_home_page(server, phone, second_phone):
    phone.goto(server + "/scorepad/")
    phone.get_by_label("Players, one name per line").fill("Ola\nKuba")
    phone.get_by_role("button", name="Start").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()

    viewer_address = invite_href(phone, "Viewer")
    second_phone.goto(viewer_address.replace(viewer_address.split("/t/")[0], server))  # its first page
    expect(second_phone.get_by_text("You are watching")).to_be_visible()
    second_phone.goto(server + "/")
    mine = second_phone.get_by_role("region", name="Your tables")
    expect(mine.get_by_role("link", name=re.compile("Score pad"))).to_have_attribute(
        "href", "/t/" + viewer_address.split("/t/")[1]
    )
