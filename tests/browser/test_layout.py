"""Layout at a phone's width: a destroyed wall is marked by a pattern as well as its colour, a score
pad's four players fit 360 px (more scroll under a round column that stays), in light and dark mode,
no game's scores scroll sideways mid-game (Square Tactics with four players), and the Forteresse
table never scrolls sideways at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, serving
from tests.browser.test_narrow import SCROLLING

pytestmark = pytest.mark.browser

WALLS = "B2 B3 B4 B5 B6 C2 C3 C4 C5 C6"
BESIEGED = "D2 D3 D4 D5 D6"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_destroyed_wall_is_hatched_not_only_coloured(server, chromium, scheme):
    context = chromium.new_context(
        **{**PHONE, "viewport": {"width": 360, "height": 740}}, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(
        f"{server}/forteresse/resolver?walls={WALLS}&besieged={BESIEGED}&do=fire&weapon=cannon&direction=E&from=A2"
    )
    destroyed = page.locator('.fc.destroyed[data-cell="B2"]')
    expect(destroyed).to_contain_text("✕")
    assert "repeating-linear-gradient" in destroyed.evaluate("e => getComputedStyle(e).backgroundImage")
    standing = page.locator('.fc.wall[data-cell="B3"]')
    assert standing.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def _pad_with_a_round(page, server, lang, names):
    page.goto(f"{server}/language/{lang}?next=/scorepad/")
    page.locator("textarea").first.fill("\n".join(names))
    page.locator("form button[type=submit]").last.click()
    fields = page.locator("#round-form input[inputmode]")
    expect(fields).to_have_count(len(names))
    for index in range(len(names)):
        fields.nth(index).fill(str([1000, -105, 21, 360][index % 4]))
    page.locator("#round-form").locator("xpath=ancestor::form").locator("button[type=submit]").first.click()
    expect(page.locator("table.pad tbody tr")).to_have_count(1)
    return page.evaluate("""() => { const box = document.querySelector('.pad-scroll');
        return {table: document.querySelector('table.pad').getBoundingClientRect().width, box: box.clientWidth}; }""")


@pytest.mark.parametrize(
    "lang, names",
    [
        ("en", ["Player 1", "Player 2", "Player 3", "Player 4"]),
        ("fr", ["Marie", "Pierre", "Louise", "Antoine"]),
        ("pl", ["Ola", "Kuba", "Małgosia", "Janek"]),
    ],
)
def test_four_players_scores_fit_a_360px_phone(server, chromium, lang, names):
    context = chromium.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}})
    widths = _pad_with_a_round(context.new_page(), server, lang, names)
    assert widths["table"] <= widths["box"] + 0.5, (
        widths
    )  # every player's total on screen, no sideways scroll
    context.close()


def test_more_players_scroll_under_a_round_column_that_stays(server, chromium):
    context = chromium.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}})
    page = context.new_page()
    widths = _pad_with_a_round(
        page, server, "fr", ["Marianne", "Stanisław", "Ewa", "Jan", "Bartholomew", "Zoé"]
    )
    assert widths["table"] > widths["box"]
    total = page.locator("table.pad tfoot th")
    before = total.bounding_box()["x"]
    page.evaluate("document.querySelector('.pad-scroll').scrollLeft = 120")
    assert abs(total.bounding_box()["x"] - before) < 1  # "Total" and the round numbers stay put
    assert (
        page.locator("table.pad thead th").nth(1).bounding_box()["x"] < before
    )  # the players moved under it
    context.close()


@pytest.fixture(scope="module")
def mid_game(tmp_path_factory):
    """Every game's table halfway through a game (``make bench``'s tables: Square Tactics with four
    players), on a server of their own; yields its address and each game's referee token."""
    from bench.bench_server import _game_tables
    from companion.app import create_app

    database = str(tmp_path_factory.mktemp("mid-game") / "castellan.sqlite3")
    tokens = {name: game["token"] for name, game in _game_tables(database).items()}
    for base in serving(create_app({"DATABASE": database, "SECRET_KEY": "layout"})):
        yield base, tokens


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_no_table_of_scores_scrolls_sideways_mid_game_at_360px(mid_game, chromium, lang):
    """A scrolling region hides the last columns (often the leader's total) without a word: each
    game's scores fit the phone's width, in every language."""
    base, tokens = mid_game
    context = chromium.new_context(
        **{**PHONE, "viewport": {"width": 360, "height": 740}}, extra_http_headers={"Accept-Language": lang}
    )
    page = context.new_page()
    wide = {}
    for name, token in tokens.items():
        page.goto(f"{base}/t/{token}")
        regions = page.evaluate(SCROLLING)
        if regions:
            wide[name] = regions
    context.close()
    assert wide == {}
