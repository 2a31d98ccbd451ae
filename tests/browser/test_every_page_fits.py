"""Every page a phone opens beside a table's own (home, each game's pages and help, printing, the
history of plays, games and players, a table's log, replay and links), in English, French and
Polish on a 360 px phone, with its fold-outs as they open and then all open: nothing scrolls
sideways and no button label runs onto a second line (``assert_fits``). The history is seen with a
finished play in it, so that its pages and buttons are all there."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.test_narrow import assert_fits, phone_in

pytestmark = pytest.mark.browser


def _pages(tmp_path) -> list[str]:
    """The app's own pages a phone can open by their address alone (no table, no API, not the
    installable app's manifest and service worker, which are JSON and script)."""
    from companion.app import create_app
    from companion.store import db

    app = create_app({"DATABASE": str(tmp_path / "routes.sqlite3"), "SECRET_KEY": "routes"})
    try:
        return sorted(
            rule.rule
            for rule in app.url_map.iter_rules()
            if "GET" in rule.methods
            and not rule.arguments
            and not rule.rule.startswith("/api/")
            and rule.endpoint not in ("installable.manifest", "installable.worker")
        )
    finally:
        db.dispose(app.config["DATABASE"])


def _api(server: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        server + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _a_finished_score_pad(server: str) -> list[str]:
    """A score pad played and finished through the API (a play in the history, its players known);
    the addresses of its table's log, replay and links, of the play and of each game's history."""
    table = _api(server, "/api/v1/tables", {"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}})
    token = table["links"]["referee"]["token"]
    moved = _api(
        server,
        f"/api/v1/tables/{token}/actions",
        {"action": {"type": "round", "points": [5, 3]}, "version": 0},
    )
    _api(server, f"/api/v1/tables/{token}/finish", {"version": moved["version"]})
    with urllib.request.urlopen(f"{server}/api/v1/plays?limit=1", timeout=10) as answer:
        play = json.load(answer)["plays"][0]["id"]
    games = ("scorepad", "castle", "fort", "forteresse", "tactics", "zamek")
    return [f"/t/{token}/history", f"/t/{token}/replay", f"/t/{token}/links", f"/history/{play}"] + [
        f"/history/game/{game}" for game in games
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_every_page_fits_360_px_in_every_language(server, chromium, lang, tmp_path):
    played = _a_finished_score_pad(server)
    pages = _pages(tmp_path)
    assert {"/", "/history", "/print", "/tactics/help"} <= set(pages)
    page = phone_in(chromium, lang, server + "/players")
    try:
        player = page.locator("main a[href^='/players/']").first.get_attribute("href")
        assert re.fullmatch(r"/players/\d+", player), player
        for path in [*pages, *played, player, f"{player}/forget"]:
            page.goto(server + path)
            assert_fits(page, f"{path} in {lang}")
    finally:
        page.context.close()
