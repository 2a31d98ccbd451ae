"""Zamek's JSON API through HTTP: /api/v1/zamek/turn and /score, exactly as shared/api.md says."""

from __future__ import annotations

import json

import pytest

TURN = "/api/v1/zamek/turn"
SCORE = "/api/v1/zamek/score"


@pytest.fixture
def client(app):
    return app.test_client()


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_adding_a_higher_card_answers_added_with_sorted_castles(client):
    response = post(
        client,
        TURN,
        {
            "castles": {"p2": [1, 3], "p1": [1, 5, 12]},
            "player": "p1",
            "card": 20,
            "action": "add",
            "deck": "default",
        },
    )
    answer = response.get_json()
    assert response.status_code == 200
    assert answer["result"] == "added"
    assert list(answer["castles"]) == ["p1", "p2"]
    assert answer["castles"]["p1"] == [1, 5, 12, 20]
    assert answer["winner"] is None


def test_a_card_lower_than_every_castle_end_is_boxed_whatever_the_add(client):
    answer = post(
        client,
        TURN,
        {"castles": {"p1": [1, 5, 12], "p2": [1, 8]}, "player": "p1", "card": 6, "action": "add"},
    ).get_json()
    assert answer["result"] == "boxed"
    assert answer["castles"] == {"p1": [1, 5, 12], "p2": [1, 8]}


def test_a_card_that_must_go_to_the_box_is_boxed_even_when_put_back(client):
    """api.md: a card lower than every castle's end is boxed whatever the action."""
    answer = post(
        client,
        TURN,
        {"castles": {"p1": [1, 5, 12], "p2": [1, 8]}, "player": "p1", "card": 6, "action": "put_back"},
    ).get_json()
    assert answer["result"] == "boxed"
    assert answer["castles"] == {"p1": [1, 5, 12], "p2": [1, 8]}


def test_the_wizard_slides_a_card_in_once(client):
    castles = {"p1": [1, 5, 18, 30], "p2": [1, 40]}
    answer = post(
        client, TURN, {"castles": castles, "player": "p1", "card": 7, "action": "wizard"}
    ).get_json()
    assert answer["result"] == "inserted"
    assert answer["castles"]["p1"] == [1, 5, 7, 18, 30]
    again = post(
        client,
        TURN,
        {"castles": castles, "player": "p1", "card": 7, "action": "wizard", "wizard_used": ["p1"]},
    )
    assert again.status_code == 422
    assert again.get_json()["error"]["code"] == "wizard_used"


