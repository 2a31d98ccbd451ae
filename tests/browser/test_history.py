"""The history as people use it, on a 360 px phone: finish a score pad, rematch, find the plays in the
history, open a play's chart and a player's page, rename a player; every page axe-clean, light and dark.
And the same pages in French, the days counted from the phone's own midnight."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import expect

from tests.browser import test_narrow
from tests.browser.accessibility import assert_accessible, assert_tap_targets, assert_zoomable
from tests.browser.conftest import _context
from tests.browser.test_narrow import assert_fits

pytestmark = pytest.mark.browser


@pytest.fixture
def narrow_phone(chromium):
    """The narrowest phone Castellan is laid out for."""
    yield from _context(chromium, viewport={"width": 360, "height": 740})


def _checked(page) -> None:
    """axe (light and dark, at this width), the tap targets, text at 200 %; and no sideways scroll."""
    assert_accessible(page, both_widths=False)
    assert_tap_targets(page)
    assert_zoomable(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways: {width}px"


def _start_pad(phone, server, *names: str) -> None:
    """A score pad for these players, opened as its referee (names unique to the test: the server's
    history is shared by the whole run)."""
    phone.goto(server + "/scorepad/")
    phone.get_by_label("Players, one name per line").fill("\n".join(names))
    phone.get_by_role("button", name="Start").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()


def _rounds_then_finish(phone, names: tuple[str, str], rounds) -> None:
    """Record these rounds, then tap Finish the table. Each round waits for its own answer: the one
    before says "Recorded." too, and a tap on its fragment would carry the table's older version."""
    for number, points in enumerate(rounds, start=1):
        for name, value in zip(names, points, strict=True):
            phone.get_by_label(name, exact=True).fill(str(value))
        phone.get_by_role("button", name="Record round").click()
        expect(phone.locator(".answer-fresh")).to_contain_text(f"Recorded. Round {number}:")
    phone.get_by_role("button", name="Finish the table").click()
    expect(phone.get_by_text("The table is finished: these totals are the final score.")).to_be_visible()


def test_finished_score_pads_are_in_the_history_with_their_charts_and_players(server, narrow_phone):
    phone = narrow_phone
    ola, kuba = f"Ola {secrets.token_hex(3)}", f"Kuba {secrets.token_hex(3)}"
    _start_pad(phone, server, ola, kuba)
    _rounds_then_finish(phone, (ola, kuba), [(5, 3), (2, 8)])
    assert_accessible(phone, both_widths=False)

    first = phone.url
    phone.get_by_role("button", name="Rematch").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    assert phone.url != first
    expect(phone.locator("thead th")).to_have_text(["Round", ola, kuba])
    expect(phone.locator("tfoot .total")).to_have_text(["0", "0"])
    _rounds_then_finish(phone, (ola, kuba), [(1, 6)])

    phone.get_by_role("link", name="See this play in the history").click()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Score pad")
    chart = phone.get_by_role("img", name="Score pad: running totals after each round")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 360 - 2 * 16 + 1  # the chart fits inside the page's margins
    phone.get_by_text("The chart's numbers").click()
    expect(phone.get_by_role("region", name="Running totals")).to_contain_text("6")
    _checked(phone)

    phone.get_by_role("link", name=kuba).first.click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(kuba)
    expect(phone.get_by_text("2 of 2 plays won: 100 %.")).to_be_visible()
    expect(phone.get_by_role("img", name=f"{kuba}: plays and wins over time")).to_be_visible()
    _checked(phone)

    phone.get_by_label(f"New name for {kuba}, in every play").fill(f"{kuba} K")
    phone.get_by_role("button", name="Rename").click()
    expect(phone.get_by_text(f"{kuba} is now called {kuba} K, in every play.")).to_be_visible()

    phone.get_by_role("link", name="History", exact=True).click()
    phone.get_by_label("Game").select_option("scorepad")
    phone.get_by_label("Player").fill(f"{kuba} K")
    phone.get_by_role("button", name="Show").click()
    expect(phone.locator("ol.plays > li")).to_have_count(2)
    expect(phone.locator("ol.plays > li").first).to_contain_text(f"{kuba} K 6")
    _checked(phone)

    phone.get_by_role("link", name="Score pad: the winners' table and the average length").click()
    expect(phone.get_by_role("heading", name="Winners")).to_be_visible()
    _checked(phone)


