"""Thinking times kept with the play: a table with a turn timer or a chess clock keeps each player's
thinking time with its play (pauses left out), for every game and every way of seating it; the
play's page says it in three languages, the API and Castellan's file carry it, an import keeps it,
and a play nobody timed (or kept before Castellan kept it) says nothing about thinking. On SQLite
and on PostgreSQL."""

from __future__ import annotations

import copy
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from companion import store
from companion.http.context import get_db
from companion.rules import clock
from tests.conftest import Browser, text
from tests.rules.test_all_games import OPTIONS
from tests.web import test_plays_files
from tests.web.test_plays_files import RULES, TEAMS_PLAY

pytestmark = pytest.mark.both_backends
# The fixtures of that test: this server's app, and a second server's.
app, other_app, other_database = (
    test_plays_files.app,
    test_plays_files.other_app,
    test_plays_files.other_database,
)
# Every way of seating every game with turns (the score pad records rounds: it has no such clock).
SEATINGS = [(name, options) for name in sorted(OPTIONS) if name != "scorepad" for options in OPTIONS[name]]
THINKING = {"en": "Thinking time", "fr": "Temps de réflexion", "pl": "Czas do namysłu"}


def _played(conn, name: str, options: dict, per_seat: tuple[str, int, int], seed: str):
    """A table of ``name`` with the clock ``per_seat``, played at random to its end; the table and
    its last move (``(actor, action)``)."""
    rules, rng = RULES[name], random.Random(seed)
    table, _links = store.create_table(conn, rules, name, copy.deepcopy(options), name, per_seat=per_seat)
    last = None
    for _step in range(3000):
        chosen = rules.random_legal_action(table.state, rng)
        if chosen is None:
            break
        last = chosen
        table = store.act(conn, rules, table.id, *chosen, table.version)
    return table, last


def test_every_games_timed_play_keeps_each_players_thinking_time(app):
    with app.app_context():
        conn = get_db()
        for number, (name, options) in enumerate(SEATINGS):
            per_seat = ("turn", 0, 0) if number % 2 else ("chess", 30, 5)
            table, _last = _played(conn, name, options, per_seat, f"thinking-{number}")
            play = store.table_play(conn, table.id)
            kept = store.table_clock(conn, table.id)
            assert play is not None, name
            seated = {seat.name for seat in play.players}
            assert set(kept["names"].values()) <= seated, f"{name}: every timed seat is one of the play's"
            times = clock.thinking_times(kept, play.finished)
            assert [seat.thinking_seconds for seat in play.players] == [
                times.get(seat.name, 0) for seat in play.players
            ], name


def _timed_ending(conn, name: str = "zamek") -> tuple[str, str]:
    """A Zamek table whose last move comes after its mover thought for an hour, 40 minutes of which
    the table was paused (dinner); the play's id and the mover's name."""
    rules = RULES[name]
    table, last = _played(conn, name, OPTIONS[name][0], ("turn", 0, 0), "dinner")
    table = store.undo(conn, rules, table.id, table.version)  # the last move again, after dinner
    now = datetime.now(UTC)

    def ago(minutes: int) -> str:  # as the store writes a moment
        return store.base.stamp(now - timedelta(minutes=minutes))

    kept = store.table_clock(conn, table.id)
    dinner = {**kept, "turn_began": ago(60), "pauses": [[ago(50), ago(10)]], "used": {}}
    with store.base.write(conn):
        conn.execute(
            store.db.table_clocks.update()
            .where(store.db.table_clocks.c.table_id == table.id)
            .values(clock=store.base.dump(dinner))
        )
    store.act(conn, rules, table.id, *last, table.version)
    return store.table_play(conn, table.id).id, kept["names"][kept["to_move"]]