def test_the_tenth_element_names_the_winner(client):
    castles = {"p1": [1, 2, 3, 4, 5, 6, 7, 8, 9], "p2": [1]}
    answer = post(client, TURN, {"castles": castles, "player": "p1", "card": 10, "action": "add"}).get_json()
    assert answer["winner"] == "p1"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        (
            {"castles": {"p1": [1], "p2": [1]}, "player": "p1", "card": 47, "action": "add"},
            "number_out_of_range",
            "card",
        ),
        (
            {"castles": {"p1": [1, 9], "p2": [1]}, "player": "p2", "card": 9, "action": "add"},
            "already_placed",
            "card",
        ),
        (
            {"castles": {"p1": [1, 20], "p2": [1]}, "player": "p1", "card": 9, "action": "add"},
            "not_higher",
            "card",
        ),
        (
            {"castles": {"p1": [1, 20], "p2": [1, 3]}, "player": "p1", "card": 9, "action": "wizard"},
            "no_wizard",
            None,
        ),
        ({"castles": {"p1": [1]}, "player": "p1", "card": 9, "action": "add"}, "player_count", "castles"),
        (
            {
                "castles": {"p1": [1], "p2": [1]},
                "player": "p1",
                "card": 9,
                "action": "add",
                "deck": {"king": 2, "queen": 3, "wizard": 3, "knights": [], "princesses": []},
            },
            "bad_deck",
            "deck.wizard",
        ),
    ],
)
def test_each_bad_turn_is_a_422_in_the_error_shape(client, body, code, field):
    response = post(client, TURN, body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == code
    assert error["message"].endswith(".")
    if field:
        assert error["field"] == field


def test_the_score_counts_pictures_pairs_and_names_the_deck(client):
    # default deck: knights 3 9, princess 5, king 41
    answer = post(
        client, SCORE, {"deck": "default", "castles": {"p1": [1, 3, 5, 9, 41], "p2": [1, 2, 4]}}
    ).get_json()
    assert answer["scores"]["p1"] == {
        "total": 5 + 2 + 1 + 3 + 1,
        "elements": 5,
        "knights": 2,
        "princesses": 1,
        "king": True,
        "queen": False,
        "wizard": False,
        "pairs": 1,
    }
    assert answer["winner"] == "p1"
    assert answer["decided_by"] == "score"
    assert answer["deck"]["id"] == "zamek-default"


@pytest.mark.parametrize(
    ("castles", "winner", "decided_by"),
    [
        ({"a": [1, 41], "b": [1, 34]}, "a", "king"),
        ({"a": [1, 34], "b": [1, 2, 4, 6, 7]}, "a", "queen"),
        ({"a": [1, 18], "b": [1, 2]}, "a", "wizard"),
        ({"a": [1, 2], "b": [1, 4]}, None, None),
    ],
)
def test_the_tie_break_chain(client, castles, winner, decided_by):
    answer = post(client, SCORE, {"castles": castles}).get_json()
    assert len({answer["scores"][name]["total"] for name in castles}) == 1  # a real tie each time
    assert (answer["winner"], answer["decided_by"]) == (winner, decided_by)


def test_a_custom_deck_changes_the_score(client):
    deck = {"king": 2, "queen": 3, "wizard": 4, "knights": [5], "princesses": [6]}
    answer = post(client, SCORE, {"deck": deck, "castles": {"a": [1, 2], "b": [1, 7]}}).get_json()
    assert answer["scores"]["a"]["total"] == 2 + 3
    assert answer["deck"]["id"].startswith("custom-")


def test_the_openapi_document_describes_both_endpoints(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert paths["/zamek/turn"]["post"]["requestBody"]["content"]["application/json"]["schema"][
        "required"
    ] == ["castles", "player", "card", "action"]
    assert (
        "decided_by"
        in paths["/zamek/score"]["post"]["responses"]["200"]["content"]["application/json"]["schema"][
            "properties"
        ]
    )


def test_the_referee_ends_a_table_through_the_tables_api(client):
    created = client.post("/api/v1/tables", json={"game": "zamek", "options": {"players": ["Ola", "Kuba"]}})
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["links"]["referee"]["token"]
    steps = [
        {"type": "turn", "position": 1, "number": 30},
        {"type": "choose", "choice": "put_back"},
        {"type": "turn", "position": 2, "number": 12},
        {"type": "choose", "choice": "add"},
    ]
    for version, action in enumerate(steps):
        answer = client.post(f"/api/v1/tables/{token}/actions", json={"action": action, "version": version})
        assert answer.status_code == 200, answer.get_json()
    viewer = created.get_json()["links"]["viewer"]["token"]
    refused = client.post(f"/api/v1/tables/{viewer}/actions", json={"action": {"type": "end"}, "version": 4})
    assert refused.status_code == 403
    ended = client.post(f"/api/v1/tables/{token}/actions", json={"action": {"type": "end"}, "version": 4})
    table = ended.get_json()
    assert ended.status_code == 200 and table["finished"] is True
    assert table["view"]["winner"] == "p2" and table["view"]["decided_by"] == "longest"
    assert [(p["name"], p["score"], p["winner"]) for p in table["result"]["players"]] == [
        ("Ola", 1, False),
        ("Kuba", 2, True),
    ]
    log = client.get(f"/api/v1/tables/{token}/log").get_json()["actions"]
    assert log[-1]["text"] == "The referee ended the game. Kuba wins with the longest castle."
    again = client.post(f"/api/v1/tables/{token}/actions", json={"action": {"type": "end"}, "version": 5})
    assert again.status_code == 422 and again.get_json()["error"]["code"] == "game_over"
