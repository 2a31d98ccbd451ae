"""Fort's JSON API through the app: the contract's examples, its refusals and junk that never gives a 500."""

from __future__ import annotations

import json

import pytest

BATTLE = {
    "attacker": {"army": 5, "fort": 3, "campaign": False},
    "defender": {"army": 4, "campaign": False},
    "target": {"card": "9H", "height": 1},
    "challenge": 1,
    "soldiers": {"attacker": ["7S", "KH"], "defender": ["AD", "2C"]},
}


def _post(client, path, body):
    return client.post(f"/api/v1/fort/{path}", data=json.dumps(body), content_type="application/json")


def test_the_contract_example_battle(app):
    response = _post(app.test_client(), "battle", BATTLE)
    assert response.status_code == 200
    answer = response.get_json()
    assert set(answer) == {"kind", "pairs", "result", "moves", "replaced", "attacker_out"}
    assert answer["pairs"] == [
        {"attacker": "7S", "defender": "AD", "winner": "attacker"},
        {"attacker": "KH", "defender": "2C", "winner": "attacker"},
    ]
    assert answer["result"] == "attacker"
    assert answer["moves"] == [
        {"card": "7S", "to": "attacker.army"},
        {"card": "AD", "to": "barracks.bottom"},
        {"card": "KH", "to": "barracks.bottom"},
        {"card": "2C", "to": "attacker.army"},
        {"card": "9H", "to": "attacker.army"},
    ]
    assert (answer["kind"], answer["replaced"], answer["attacker_out"]) == ("battle", False, False)


def test_a_lost_third_challenge_replaces_the_target_and_a_fortless_attacker_is_out(app):
    body = {
        **BATTLE,
        "attacker": {"army": 5, "fort": 0},
        "challenge": 3,
        "soldiers": {"attacker": ["3S"], "defender": ["4D"]},
    }
    answer = _post(app.test_client(), "battle", body).get_json()
    assert answer["result"] == "defender"
    assert answer["moves"][-1] == {"card": "9H", "to": "barracks.bottom"}
    assert answer["replaced"] is True and answer["attacker_out"] is True


def test_a_vulnerable_fort_is_taken_and_a_campaign_battle_has_no_target(app):
    client = app.test_client()
    taken = _post(
        client, "battle", {**BATTLE, "defender": {"army": 0}, "soldiers": {"attacker": [], "defender": []}}
    )
    assert taken.get_json()["kind"] == "taken"
    assert taken.get_json()["moves"] == [{"card": "9H", "to": "attacker.army"}]
    campaigns = {
        "attacker": {"army": 4, "fort": 0, "campaign": True},
        "defender": {"army": 2, "campaign": True},
        "soldiers": {"attacker": ["QS", "5H"], "defender": ["4C", "6D"]},
    }
    answer = _post(client, "battle", campaigns).get_json()
    assert answer["result"] == "draw"
    assert {move["card"]: move["to"] for move in answer["moves"]} == {
        "QS": "attacker.army",
        "5H": "attacker.army",
        "4C": "defender.army",
        "6D": "defender.army",
    }


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"soldiers": {"attacker": ["7S", "KH"], "defender": ["7S", "2C"]}}, "duplicate_card", None),
        ({"soldiers": {"attacker": ["7S", "KH"], "defender": ["AD"]}}, "soldiers_mismatch", None),
        ({"attacker": {"army": 1, "fort": 3}}, "army_too_small", "soldiers"),
        ({"target": {"card": "9H", "height": 2}}, "watchtower_needs_army", "attacker.army"),
        ({"target": {"card": "9H", "height": 4}}, "complete_watchtower", "target.height"),
        ({"challenge": 4}, "fourth_challenge", "challenge"),
        ({"defender": {"army": 4, "campaign": True}}, "defender_on_campaign", "defender.campaign"),
        (
            {"soldiers": {"attacker": ["7S", "KH", "2H"], "defender": ["AD", "2C", "3C"]}},
            "not_on_campaign",
            "soldiers",
        ),
    ],
)
def test_each_refusal_is_a_422_that_says_why(app, change, code, field):
    response = _post(app.test_client(), "battle", {**BATTLE, **change})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == code
    assert error["message"].endswith(".") and len(error["message"]) > 20
    if field:
        assert error["field"] == field


def test_the_contract_example_showdown_and_a_tie_with_draws(app):
    client = app.test_client()
    body = {"armies": {"p1": ["5H", "JC", "2D"], "p2": ["9C", "4S", "QH", "6D"]}}
    answer = _post(client, "showdown", body).get_json()
    assert answer["laid"] == {"p1": ["5H", "JC", "2D"], "p2": ["4S", "QH", "6D"]}
    assert answer["to_barracks"] == ["9C"]
    assert answer["tricks"] == {"p1": 1, "p2": 2} and answer["winner"] == "p2"
    assert answer["tied"] == [] and answer["draws"] == {}
    tie = {
        "armies": {"a": ["5H", "2C"], "b": ["5S", "9D"], "c": ["5D"]},
        "watchtowers": {"a": "8", "b": "K", "c": "t"},
    }
    answer = _post(client, "showdown", tie).get_json()
    assert answer["laid"] == {"a": ["2C"], "b": ["9D"], "c": ["5D"]}  # trimmed from the top
    assert answer["winner"] == "b"
    four = {
        "armies": {"a": ["2H", "3H"], "b": ["2S", "3S"], "c": ["2D", "3D"], "d": ["2C", "3C"]},
        "watchtowers": {"a": "8", "b": "K", "c": "10", "d": "A"},
    }
    answer = _post(client, "showdown", four).get_json()
    assert answer["laid"]["a"] == ["2H"] and answer["to_barracks"] == ["3H", "2S", "2D", "2C"]
    assert answer["winner"] is None and answer["tied"] == ["a", "b", "c", "d"]
    assert answer["draws"] == {"a": 8, "b": 10, "c": 10, "d": 10}


@pytest.mark.parametrize("path", ["battle", "showdown"])
@pytest.mark.parametrize(
    "junk",
    [None, [], "x", 7, {}, {"attacker": []}, {"armies": []}, {"armies": {"a": "5H"}}, {"target": 3}],
)
def test_junk_bodies_get_a_clear_422(app, path, junk):
    response = _post(app.test_client(), path, junk)
    assert response.status_code == 422
    assert response.get_json()["error"]["message"]


def test_malformed_json_and_the_wrong_type_are_refused(app):
    client = app.test_client()
    assert client.post("/api/v1/fort/battle", data="{", content_type="application/json").status_code == 400
    assert client.post("/api/v1/fort/showdown", data="{}", content_type="text/plain").status_code == 415


def test_the_openapi_document_describes_both_endpoints(app):
    paths = app.test_client().get("/api/v1/openapi.json").get_json()["paths"]
    battle = paths["/fort/battle"]["post"]
    schema = battle["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["required"]) == {"attacker", "defender", "soldiers"}
    answer = battle["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["properties"]["moves"]["items"]["properties"]["to"]["enum"] == [
        "attacker.army",
        "defender.army",
        "defender.fort",
        "barracks.bottom",
    ]
    assert (
        "draws"
        in paths["/fort/showdown"]["post"]["responses"]["200"]["content"]["application/json"]["schema"][
            "required"
        ]
    )
