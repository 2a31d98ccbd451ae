"""A game's start page lists this browser's tables of that game still in progress above its form
(issue 37.8): Back from a table started a moment ago lands on a page that leads to it again."""

from __future__ import annotations

from tests.conftest import text


def test_the_start_page_lists_the_tables_in_progress_until_they_are_finished(browser, other_browser):
    assert "Tables in progress" not in text(browser.get("/scorepad/"))
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get(f"/t/{token}")
    page = text(browser.get("/scorepad/"))
    assert page.index("Tables in progress") < page.index('id="new-table"')
    assert f'href="/t/{token}">Your table of Score pad, started <time' in page
    assert ": open it</a>" in page
    assert "Tables in progress" not in text(browser.get("/castle/"))  # another game's page
    assert "Tables in progress" not in text(other_browser.get("/scorepad/"))  # another phone's
    assert browser.post(f"/t/{token}/act", {"version": "0", "points": ["3", "4"]}).status_code == 303
    assert browser.post(f"/t/{token}/finish", {"version": "1"}).status_code == 303
    assert "Tables in progress" not in text(browser.get("/scorepad/"))
