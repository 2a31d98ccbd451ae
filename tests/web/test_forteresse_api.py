"""Forteresse's JSON API through the app: the contract's shapes, sorting and 422 errors."""

from __future__ import annotations

import json

import pytest

FORTRESS = {
    "walls": ["F2", "B2", "C3", "E3", "D4", "C5", "E5", "B6", "D6", "E6"],
    "besieged": ["D2", "B4", "F4", "C6", "F6"],
}


def _post(client, path, body):
    response = client.post(
        f"/api/v1/forteresse/{path}", data=json.dumps(body), content_type="application/json"
    )
    return response.status_code, response.get_json()


@pytest.fixture
def client(app):
    return app.test_client()


def test_setup_accepts_ten_walls_and_five_besieged(client):
    assert _post(client, "setup", FORTRESS) == (200, {"valid": True})
    assert _post(
        client, "setup", {"walls": [c.lower() for c in FORTRESS["walls"]], "besieged": FORTRESS["besieged"]}
    )[1] == {"valid": True}


@pytest.mark.parametrize(
    ("body", "code", "field", "words"),
    [
        ({**FORTRESS, "walls": FORTRESS["walls"][:9]}, "wrong_wall_count", "walls", "exactly 10 walls"),
        (
            {**FORTRESS, "besieged": FORTRESS["besieged"][:4]},
            "wrong_besieged_count",
            "besieged",
            "exactly 5 besieged",
        ),
        (
            {**FORTRESS, "walls": ["A1", *FORTRESS["walls"][1:]]},
            "outside_fortress",
            "walls[0]",
            "outside the fortress",
        ),
        (
            {**FORTRESS, "besieged": ["F2", *FORTRESS["besieged"][1:]]},
            "cell_taken",
            "besieged[0]",
            "marked twice",
        ),
        (
            {**FORTRESS, "walls": ["H9", *FORTRESS["walls"][1:]]},
            "unknown_cell",
            "walls[0]",
            "not a cell of the grid",
        ),
        ({"walls": FORTRESS["walls"]}, "missing_field", "besieged", "missing"),
    ],
)
def test_setup_refuses_a_bad_layout_and_says_what_is_wrong(client, body, code, field, words):
    status, answer = _post(client, "setup", body)
    assert status == 422
    assert answer["error"]["code"] == code and answer["error"]["field"] == field
    assert words in answer["error"]["message"]


def test_a_cannon_destroys_the_first_wall_and_the_fortress_comes_back_sorted(client):
    status, answer = _post(
        client, "shot", {"fortress": FORTRESS, "shot": {"from": "a2", "direction": "e", "weapon": "Cannon"}}
    )
    assert status == 200
    assert answer["outcome"] == "wall_destroyed" and answer["cell"] == "B2"
    assert answer["announcement"] == "Wall destroyed at B2."
    assert answer["fortress"]["walls"] == ["B6", "C3", "C5", "D4", "D6", "E3", "E5", "E6", "F2"]
    assert answer["fortress"]["besieged"] == ["B4", "C6", "D2", "F4", "F6"]


def test_a_rifle_on_a_wall_names_no_cell_and_changes_nothing(client):
    answer = _post(
        client, "shot", {"fortress": FORTRESS, "shot": {"from": "A2", "direction": "E", "weapon": "rifle"}}
    )[1]
    assert (answer["outcome"], answer["cell"], answer["announcement"]) == ("wall", None, "Wall.")
    assert answer["fortress"]["walls"] == sorted(FORTRESS["walls"], key=lambda c: (c[0], int(c[1])))


def test_only_the_first_occupied_cell_counts_and_a_cleared_path_is_a_miss(client):
    killed = _post(
        client, "shot", {"fortress": FORTRESS, "shot": {"from": "A4", "direction": "E", "weapon": "cannon"}}
    )[1]
    assert killed["announcement"] == "Besieged killed at B4."
    assert "D4" in killed["fortress"]["walls"]  # behind the besieged: safe
    empty = {"walls": ["B2"], "besieged": []}
    miss = _post(
        client,
        "shot",
        {"fortress": empty, "used": ["A2"], "shot": {"from": "A3", "direction": "E", "weapon": "cannon"}},
    )[1]
    assert (miss["outcome"], miss["cell"], miss["announcement"]) == ("miss", None, "Miss.")


