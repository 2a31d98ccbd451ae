"""A player's ratings and rivals and a game's ranking on a 360 px phone, in English, French and
Polish: nothing scrolls sideways (a table inside neither), every fold-out open too, and axe-core
finds nothing against WCAG A/AA (light and dark), tap targets included."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.accessibility import assert_accessible
from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser

LONG = "Konstancja"  # a name as long as the Merge button's label leaves room for in Polish


def _a_season(server: str) -> None:
    """Plays of Castle in pairs and alone, Zamek and Fort, imported as another server's export."""
    names = [LONG, "Kuba", "Ewa", "Jan"]
    plays = []
    for number in range(1, 13):
        first, second = names[number % 4], names[(number + 1) % 4]
        plays.append(
            {
                "id": f"season-{number:03d}",
                "game": "castle" if number % 3 else "zamek",
                "started": f"2026-10-{number:02d}T18:00:00Z",
                "finished": f"2026-10-{number:02d}T19:00:00Z",
                "players": [
                    {"name": first, "team": None, "score": 30 + number, "winner": True},
                    {"name": second, "team": None, "score": 20, "winner": False},
                    {
                        "name": LONG if first != LONG and second != LONG else "Ola",
                        "team": None,
                        "score": 10,
                        "winner": False,
                    },
                ],
                "details": {},
            }
        )
    body = json.dumps({"format": "castellan-plays", "version": 1, "plays": plays}).encode()
    request = urllib.request.Request(
        server + "/api/v1/plays/import", body, {"Content-Type": "application/json"}, method="POST"
    )
    urllib.request.urlopen(request, timeout=10).close()


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_the_ratings_pages_fit_a_phone_and_pass_axe_in_every_language(server, chromium, lang):
    _a_season(server)
    page = phone_in(chromium, lang, server + "/history/game/castle")
    try:
        assert page.locator("#ranking + p + ol.ranking li").count() >= 3
        assert_fits(page, f"castle's ranking in {lang}")
        assert_accessible(page)
        page.locator("ol.ranking a", has_text=LONG).click()
        assert page.locator("#ratings").is_visible() and page.locator("#rivals").is_visible()
        assert page.locator("svg.chart#rating-chart-castle").is_visible()
        assert_fits(page, f"{LONG}'s page in {lang}")
        assert_accessible(page)
    finally:
        page.context.close()
