"""The referee's invitations: players' codes first, the referee's own last; the panel folds away
once every seat's link has been opened or the first move is made."""

from __future__ import annotations

import re

from tests.conftest import text


def _labels(html: str) -> list[str]:
    return re.findall(r'<figure class="invite-card invite-\w+">.*?<strong>([^<]+)</strong>', html, re.S)


def _seat_tokens(html: str) -> dict[str, str]:
    return dict(re.findall(r'invite-seat">.*?<strong>([^<]+)</strong>.*?/t/([\w-]+)"', html, re.S))


def _panel_open(html: str) -> bool:
    return bool(re.search(r'<details class="invites" id="invites" open>', html))


def test_the_referees_own_code_is_offered_last_on_the_table_and_on_the_links_page(browser):
    token = browser.create_table(
        "forteresse", {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    for path in ("", "/links"):
        assert _labels(text(browser.get(f"/t/{token}{path}"))) == ["Ola", "Kuba", "Viewer", "Referee"]


def test_the_panel_folds_once_every_seat_has_joined(browser, other_browser):
    token = browser.create_table(
        "forteresse", {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    html = text(browser.get(f"/t/{token}"))
    assert _panel_open(html) and "Private links opened: 0 of 2." in html
    assert "Otwarte prywatne linki: 0 z 2." in text(
        browser.get(f"/t/{token}", headers={"Accept-Language": "pl"})
    )
    seats = _seat_tokens(html)
    other_browser.get(f"/t/{seats['Ola']}")
    html = text(browser.get(f"/t/{token}"))
    assert _panel_open(html) and "Private links opened: 1 of 2." in html
    other_browser.get(f"/t/{seats['Kuba']}")
    html = text(browser.get(f"/t/{token}"))
    assert not _panel_open(html) and "Private links opened: 2 of 2." in html
    assert "<summary>Invite phones to this table</summary>" in html  # still there, to reopen


def test_the_panel_of_a_table_without_seats_folds_at_the_first_move(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    assert _panel_open(text(browser.get(f"/t/{token}")))
    browser.post(f"/t/{token}/act", {"version": "0", "points": ["1", "2"]})
    assert not _panel_open(text(browser.get(f"/t/{token}")))
