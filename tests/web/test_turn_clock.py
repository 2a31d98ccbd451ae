"""The per-seat clock chosen at the start: a chess clock's banks on every phone, charged in the move's
own transaction, the referee's added time, running out said, and a refused choice creating nothing."""

from __future__ import annotations

import random

import pytest

from companion import store
from companion.http.context import get_db
from companion.rules import clock, zamek
from tests.conftest import text

pytestmark = pytest.mark.both_backends
TWO = {"players": ["Ola", "Kuba", "", ""], "variant": "basic", "deck": "default"}
RAN_OUT = "Ola's time has run out: the table decides what happens."


def _table_id(app, token: str) -> str:
    with app.app_context():
        return store.find_link(get_db(), token).table_id


def _move(browser, token: str) -> None:
    """One legal move of the player to move, through the API."""
    table = browser.client.get(f"/api/v1/tables/{token}").get_json()
    with browser.client.application.app_context():
        state = store.get_table(get_db(), store.find_link(get_db(), token).table_id).state
    actor, action = zamek.random_legal_action(state, random.Random(1))
    answer = browser.client.post(
        f"/api/v1/tables/{token}/actions",
        json={"version": table["version"], "action": action, "actor": actor},
    )
    assert answer.status_code in (200, 201), answer.get_data(as_text=True)


def test_a_chess_clock_shows_each_bank_and_charges_the_player_who_moved(browser, app):
    token = browser.create_table(
        "zamek", {**TWO, "clock": "chess", "clock_minutes": "5", "clock_increment": "3"}
    )
    page = text(browser.get(f"/t/{token}"))
    assert "data-clock-now" in page and "Ola:" in page and "Add time" in page
    table_id = _table_id(app, token)
    with app.app_context():
        before = store.table_clock(get_db(), table_id)
    assert before["kind"] == "chess" and before["bank"] == 300 and before["names"] == {"p1": "Ola"}
    _move(browser, token)
    with app.app_context():
        after = store.table_clock(get_db(), table_id)
    assert after["added"] == {"p1": 3} and after["used"]["p1"] >= 0
    assert after["to_move"] != "p1" or after["turn_began"] > before["turn_began"]


def test_running_out_is_said_and_the_referee_adds_time(browser, app):
    token = browser.create_table("zamek", {**TWO, "clock": "chess", "clock_minutes": "1"})
    table_id = _table_id(app, token)
    with app.app_context():
        conn = get_db()
        with conn.begin():  # Ola has thought for two minutes already
            kept = store.table_clock(conn, table_id)
            conn.execute(
                store.db.table_clocks.update()
                .where(store.db.table_clocks.c.table_id == table_id)
                .values(clock=store.base.dump({**kept, "used": {"p1": 120}}))
            )
    page = text(browser.get(f"/t/{token}"))
    assert RAN_OUT in page and 'data-clock-out="p1" hidden' not in page
    answer = browser.post(f"/t/{token}/time", {"seat": "p1", "minutes": "2"})
    assert answer.status_code == 303
    page = text(browser.get(f"/t/{token}"))
    assert 'data-clock-out="p1" hidden' in page, "two minutes more: Ola has time again"
    assert "Ola: the referee added 2 min to the clock." in text(browser.get(f"/t/{token}/history"))


def test_only_the_referee_adds_time(browser, app):
    token = browser.create_table("zamek", {**TWO, "clock": "chess", "clock_minutes": "1"})
    with app.app_context():
        links = store.table_links(get_db(), _table_id(app, token))
    viewer = next(link.token for link in links if link.role == "viewer")
    answer = browser.post(f"/t/{viewer}/time", {"seat": "p1", "minutes": "2"})
    assert answer.status_code == 403 and "Only the referee can add time." in text(answer)


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"clock": "sundial"}, "Choose no clock, a turn timer or a chess clock."),
        ({"clock": "chess", "clock_minutes": "0"}, "A chess clock gives each player 1 to 600 minutes."),
        ({"clock": "chess", "clock_minutes": "٣"}, "A chess clock gives each player 1 to 600 minutes."),
        ({"clock": "chess", "clock_minutes": "5", "clock_increment": "-1"}, "The increment is 0 to 600"),
    ],
)
def test_a_bad_clock_creates_nothing_and_says_why(browser, form, said):
    answer = browser.post("/tables/new/zamek", {**TWO, **form}, follow_redirects=True)
    assert said in text(answer) and "/t/" not in answer.request.path


def test_a_turn_timer_shows_who_is_thinking(browser):
    token = browser.create_table("zamek", {**TWO, "clock": "turn"})
    assert "Ola is thinking:" in text(browser.get(f"/t/{token}"))


def test_the_arithmetic_of_a_chess_clock():
    begun = clock.moved(
        clock.started("chess", 1, 5, "2026-01-01T20:00:00+00:00"), ("a", "Ola"), "2026-01-01T20:00:00+00:00"
    )
    after = clock.moved(begun, ("b", "Kuba"), "2026-01-01T20:00:20+00:00")
    assert clock.left(after, "a", "2026-01-01T20:00:30+00:00") == 60 - 20 + 5
    paused = clock.pause(after, "2026-01-01T20:00:30+00:00")
    assert clock.left(paused, "b", "2026-01-01T20:10:00+00:00") == 60 - 10, "a pause stops the clock"
    assert clock.run_out(after, "2026-01-01T20:01:21+00:00") == ["b"]
    assert clock.run_out(clock.add_time(after, "b", 60), "2026-01-01T20:01:21+00:00") == []
    assert clock.thinking_times(after, "2026-01-01T20:00:30+00:00") == {"Ola": 20, "Kuba": 10}


def test_a_rematch_keeps_the_clock_chosen_at_the_start_fresh(browser, app):
    token = browser.create_table(
        "zamek", {**TWO, "clock": "chess", "clock_minutes": "5", "clock_increment": "3"}
    )
    for _ in range(500):  # Zamek to its end, Ola and Kuba both on the clock
        with app.app_context():
            state = store.get_table(get_db(), _table_id(app, token)).state
        if zamek.random_legal_action(state, random.Random(1)) is None:
            break
        _move(browser, token)
    made = browser.post(f"/t/{token}/rematch")
    assert made.status_code == 303, text(made)
    new_token = made.headers["Location"].rsplit("/t/", 1)[1]
    with app.app_context():
        kept = store.table_clock(get_db(), _table_id(app, new_token))
    assert kept["kind"] == "chess" and kept["bank"] == 300 and kept["increment"] == 3
    assert kept["used"] == {} and kept["added"] == {} and kept["to_move"] is not None
    assert "Add time" in text(browser.get(f"/t/{new_token}"))
