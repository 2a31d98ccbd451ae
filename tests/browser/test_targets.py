"""The history's play page at 360 px in English, French and Polish: its round tables fit (Points on
screen), and every link standing in a table, a list or the footer is at least 44 px high, as the
README promises (issue 37.6)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.test_every_page_fits import _api
from tests.browser.test_narrow import phone_in

pytestmark = pytest.mark.browser

NAMES = ["Aleksandra", "Przemysław", "Małgorzata", "Bartłomiej"]
SMALL_LINKS = """() => [...document.querySelectorAll('main td a, main th a, main li > a, footer.site a')]
    .filter(a => a.getBoundingClientRect().height < 44)
    .map(a => a.textContent.trim() + ': ' + Math.round(a.getBoundingClientRect().height))"""


def _a_play_of_four_long_names(server: str) -> str:
    table = _api(server, "/api/v1/tables", {"game": "scorepad", "options": {"players": NAMES}})
    token, version = table["links"]["referee"]["token"], 0
    for _ in range(3):
        action = {"action": {"type": "round", "points": [105, -23, 7, 1000]}, "version": version}
        version = _api(server, f"/api/v1/tables/{token}/actions", action)["version"]
    _api(server, f"/api/v1/tables/{token}/finish", {"version": version})
    with urllib.request.urlopen(f"{server}/api/v1/plays?limit=1", timeout=10) as answer:
        return json.load(answer)["plays"][0]["id"]


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_a_plays_round_tables_fit_360_px_and_its_links_are_44_px(server, chromium, lang):
    play = _a_play_of_four_long_names(server)
    page = phone_in(chromium, lang, server + f"/history/{play}")
    try:
        widths = page.locator("main table").evaluate_all("ts => ts.map(t => t.getBoundingClientRect().right)")
        assert widths and max(widths) <= 360, widths
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.evaluate(SMALL_LINKS) == []
        for path in ("/history", "/players"):
            page.goto(server + path)
            assert page.evaluate(SMALL_LINKS) == [], path
    finally:
        page.context.close()
