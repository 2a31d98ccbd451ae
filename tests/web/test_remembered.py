"""The tables a browser opened, for its home page: written only for a browser that comes back with its
cookie, and forgotten by the sweep once the tables are untouched for its days."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from companion import cli
from companion.app import create_app
from companion.store import db
from companion.store.db import links, plays, remembered, tables
from tests.conftest import Browser, text
from tests.web.test_hardening import _session_cookie

LONG_AGO = "2020-01-01T00:00:00.000+00:00"


def _rows(database: str) -> list[str]:
    """The links every browser's list holds."""
    with db.connect(database) as conn:
        return sorted(conn.execute(sa.select(remembered.c.token)).scalars())


def test_pages_asked_for_without_a_cookie_write_no_row(app, browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    before = _rows(app.config["DATABASE"])
    no_cookies = app.test_client(use_cookies=False)  # a link preview, a script
    for _ in range(5):
        page = no_cookies.get(f"/t/{token}")
        assert page.status_code == 200 and "Ola" in text(page)
    assert _rows(app.config["DATABASE"]) == before == [token]  # the creator's row only


def test_a_browsers_first_page_joins_its_list_once_it_comes_back_with_its_cookie(app, browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    newcomer = Browser(app.test_client())  # its first page comes without a cookie
    newcomer.get(f"/t/{token}")
    assert token.encode() not in _session_cookie(newcomer)  # what finds the link again, not the link
    newcomer.get(f"/t/{token}")  # a reload, with the cookie
    assert _rows(app.config["DATABASE"]) == [token]  # the creator's row: nothing written yet
    home = text(newcomer.get("/"))
    assert "Your tables" in home and f'href="/t/{token}"' in home
    assert _rows(app.config["DATABASE"]) == [token, token]  # the newcomer's row, written now
    newcomer.get("/")
    newcomer.get(f"/t/{token}")
    assert _rows(app.config["DATABASE"]) == [token, token]  # once


def test_a_table_opened_with_the_cookie_is_written_at_once(app, browser):
    first = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    second = browser.create_table("scorepad", {"players": "Ewa\nJan"})
    newcomer = Browser(app.test_client())
    newcomer.get(f"/t/{first}")  # without a cookie: held
    newcomer.get(f"/t/{second}")  # with it: written
    assert _rows(app.config["DATABASE"]) == sorted([first, second, second])
    home = text(newcomer.get("/"))
    assert f'href="/t/{first}"' in home and f'href="/t/{second}"' in home


def _finished_and_open(database: str) -> tuple[str, str, str]:
    """A finished score pad untouched since long ago and an open one played today, both opened by a
    second phone, in ``database``: it and the two referee tokens."""
    app = create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True})
    referee, player = Browser(app.test_client()), Browser(app.test_client())
    old = referee.create_table("scorepad", {"players": "Old"})
    finished = referee.client.post(f"/api/v1/tables/{old}/finish", json={"version": 0})
    assert finished.status_code == 200, finished.data
    today = referee.create_table("scorepad", {"players": "Today"})
    for token in (old, today):
        player.get(f"/t/{token}")
    player.get("/")
    assert _rows(database) == sorted([old, old, today, today])
    with db.connect(database) as conn:
        conn.execute(tables.update().where(tables.c.title == "Old").values(updated_at=LONG_AGO))
        conn.commit()
    return database, old, today


def _kept(database: str) -> tuple[set[str], int]:
    with db.connect(database) as conn:
        titles = set(conn.execute(sa.select(tables.c.title)).scalars())
        return titles, conn.execute(sa.select(sa.func.count()).select_from(plays)).scalar_one()


@pytest.mark.both_backends
def test_the_sweep_at_start_forgets_the_rows_of_tables_finished_before_its_days(database):
    database, old, today = _finished_and_open(database)
    create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True, "SWEEP_DAYS": 30})
    assert _rows(database) == [today, today]
    assert _kept(database) == ({"Old", "Today"}, 1)  # the finished table stays, as a play


def test_castellan_db_clean_forgets_them_too_and_the_links_that_are_gone(tmp_path, monkeypatch):
    database, old, today = _finished_and_open(str(tmp_path / "c.sqlite3"))
    with db.connect(database) as conn:
        conn.execute(remembered.insert().values(phone="p", token="gone-long-ago", seen_at=LONG_AGO))
        conn.commit()
        assert conn.execute(sa.select(links.c.token).where(links.c.token == "gone-long-ago")).first() is None
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    assert cli.main(["db", "--clean", "--days", "30"]) == 0
    assert _rows(database) == [today, today]
    assert _kept(database) == ({"Old", "Today"}, 1)


def test_with_the_sweep_turned_off_every_row_stays(tmp_path):
    database, old, today = _finished_and_open(str(tmp_path / "c.sqlite3"))
    create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True, "SWEEP_DAYS": 0})
    assert _rows(database) == sorted([old, old, today, today])