def test_a_pause_is_not_thinking_and_the_page_says_each_players_time_in_three_languages(app):
    with app.app_context():
        play_id, mover = _timed_ending(get_db())
        play = store.play(get_db(), play_id)
    times = {seat.name: seat.thinking_seconds for seat in play.players}
    assert times.pop(mover) in (1200, 1201), "an hour thinking, less the 40 minutes of dinner"
    assert set(times.values()) == {0}, "the others moved in no time: nobody was charged the dinner"
    browser = Browser(app.test_client())
    for lang, heading in THINKING.items():
        page = text(browser.get(f"/history/{play_id}", headers={"Accept-Language": lang}))
        block = page[page.index(heading) :]
        assert re.search(rf"<dt>{re.escape(mover)}</dt><dd>20 min 0[01] s</dd>", block), lang
        assert block.count("<dd>0 s</dd>") == len(times), lang


def test_a_play_nobody_timed_says_nothing_about_thinking(app):
    with app.app_context():
        store.import_plays(get_db(), [copy.deepcopy(TEAMS_PLAY)])
        table, _last = _played(get_db(), "fort", OPTIONS["fort"][0], None, "untimed")
        untimed = store.table_play(get_db(), table.id)
    assert all(seat.thinking_seconds is None for seat in untimed.players)
    browser = Browser(app.test_client())
    for play_id in (TEAMS_PLAY["id"], untimed.id):
        for lang, heading in THINKING.items():
            page = text(browser.get(f"/history/{play_id}", headers={"Accept-Language": lang}))
            assert heading not in page and "thinking" not in page.lower(), (play_id, lang)
    plays = app.test_client().get("/api/v1/plays").get_json()["plays"]
    assert {seat["thinking_seconds"] for play in plays for seat in play["players"]} == {None}
    exported = app.test_client().get("/api/v1/plays/export.json").get_json()["plays"]
    assert not any("thinking_seconds" in seat for play in exported for seat in play["players"])


def test_the_api_and_castellans_file_carry_thinking_times_and_an_import_keeps_them(app, other_app):
    with app.app_context():
        play_id, mover = _timed_ending(get_db())
        store.import_plays(get_db(), [copy.deepcopy(TEAMS_PLAY)])  # an older file's play: no times
    client = app.test_client()
    (timed,) = [play for play in client.get("/api/v1/plays").get_json()["plays"] if play["id"] == play_id]
    assert {seat["name"]: seat["thinking_seconds"] for seat in timed["players"]}[mover] in (1200, 1201)
    exported = client.get("/api/v1/plays/export.json").get_json()
    (entry,) = [play for play in exported["plays"] if play["id"] == play_id]
    assert [seat["thinking_seconds"] for seat in entry["players"]] == [
        seat["thinking_seconds"] for seat in timed["players"]
    ]
    answer = other_app.test_client().post("/api/v1/plays/import", json=exported)
    assert answer.status_code == 200 and answer.get_json()["imported"] == 2
    again = other_app.test_client().get("/api/v1/plays/export.json").get_json()
    assert again == exported, "exported, imported and exported again: the same file"
    with other_app.app_context():
        moved = store.play(get_db(), play_id)
    assert [seat.thinking_seconds for seat in moved.players] == [
        seat["thinking_seconds"] for seat in timed["players"]
    ]


@pytest.mark.parametrize("thinking", [-1, "60", True, 10**10, 1.5])
def test_an_imported_thinking_time_that_is_not_whole_seconds_is_refused_and_nothing_added(app, thinking):
    seats = [{**seat, "thinking_seconds": 30} for seat in TEAMS_PLAY["players"]]
    seats[2]["thinking_seconds"] = thinking
    document = {"format": "castellan-plays", "version": 1, "plays": [{**TEAMS_PLAY, "players": seats}]}
    answer = app.test_client().post("/api/v1/plays/import", json=document)
    assert answer.status_code == 422 and answer.get_json()["error"]["code"] == "bad_play"
    assert "Play number 1 of the file is not a Castellan play." in answer.get_json()["error"]["message"]
    assert app.test_client().get("/api/v1/plays").get_json()["plays"] == []
