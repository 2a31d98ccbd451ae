"""The table clock: the referee pauses and resumes a table, every phone says it is paused, a second
tap changes nothing, only the referee may, and the play's length leaves the pause out. On SQLite and
on PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest
import sqlalchemy as sa

from companion import store
from companion.http.context import get_db
from tests.conftest import text

pytestmark = pytest.mark.both_backends
PAUSED = "its time does not count in the play's length"


def _made(client) -> dict:
    return client.post(
        "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}
    ).get_json()


def test_the_referee_pauses_and_resumes_and_every_phone_says_so(browser, app):
    made = _made(browser.client)
    referee, viewer = made["links"]["referee"]["token"], made["links"]["viewer"]["token"]
    assert "Pause the table" in text(browser.get(f"/t/{referee}"))
    version = browser.client.get(f"/api/v1/tables/{referee}").get_json()["version"]
    answer = browser.post(f"/t/{referee}/pause")
    assert answer.status_code == 303
    page = text(browser.get(f"/t/{referee}"))
    assert PAUSED in page and "Resume the table" in page
    assert PAUSED in text(browser.client.get(f"/t/{viewer}"))
    assert "Resume the table" not in text(browser.client.get(f"/t/{viewer}")), "the referee's alone"
    assert browser.client.get(f"/api/v1/tables/{referee}").get_json()["version"] == version + 1
    browser.post(f"/t/{referee}/pause")  # tapped again: nothing more
    assert browser.client.get(f"/api/v1/tables/{referee}").get_json()["version"] == version + 1
    browser.post(f"/t/{referee}/resume")
    page = text(browser.get(f"/t/{referee}"))
    assert PAUSED not in page and "Pause the table" in page
    with app.app_context():
        kept = store.table_clock(get_db(), _table_id(app, referee))
    assert kept["paused_at"] is None and len(kept["pauses"]) == 1


def _table_id(app, token: str) -> str:
    with app.app_context():
        return (
            get_db()
            .execute(sa.select(store.db.links.c.table_id).where(store.db.links.c.token == token))
            .scalar()
        )


def test_only_the_referee_may_pause(browser):
    made = _made(browser.client)
    viewer = made["links"]["viewer"]["token"]
    answer = browser.post(f"/t/{viewer}/pause")
    assert answer.status_code == 403 and "Only the referee can pause or resume the table." in text(answer)


def test_a_pause_is_left_out_of_the_plays_length(browser, app):
    made = _made(browser.client)
    referee = made["links"]["referee"]["token"]
    table_id = _table_id(app, referee)
    browser.post(f"/t/{referee}/pause")
    browser.post(f"/t/{referee}/resume")
    with app.app_context():  # the pause made an hour long, as a dinner is
        conn = get_db()
        with conn.begin():
            conn.execute(
                store.db.table_clocks.update()
                .where(store.db.table_clocks.c.table_id == table_id)
                .values(
                    clock='{"paused_at": null, "pauses": [["2000-01-01T18:00:00.000+00:00", "2000-01-01T19:00:00.000+00:00"]]}'
                )
            )
            conn.execute(
                store.db.tables.update()
                .where(store.db.tables.c.id == table_id)
                .values(created_at="2000-01-01T17:00:00.000+00:00")
            )
    version = browser.client.get(f"/api/v1/tables/{referee}").get_json()["version"]
    assert (
        browser.client.post(f"/api/v1/tables/{referee}/finish", json={"version": version}).status_code == 200
    )
    with app.app_context():
        play = store.table_play(get_db(), table_id)
    started = datetime.fromisoformat("2000-01-01T17:00:00+00:00")
    whole = int((datetime.fromisoformat(play.finished.replace("Z", "+00:00")) - started).total_seconds())
    assert whole - 3600 - 1 <= play.seconds <= whole - 3600 + 1, "the hour paused is left out"
