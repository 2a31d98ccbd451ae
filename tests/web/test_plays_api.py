"""Plays through the API: every game played to its end through ``/api/v1/tables`` is exactly one
play, with its scores, winners and the game's own details; undo withdraws it; the score pad's
finish makes it; a private table stays out; ``GET /api/v1/plays`` filters and pages, its CSV
reads back, and a bad filter is a 422 in the contract's shape."""

from __future__ import annotations

import csv
import io
import time

import pytest

from tests.web.test_tables_api_games import GAMES, NAMES, play_to_the_end


@pytest.fixture
def client(app):
    return app.test_client()


def _plays(client, query: str = "") -> list[dict]:
    response = client.get(f"/api/v1/plays{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["plays"]


def _finish(client, token: str) -> dict:
    version = client.get(f"/api/v1/tables/{token}").get_json()["version"]
    response = client.post(f"/api/v1/tables/{token}/finish", json={"version": version})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _undo(client, token: str) -> dict:
    version = client.get(f"/api/v1/tables/{token}").get_json()["version"]
    response = client.post(f"/api/v1/tables/{token}/undo", json={"version": version})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _check_details(slug: str, play: dict) -> None:
    """The game's own details agree with the play's scores."""
    details, scores = play["details"], [player["score"] for player in play["players"]]
    if slug == "scorepad":
        assert [sum(column) for column in zip(*details["rounds"], strict=True)] == scores
        assert len(details["rounds"]) == 6 and details["lowest_wins"] is False
    elif slug == "forteresse":
        assert len(details["rounds"]) == 2
        assert [sum(round_[seat]["points"] for round_ in details["rounds"]) for seat in (0, 1)] == scores
        assert all(0 <= round_[seat]["killed"] <= 5 for round_ in details["rounds"] for seat in (0, 1))
    elif slug == "castle":
        assert sorted(position for side in details["sides"] for position in side["players"]) == [0, 1, 2, 3]
        for side in details["sides"]:
            assert all(scores[position] == side["score"] for position in side["players"])
            assert side["colour"] in ("red", "black") and set(side["captured"]) >= {"A", "K", "Q", "J"}
    elif slug == "fort":
        assert details["ended_by"] in ("showdown", "last_standing")
        if details["ended_by"] == "showdown":
            assert len(details["showdown"]["tricks"]) == 3
    elif slug == "tactics":
        assert len(details["games"]) == 3
        assert [sum(game["scores"][seat] for game in details["games"]) for seat in (0, 1)] == scores
    elif slug == "zamek":
        assert details["variant"] == "extended" and len(details["castles"]) == 3
        assert details["decided_by"] in ("score", "king", "queen", "wizard", "ten", None)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_played_to_its_end_is_exactly_one_play_and_undo_withdraws_it(app, client, slug):
    links, tokens, _moves = play_to_the_end(app, client, slug)
    referee = tokens["referee"]
    if slug == "scorepad":
        assert _plays(client) == []  # an open pad is no play
        _finish(client, referee)
    table = client.get(f"/api/v1/tables/{referee}").get_json()
    [play] = _plays(client)
    assert play["game"] == slug and play["started"] <= play["finished"]
    kept = [{key: player[key] for key in ("name", "score", "winner", "team")} for player in play["players"]]
    assert kept == table["result"]["players"] and sorted(p["name"] for p in kept) == sorted(NAMES[slug])
    _check_details(slug, play)
    assert _plays(client, f"?game={slug}&player={NAMES[slug][0].upper()}") == [play]
    _undo(client, referee)
    assert _plays(client) == []
    assert client.get(f"/api/v1/tables/{links['viewer']['token']}").get_json()["finished"] is False


def test_a_private_table_stays_out_of_the_history(app, client):
    links, _tokens, _moves = play_to_the_end(app, client, "forteresse", {"private": True})
    table = client.get(f"/api/v1/tables/{links['viewer']['token']}").get_json()
    assert table["finished"] is True and table["private"] is True and table["result"] is not None
    assert _plays(client) == []
    refused = client.post(
        "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola"]}, "private": "yes"}
    )
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "private"
    for lang, words in (("fr", "«\u00a0private\u00a0» vaut true"), ("pl", "„private” ma wartość true")):
        said = client.post(
            "/api/v1/tables",
            json={"game": "scorepad", "options": {"players": ["Ola"]}, "private": 1},
            headers={"Accept-Language": lang},
        ).get_json()["error"]
        assert said["code"] == "bad_private" and said["message"].startswith(words), said


