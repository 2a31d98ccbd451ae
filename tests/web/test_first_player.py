"""Who began, kept with every play: the rules' first player of each game (or the one named on the
score pad's start form) in the API, the CSV, Castellan's file and BG Stats' ``startPlayer``, across
an export and an import; a play kept before Castellan noted it stays unknown, and says so. On
SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import csv
import io

import pytest

from companion import store
from companion.http.context import get_db
from tests.conftest import text
from tests.web import test_plays_files
from tests.web.test_plays_files import RULES, TEAMS_PLAY, _play_every_game

pytestmark = pytest.mark.both_backends
# The fixtures of that test: this server's app, and a second server's.
app, other_app, other_database = (
    test_plays_files.app,
    test_plays_files.other_app,
    test_plays_files.other_database,
)


def _expected(app) -> dict[str, int | None]:
    """Each play's first player as its game's rules say it from the table it was."""
    found = {}
    with app.app_context():
        conn = get_db()
        for play in store.list_plays(conn, limit=100):
            table_id = (
                conn.execute(store.db.plays.select().where(store.db.plays.c.id == play.id)).one().table_id
            )
            if table_id is None:
                found[play.id] = None
                continue
            table = store.get_table(conn, table_id)
            found[play.id] = RULES[play.game].first_player(table.state)
    return found


def test_every_games_play_keeps_who_began_in_the_api_the_csv_and_both_files(app, other_app):
    _play_every_game(app)
    expected = _expected(app)
    client = app.test_client()
    plays = client.get("/api/v1/plays").get_json()["plays"]
    assert {play["id"]: play["first_player"] for play in plays} == expected
    known = [play for play in plays if play["game"] != "scorepad" and play["id"] != TEAMS_PLAY["id"]]
    assert len(known) == 5 and all(isinstance(play["first_player"], int) for play in known)
    rows = list(csv.DictReader(io.StringIO(client.get("/api/v1/plays.csv?with=began").data.decode())))
    for play in plays:
        began = [row["began"] for row in rows if row["play"] == play["id"]]
        first = play["first_player"]
        assert began == (
            [""] * len(play["players"])
            if first is None
            else ["true" if place == first else "false" for place in range(len(play["players"]))]
        )
    exported = client.get("/api/v1/plays/export.json").get_json()
    assert {play["id"]: play.get("first_player") for play in exported["plays"]} == expected
    bgstats = client.get("/api/v1/plays/bgstats.json").get_json()
    uuids = {play["id"]: _bgstats_uuid(play["id"]) for play in plays}
    for play in plays:
        entry = next(found for found in bgstats["plays"] if found["uuid"] == uuids[play["id"]])
        started = [score["startPlayer"] for score in entry["playerScores"]]
        first = play["first_player"]
        assert started == [place == first for place in range(len(play["players"]))]
    answer = other_app.test_client().post("/api/v1/plays/import", json=exported)
    assert answer.status_code == 200, answer.get_json()
    again = other_app.test_client().get("/api/v1/plays").get_json()["plays"]
    assert {play["id"]: play["first_player"] for play in again} == expected


def _bgstats_uuid(play_id: str) -> str:
    from companion.service.plays_export import _uuid  # the one way a play's uuid is made

    return _uuid("play", play_id)


def test_a_play_kept_before_who_began_was_noted_says_it_is_not_known(app):
    with app.app_context():
        store.import_plays(get_db(), [copy.deepcopy(TEAMS_PLAY)])
    client = app.test_client()
    page = text(client.get(f"/history/{TEAMS_PLAY['id']}"))
    assert "Began" in page and "Not recorded" in page
    assert client.get("/api/v1/plays").get_json()["plays"][0]["first_player"] is None


@pytest.mark.parametrize("first", [-1, 4, True, "0", 1.0])
def test_an_import_naming_no_player_as_the_first_is_refused_and_adds_nothing(app, first):
    play = {**copy.deepcopy(TEAMS_PLAY), "first_player": first}
    answer = app.test_client().post(
        "/api/v1/plays/import", json={"format": "castellan-plays", "version": 1, "plays": [play]}
    )
    assert answer.status_code == 422 and "is not a Castellan play" in answer.get_json()["error"]["message"]
    assert app.test_client().get("/api/v1/plays").get_json()["plays"] == []


def test_the_score_pad_asks_who_begins_and_its_play_says_it(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba", "first": "kuba"})
    page = text(browser.get(f"/t/{token}"))
    version = int(page.split('name="version" value="')[1].split('"')[0])
    browser.post(f"/t/{token}/act", {"version": version, "type": "round", "points": ["3", "5"]})
    browser.post(f"/t/{token}/finish", {"version": version + 1})
    plays = browser.client.get("/api/v1/plays").get_json()["plays"]
    assert plays[0]["first_player"] == 1
    page = text(browser.get(f"/history/{plays[0]['id']}"))
    assert "<dt>Began</dt>\n<dd>Kuba</dd>" in page


def test_the_score_pad_form_refuses_a_first_player_not_in_the_list_in_words(browser):
    assert "Who begins (optional)" in text(browser.get("/scorepad/"))
    response = browser.post("/tables/new/scorepad", {"players": "Ola\nKuba", "first": "Ada"})
    assert response.status_code == 303 and "/t/" not in response.headers["Location"]
    assert "Who begins is one of the players" in text(browser.get(response.headers["Location"]))
    assert browser.client.get("/api/v1/plays").get_json()["plays"] == []


def test_the_csv_keeps_the_contracts_eight_columns_unless_began_is_asked_for(app):
    header = app.test_client().get("/api/v1/plays.csv").data.decode().splitlines()[0]
    assert header == "play,game,started,finished,player,team,score,winner"
    asked = app.test_client().get("/api/v1/plays.csv?with=began").data.decode().splitlines()[0]
    assert asked == "play,game,started,finished,player,team,score,winner,began"