@pytest.mark.parametrize(
    ("shot", "used", "code", "field"),
    [
        ({"from": "A3", "direction": "E", "weapon": "cannon"}, ["A3"], "firing_cell_used", "shot.from"),
        ({"from": "C3", "direction": "E", "weapon": "cannon"}, [], "not_a_firing_cell", "shot.from"),
        (
            {"from": "A1", "direction": "E", "weapon": "cannon"},
            [],
            "direction_misses_fortress",
            "shot.direction",
        ),
        ({"from": "A3", "direction": "UP", "weapon": "cannon"}, [], "unknown_direction", "shot.direction"),
        ({"from": "A3", "direction": "E", "weapon": "musket"}, [], "unknown_weapon", "shot.weapon"),
        ({"from": "A3", "direction": "E", "weapon": "cannon"}, "A1", "not_a_list", "used"),
    ],
)
def test_a_bad_shot_is_a_422_naming_the_field(client, shot, used, code, field):
    status, answer = _post(client, "shot", {"fortress": FORTRESS, "used": used, "shot": shot})
    assert status == 422
    assert answer["error"]["code"] == code and answer["error"]["field"] == field
    assert answer["error"]["message"].endswith(".")


def test_score_gives_the_rules_page_example_and_a_two_round_total(client):
    first = {"a": {"killed": 5, "cannons": 6, "rifles": 2}, "b": {"killed": 3, "cannons": 14, "rifles": 10}}
    assert _post(client, "score", {"rounds": [first]}) == (
        200,
        {"rounds": [{"a": 87, "b": 41}], "totals": {"a": 87, "b": 41}, "winner": "a"},
    )
    second = {"a": first["b"], "b": first["a"]}
    answer = _post(client, "score", {"rounds": [first, second]})[1]
    assert answer == {
        "rounds": [{"a": 87, "b": 41}, {"a": 41, "b": 87}],
        "totals": {"a": 128, "b": 128},
        "winner": None,
    }


@pytest.mark.parametrize(
    ("tally", "code"),
    [
        ({"killed": 6, "cannons": 6, "rifles": 2}, "too_many_kills"),
        ({"killed": 1, "cannons": 20, "rifles": 5}, "too_many_shots"),
        ({"killed": 0, "cannons": -1, "rifles": 2}, "negative_number"),
        ({"killed": 0, "cannons": 1.5, "rifles": 2}, "not_an_integer"),
    ],
)
def test_score_refuses_impossible_counts(client, tally, code):
    body = {"rounds": [{"a": tally, "b": {"killed": 0, "cannons": 0, "rifles": 0}}]}
    status, answer = _post(client, "score", body)
    assert status == 422 and answer["error"]["code"] == code
    assert answer["error"]["field"].startswith("rounds[0].a")


@pytest.mark.parametrize(
    "body",
    [
        [],
        "x",
        None,
        7,
        {"fortress": []},
        {"fortress": {"walls": "B2"}, "shot": {}},
        {"rounds": []},
        {"rounds": [1, 2, 3]},
        {"walls": [None] * 10, "besieged": [[]] * 5},
    ],
)
def test_junk_bodies_get_the_error_shape(client, body):
    for path in ("setup", "shot", "score"):
        status, answer = _post(client, path, body)
        assert status == 422, (path, body)
        assert set(answer) == {"error"} and answer["error"]["message"]


def test_the_openapi_document_describes_the_three_endpoints(client):
    document = client.get("/api/v1/openapi.json").get_json()
    for path in ("/forteresse/setup", "/forteresse/shot", "/forteresse/score"):
        operation = document["paths"][path]["post"]
        assert operation["tags"] == ["forteresse"]
        assert operation["requestBody"]["content"]["application/json"]["schema"]["required"]
    shot = document["paths"]["/forteresse/shot"]["post"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert shot["properties"]["outcome"]["enum"] == ["wall_destroyed", "besieged_killed", "wall", "miss"]