def test_the_start_forms_private_box_keeps_a_pad_out_and_its_names_are_offered(app, browser):
    private = browser.create_table("scorepad", {"players": "Zosia\nKuba", "private": "yes"})
    public = browser.create_table("scorepad", {"players": "Ewa\nKuba"})
    for token in (private, public):
        browser.post(f"/t/{token}/act", {"version": "0", "points": ["3", "4"]})
        version = browser.client.get(f"/api/v1/tables/{token}").get_json()["version"]
        browser.client.post(f"/api/v1/tables/{token}/finish", json={"version": version})
    [play] = _plays(browser.client)
    assert [player["name"] for player in play["players"]] == ["Ewa", "Kuba"]
    with app.app_context():
        from companion import store
        from companion.http.context import get_db

        assert store.player_names(get_db()) == ["Ewa", "Kuba", "Zosia"]  # one public play each, then by name


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_start_form_offers_to_keep_the_table_out_of_the_history(browser, slug):
    page = browser.get(f"/{slug}/").data.decode()
    form = page[page.index('id="new-table"') :]
    assert '<input type="checkbox" name="private" value="yes"> Keep this table out of the history' in form


def _pads(client, count: int) -> None:
    """``count`` finished score pads, Ola against Guest 0, 1, ... in that order, each finished in a
    later millisecond than the one before: plays are ordered by when they finished, to the
    millisecond, and two that finished in the same one by their (random) ids."""
    for number in range(count):
        time.sleep(0.002)
        created = client.post(
            "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola", f"Guest {number}"]}}
        )
        token = created.get_json()["links"]["referee"]["token"]
        client.post(
            f"/api/v1/tables/{token}/actions",
            json={"action": {"type": "round", "points": [number, 2]}, "version": 0},
        )
        _finish(client, token)


def test_plays_come_newest_first_a_page_at_a_time(client):
    _pads(client, 5)
    first = client.get("/api/v1/plays?limit=2").get_json()
    assert [p["players"][1]["name"] for p in first["plays"]] == ["Guest 4", "Guest 3"]
    second = client.get(f"/api/v1/plays?limit=2&before={first['next']}").get_json()
    assert [p["players"][1]["name"] for p in second["plays"]] == ["Guest 2", "Guest 1"]
    last = client.get(f"/api/v1/plays?limit=2&before={second['next']}").get_json()
    assert [p["players"][1]["name"] for p in last["plays"]] == ["Guest 0"] and last["next"] is None
    assert _plays(client, "?player=guest%203")[0]["players"][1]["score"] == 2
    assert _plays(client, "?player=Nobody") == [] and _plays(client, "?game=castle") == []


def test_the_csv_has_one_row_per_player_per_play_and_reads_back(client):
    _pads(client, 2)
    created = client.post(
        "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["=1+1", 'Ada "the quick", jr']}}
    )
    token = created.get_json()["links"]["referee"]["token"]
    client.post(
        f"/api/v1/tables/{token}/actions", json={"action": {"type": "round", "points": [-3, 4]}, "version": 0}
    )
    _finish(client, token)
    response = client.get("/api/v1/plays.csv")
    assert (
        response.mimetype == "text/csv" and "castellan-plays.csv" in response.headers["Content-Disposition"]
    )
    rows = list(csv.reader(io.StringIO(response.data.decode())))
    assert rows[0] == ["play", "game", "started", "finished", "player", "team", "score", "winner"]
    plays = _plays(client)
    assert [row[0] for row in rows[1:]] == [play["id"] for play in plays for _ in play["players"]]
    assert [row[4:] for row in rows[1:3]] == [
        ["'=1+1", "", "-3", "false"],
        ['Ada "the quick", jr', "", "4", "true"],
    ]
    assert rows[1][1:4] == ["scorepad", plays[0]["started"], plays[0]["finished"]]
    assert [row[4] for row in rows[3:]] == ["Ola", "Guest 1", "Ola", "Guest 0"]
    ola = list(csv.reader(io.StringIO(client.get("/api/v1/plays.csv?player=OLA&limit=1").data.decode())))
    assert [row[4] for row in ola[1:]] == ["Ola", "Guest 1"]


@pytest.mark.parametrize(
    "query, field, message",
    [
        ("game=chess", "game", "The game must be one of: "),
        ("limit=0", "limit", "The limit is a whole number from 1 to 500."),
        ("limit=ten", "limit", "The limit is a whole number from 1 to 500."),
        ("limit=%C2%B2", "limit", "The limit is a whole number from 1 to 500."),
        ("before=nope", "before", "There is no play with the id given as “before”"),
        ("player=" + "x" * 61, "player", "A player's name is 1 to 60 characters."),
    ],
)
def test_a_filter_that_makes_no_sense_is_a_422_that_says_why(client, query, field, message):
    for path in ("/api/v1/plays", "/api/v1/plays.csv"):
        response = client.get(f"{path}?{query}")
        error = response.get_json()["error"]
        assert (
            response.status_code == 422 and error["field"] == field and error["message"].startswith(message)
        )


def test_the_openapi_document_describes_the_plays_endpoints(client):
    document = client.get("/api/v1/openapi.json").get_json()
    parameters = {p["name"] for p in document["paths"]["/plays"]["get"]["parameters"]}
    assert parameters == {"game", "player", "limit", "before"}
    assert "/plays.csv" in document["paths"] and "Play" in document["components"]["schemas"]
    creation = document["paths"]["/tables"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert all(option["properties"]["private"]["type"] == "boolean" for option in creation["oneOf"])
