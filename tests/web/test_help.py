"""Help at hand: each game's help page starts with a table of contents of in-page links, and each
table page links to its game's help at the section for the phase the table is in."""

from __future__ import annotations

import re

import pytest

from tests.conftest import text

GAMES = {
    "castle": {"players": "4", "dealer": "E"},
    "fort": {"players": "2"},
    "forteresse": {"mode": "paper", "first": "a", "name_a": "Ola", "name_b": "Kuba"},
    "tactics": {
        "players": "2",
        "faction_p1": "wardens",
        "faction_p2": "roost",
        "name_p1": "Ola",
        "name_p2": "Kuba",
    },
    "zamek": {"players": ["Ola", "Kuba", "", ""], "variant": "basic", "deck": "default"},
}
FIRST_SECTION = {
    "castle": "the-deal-and-the-castle",
    "fort": "getting-started",
    "forteresse": "your-turn-one-shot",
    "tactics": "your-turn",
    "zamek": "turn",
}


@pytest.mark.parametrize("slug", GAMES)
def test_a_help_page_starts_with_contents_whose_links_all_land_on_a_section(browser, slug):
    html = text(browser.get(f"/{slug}/help"))
    main = html.split('<main id="main">')[1]
    assert re.match(r"\s*(<div[^>]*>\s*)?<h1>[^<]+</h1>\s*<nav class=\"contents\"", main), main[:200]
    contents = re.search(r'<nav class="contents".*?</nav>', main, re.S).group(0)
    targets = re.findall(r'href="#([\w-]+)"', contents)
    assert len(targets) >= 6
    for target in targets:
        assert f'<h2 id="{target}">' in main, target


@pytest.mark.parametrize("slug", GAMES)
def test_a_table_links_to_the_help_for_its_phase(browser, slug):
    token = browser.create_table(slug, GAMES[slug])
    html = text(browser.get(f"/t/{token}"))
    link = re.search(rf'<a href="/{slug}/help#([\w-]+)">How to play this part of the game</a>', html)
    assert link, slug
    assert link.group(1) == FIRST_SECTION[slug]
    assert f'<h2 id="{link.group(1)}">' in text(browser.get(f"/{slug}/help"))


def test_the_help_link_follows_the_phase(browser):
    """On phones, Forteresse starts by drawing the fortresses; on paper, straight away with a shot."""
    token = browser.create_table("forteresse", {**GAMES["forteresse"], "mode": "phones"})
    assert 'href="/forteresse/help#before-a-round"' in text(browser.get(f"/t/{token}"))
