"""Replay: any table stepped through from its log at /t/<token>/replay?step=N, from any link,
with that link's own secrets and no one else's; times labelled UTC for phones without JavaScript."""

from __future__ import annotations

import re

from tests.conftest import text
from tests.web.test_forteresse import KUBA, OLA, _act, _drawn, _table

# A standing wall or besieged as a fortress board draws it (what only its owner may see).
STANDING = re.compile(r'class="fc inner (?:wall|besieged)[^"]*" data-cell="([A-G][1-7])"')


def _step(browser, token, step=None) -> str:
    response = browser.get(f"/t/{token}/replay" + ("" if step is None else f"?step={step}"))
    assert response.status_code == 200
    return text(response)


def _scorepad(browser) -> str:
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    for version, points in enumerate([[5, 3], [1, 9], [2, 2]]):
        browser.post(f"/t/{token}/act", {"version": str(version), "points": [str(p) for p in points]})
    return token


def _totals(html: str) -> list[str]:
    return re.findall(r'class="total">(-?\d+)<', html)


def test_each_step_shows_the_table_as_it_stood_after_that_move(browser):
    token = _scorepad(browser)
    assert _totals(_step(browser, token, 0)) == ["0", "0"]
    assert "The start, before any move (3 moves in all)." in _step(browser, token, 0)
    assert _totals(_step(browser, token, 1)) == ["5", "3"]
    second = _step(browser, token, 2)
    assert _totals(second) == ["6", "12"] and "Move 2 of 3: Round 2: Ola 1, Kuba 9." in second
    assert _totals(_step(browser, token)) == ["8", "14"]  # no step: the last
    for junk in ("99", "-4", "two", ""):
        assert "Move 3 of 3" in _step(browser, token, junk)
    # Read-only: no form to record a round, and every step links its neighbours.
    assert (
        "Record round" not in second
        and 'method="post"' not in second.split('id="replay"')[1].split("</section>")[0]
    )
    assert f"/t/{token}/replay?step=1" in second and f"/t/{token}/replay?step=3" in second


def test_an_undone_move_is_not_replayed(browser):
    token = _scorepad(browser)
    browser.post(f"/t/{token}/undo", {"version": "3"})
    last = _step(browser, token)
    assert "Move 2 of 2" in last and _totals(last) == ["6", "12"]


def test_each_link_replays_its_own_secrets_and_no_one_elses(browser, other_browser):
    token, links = _table(browser)
    _drawn(browser, other_browser, links)
    _act(browser, token, {"type": "shot", "from": "A4", "direction": "E", "weapon": "rifle"})
    own = {"Ola": set(OLA["walls"] + OLA["besieged"]), "Kuba": set(KUBA["walls"] + KUBA["besieged"])}
    for step in range(4):
        for name, phone in (("Ola", browser), ("Kuba", other_browser)):  # each seat's own phone
            shown = set(STANDING.findall(_step(phone, links[name], step)))
            assert shown <= own[name], (name, step)  # never the other's fortress
            if step >= (1 if name == "Ola" else 2):
                assert shown, (name, step)  # its own, once drawn
        for watcher in (token, links["Viewer"]):
            assert not STANDING.findall(_step(browser, watcher, step)), step


def test_times_are_labelled_utc_until_the_phone_shows_its_own(browser):
    token = _scorepad(browser)
    history = text(browser.get(f"/t/{token}/history"))
    assert re.search(
        r'<time datetime="[\d-]+T[\d:.]+\+00:00" data-local="time">\d\d:\d\d:\d\d UTC</time>', history
    )
    home = text(browser.get("/"))
    assert re.search(r'data-local="date">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>', home)


def test_every_game_replays_every_step_for_every_link_without_a_control(app, browser):
    """Random legal moves at a table of each game; every step of the replay, through every link, is
    a page of that game's table with no form that could post a move."""
    import random

    from companion import store
    from companion.http.context import get_db, registry
    from tests.rules.test_all_games import OPTIONS

    rng = random.Random(12)
    for slug, variants in OPTIONS.items():
        with app.app_context():
            game = registry().games[slug]
            table, links = store.create_table(get_db(), game.rules, slug, variants[-1], "")
            for _ in range(8):
                move = game.rules.random_legal_action(store.get_table(get_db(), table.id).state, rng)
                if move is None:
                    break
                version = store.get_table(get_db(), table.id).version
                store.act(get_db(), game.rules, table.id, move[0], move[1], version)
            total = len(store.replay(get_db(), game.rules, table.id, 0)[1])
        assert total >= 2, slug
        for link in links:
            for step in range(total + 1):
                html = _step(browser, link.token, step)
                replayed = html.split('id="replay"')[1].split('<nav class="replay-nav"')[0]
                assert f"/t/{link.token}/act" not in replayed and "/undo" not in replayed, (
                    slug,
                    link.role,
                    step,
                )