def test_a_start_form_offers_the_names_played_before(server, narrow_phone):
    phone = narrow_phone
    name = f"Zofia {secrets.token_hex(3)}"
    _start_pad(phone, server, name)
    phone.get_by_role("button", name="Record round").click()
    phone.get_by_role("button", name="Finish the table").click()
    phone.goto(server + "/zamek/")
    assert name in phone.locator("#player-names option").evaluate_all("options => options.map(o => o.value)")
    expect(phone.locator("input[name=players]").first).to_have_attribute("list", "player-names")


def _finished_pad(phone, server, names: tuple[str, str], rounds) -> None:
    """A score pad played and finished through the API (the test reads the history's pages, not the table's)."""
    created = phone.request.post(
        f"{server}/api/v1/tables", data={"game": "scorepad", "options": {"players": list(names)}}
    )
    token = created.json()["links"]["referee"]["token"]
    for version, points in enumerate(rounds):
        answer = phone.request.post(
            f"{server}/api/v1/tables/{token}/actions",
            data={"action": {"type": "round", "points": list(points)}, "version": version},
        )
        assert answer.ok, answer.text()
    assert phone.request.post(f"{server}/api/v1/tables/{token}/finish", data={"version": len(rounds)}).ok


def test_the_history_in_french_on_a_360_px_phone(server, chromium):
    context = test_narrow.narrow_phone(chromium, locale="fr", timezone_id="Europe/Paris")
    context.set_default_timeout(10_000)
    phone = context.new_page()
    ola, kuba = f"Ola {secrets.token_hex(3)}", f"Kuba {secrets.token_hex(3)}"
    _finished_pad(phone, server, (ola, kuba), [(5, 3), (2, 8)])
    _finished_pad(phone, server, (ola, kuba), [(1, 6)])

    phone.goto(f"{server}/history?player={kuba}")
    assert phone.locator("html").get_attribute("lang") == "fr"
    expect(phone.get_by_role("heading", level=1)).to_have_text("Historique")
    expect(phone.get_by_text("2 parties.", exact=True)).to_be_visible()
    assert_fits(phone, "history, fr")
    assert_accessible(phone, both_widths=False)

    phone.locator("a.play-link").first.click()
    expect(
        phone.get_by_role("img", name="Bloc de score\u00a0: totaux cumulés après chaque manche")
    ).to_be_visible()
    phone.get_by_text("Les données du graphique").click()
    expect(phone.get_by_role("region", name="Totaux cumulés")).to_contain_text("6")
    assert_fits(phone, "play, fr")
    assert_accessible(phone, both_widths=False)

    phone.get_by_role("link", name=kuba).first.click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(kuba)
    expect(phone.get_by_text("Parties gagnées\u00a0: 2 sur 2, soit 100\u00a0%.")).to_be_visible()
    expect(
        phone.get_by_role("img", name=f"{kuba}\u00a0: parties et victoires au fil du temps")
    ).to_be_visible()
    # castellan.js told the server the phone's time zone (a cookie): the days are Paris's
    expect(
        phone.get_by_text("Les jours commencent à minuit, dans le fuseau horaire Europe/Paris.")
    ).to_be_attached()
    assert_fits(phone, "player, fr")
    assert_accessible(phone, both_widths=False)
    context.close()


def test_the_referee_deletes_a_play_after_confirming_and_a_player_is_found_by_name(server, narrow_phone):
    phone = narrow_phone
    ola, kuba = f"Ola {secrets.token_hex(3)}", f"Kuba {secrets.token_hex(3)}"
    _start_pad(phone, server, ola, kuba)
    _rounds_then_finish(phone, (ola, kuba), [(4, 1)])
    phone.get_by_role("link", name="See this play in the history").click()
    play_page = phone.url
    phone.get_by_role("link", name="Delete this play from the history…").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Delete this play?")
    _checked(phone)
    phone.get_by_role("link", name="Keep the play").click()
    assert phone.url == play_page
    phone.get_by_role("link", name="Delete this play from the history…").click()
    phone.get_by_role("button", name="Delete the play").click()
    expect(phone.get_by_text("The play is deleted from the history.")).to_be_visible()
    assert phone.request.get(play_page).status == 404  # a request, not a page: a 404 page logs an error

    phone.goto(server + "/players")
    phone.get_by_role("searchbox", name="Name").fill(kuba.split()[1])
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator("ul.tables > li")).to_have_count(1)
    expect(phone.locator("ul.tables > li")).to_contain_text(kuba)
    _checked(phone)
