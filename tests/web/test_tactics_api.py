"""Square Tactics' JSON API through HTTP: /api/v1/tactics/play and /score, exactly as shared/api.md says."""

from __future__ import annotations

import json

import pytest

PLAY = "/api/v1/tactics/play"
SCORE = "/api/v1/tactics/score"
TWO = {"p1": "S", "p2": "N"}
FOUR = {"p1": "S", "p2": "W", "p3": "N", "p4": "E"}


@pytest.fixture
def client(app):
    return app.test_client()


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def refused(response) -> dict:
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert set(response.get_json()) == {"error"}
    assert error["code"] and error["message"].endswith(".")
    return error


def test_the_contracts_example_captures_b2_with_one_step(client):
    answer = post(
        client,
        PLAY,
        {
            "size": 3,
            "seats": TWO,
            "board": {"B2": {"owner": "p2", "edges": [3, 4, 6, 2]}},
            "play": {"player": "p1", "cell": "B3", "edges": [5, 3, 7, 2]},
        },
    ).get_json()
    assert answer["steps"] == [{"edge": "top", "cell": "B2", "mine": 5, "theirs": 3, "result": "capture"}]
    assert answer["captured"] == ["B2"]
    assert answer["board"] == {"B3": {"owner": "p1", "edges": [5, 3, 7, 2]}}


def test_equal_goes_on_and_a_lower_edge_stops_the_rest(client):
    # S plays on B2: top meets B1 (N's top, 5: equal), right meets C2 (N's right... its edge pointing west is
    # its right, 9: stop); bottom would have captured B3 but is never processed.
    board = {
        "B1": {"owner": "p2", "edges": [5, 1, 1, 1]},
        "C2": {"owner": "p2", "edges": [1, 9, 1, 1]},
        "B3": {"owner": "p2", "edges": [1, 1, 1, 1]},
    }
    answer = post(
        client,
        PLAY,
        {
            "size": 3,
            "seats": TWO,
            "board": board,
            "play": {"player": "p1", "cell": "b2", "edges": [5, 4, 8, 1]},
        },
    ).get_json()
    assert [(s["edge"], s["cell"], s["mine"], s["theirs"], s["result"]) for s in answer["steps"]] == [
        ("top", "B1", 5, 5, "equal"),
        ("right", "C2", 4, 9, "stop"),
    ]
    assert answer["captured"] == []
    assert set(answer["board"]) == {"B1", "B2", "B3", "C2"}


def test_four_players_compare_the_edges_that_touch_and_captures_come_sorted(client):
    # Each enemy's top (its first number) points at B2: N's top points south, E's west, W's east.
    board = {
        "A2": {"owner": "p2", "edges": [2, 9, 9, 9]},
        "C2": {"owner": "p4", "edges": [3, 9, 9, 9]},
        "B1": {"owner": "p3", "edges": [4, 9, 9, 9]},
    }
    answer = post(
        client,
        PLAY,
        {
            "size": 4,
            "seats": FOUR,
            "board": board,
            "play": {"player": "p1", "cell": "B2", "edges": [5, 5, 5, 5]},
        },
    ).get_json()
    assert [(s["cell"], s["theirs"], s["result"]) for s in answer["steps"]] == [
        ("B1", 4, "capture"),
        ("C2", 3, "capture"),
        ("A2", 2, "capture"),
    ]
    assert answer["captured"] == ["A2", "B1", "C2"]


def test_score_counts_captures_and_cells_and_names_the_winner(client):
    board = {
        "A1": {"owner": "p1", "edges": [1, 1, 1, 1]},
        "B2": {"owner": "p1", "edges": [1, 1, 1, 1]},
        "B1": {"owner": "p2", "edges": [1, 1, 1, 1]},
    }
    answer = post(client, SCORE, {"size": 3, "board": board, "captured": {"p1": 2, "p2": 1}}).get_json()
    assert answer == {
        "scores": {
            "p1": {"total": 6, "captured": 2, "position": 4},
            "p2": {"total": 3, "captured": 1, "position": 2},
        },
        "winner": "p1",
    }


def test_the_4x4_inner_cells_are_all_centres_and_equal_totals_are_a_draw(client):
    board = {
        cell: {"owner": "p1" if cell in ("B2", "C3") else "p2", "edges": [1, 1, 1, 1]}
        for cell in ("B2", "C3", "B3", "C2")
    }
    answer = post(client, SCORE, {"size": 4, "board": board}).get_json()
    assert answer["scores"]["p1"]["position"] == answer["scores"]["p2"]["position"] == 6
    assert answer["winner"] is None


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {"B2": {"owner": "p2", "edges": [1, 1, 1, 1]}},
                "play": {"player": "p1", "cell": "B2", "edges": [1, 1, 1, 1]},
            },
            "occupied",
            "play.cell",
        ),
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "D1", "edges": [1, 1, 1, 1]},
            },
            "off_board",
            "play.cell",
        ),
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "A1", "edges": [1, 10, 1, 1]},
            },
            "bad_edges",
            "play.edges[1]",
        ),
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1]},
            },
            "bad_edges",
            "play.edges",
        ),
        (
            {
                "size": 3,
                "seats": {"p1": "S", "p2": "W"},
                "board": {},
                "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1, 1]},
            },
            "bad_seat",
            "seats.p2",
        ),
        (
            {
                "size": 4,
                "seats": {"p1": "S", "p2": "W", "p3": "N"},
                "board": {},
                "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1, 1]},
            },
            "bad_players",
            "seats",
        ),
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "turn": "p2",
                "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1, 1]},
            },
            "out_of_turn",
            "play.player",
        ),
        (
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "A1", "edges": [9, 9, 9, 9], "hand": [[1, 2, 3, 4]]},
            },
            "not_in_hand",
            "play.edges",
        ),
        ({"size": 5, "seats": TWO, "board": {}, "play": {}}, "bad_size", "size"),
        # 3.0 == 3 in Python: a float size passed the check, then broke the board (a 500).
        (
            {
                "size": 3.0,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "B3", "edges": [5, 3, 7, 2]},
            },
            "bad_size",
            "size",
        ),
    ],
)
def test_each_bad_input_is_a_422_that_names_the_field(client, body, code, field):
    error = refused(post(client, PLAY, body))
    assert (error["code"], error.get("field")) == (code, field)


def test_a_float_size_is_refused_by_the_scorer_too(client):
    error = refused(
        post(client, SCORE, {"size": 4.0, "board": {"E1": {"owner": "p1", "edges": [1, 1, 1, 1]}}})
    )
    assert (error["code"], error["field"]) == ("bad_size", "size")


def test_a_seat_that_does_not_exist_is_named_briefly(client):
    body = {
        "size": 3,
        "seats": {"p1": "S", "p2": "Q" * 5000},
        "board": {},
        "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1, 1]},
    }
    error = refused(post(client, PLAY, body))
    assert error["code"] == "bad_seat" and len(error["message"]) < 120
    assert "is not a seat of a 3x3 board: use S N" in error["message"]


def test_a_refused_play_says_why_in_words(client):
    error = refused(
        post(
            client,
            PLAY,
            {
                "size": 3,
                "seats": TWO,
                "board": {},
                "play": {"player": "p1", "cell": "Z9", "edges": [1, 1, 1, 1]},
            },
        )
    )
    assert "Z9 is off the board" in error["message"] and "A1 to C3" in error["message"]


def test_score_refuses_a_board_of_the_wrong_size_and_negative_captures(client):
    assert (
        refused(post(client, SCORE, {"size": 3, "board": {"D4": {"owner": "p1", "edges": [1, 1, 1, 1]}}}))[
            "code"
        ]
        == "off_board"
    )
    assert (
        refused(post(client, SCORE, {"size": 3, "board": {}, "captured": {"p1": -1}}))["code"]
        == "bad_captured"
    )


JUNK = [
    None,
    [],
    "x",
    7,
    {"size": True},
    {"size": 3, "seats": "SN"},
    {"size": 3, "seats": TWO, "board": []},
    {"size": 3, "seats": TWO, "board": {"B2": "card"}},
    {"size": 3, "seats": TWO, "board": {}, "play": []},
    {"size": 3, "seats": TWO, "board": {}, "play": {"player": ["p1"], "cell": 5, "edges": "5372"}},
    {"size": 3, "seats": TWO, "board": {}, "play": {"player": "p1", "cell": "A1", "edges": [True, 1, 1, 1]}},
    {"size": 3, "seats": TWO, "board": {}, "play": {"player": "p1", "cell": "A1", "edges": [1.5, 1, 1, 1]}},
    {
        "size": 3,
        "seats": TWO,
        "board": {},
        "play": {"player": "p1", "cell": "A1", "edges": [1, 1, 1, 1], "hand": "all"},
    },
    {"size": 3, "board": {"A1": {"owner": 3, "edges": [1, 1, 1, 1]}}},
    {"size": 3, "board": {}, "captured": {"p1": 10**30}},
    {"size": 3, "board": {}, "captured": []},
    {
        "size": 4,
        "board": {f"{c}{r}": {"owner": f"p{r}{c}", "edges": [1, 1, 1, 1]} for c in "AB" for r in "123"},
    },
]


@pytest.mark.parametrize("body", JUNK)
def test_junk_gets_a_422_never_a_500(client, body):
    refused(post(client, PLAY, body))
    scored = post(client, SCORE, body)
    if scored.status_code != 200:  # some junk for a play is a fine empty board to score
        refused(scored)


def test_both_endpoints_are_in_the_openapi_document(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for name in ("play", "score"):
        operation = paths[f"/tactics/{name}"]["post"]
        assert operation["tags"] == ["tactics"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert "size" in schema["properties"] and "board" in schema["properties"]
    assert paths["/tactics/play"]["post"]["responses"]["200"]["content"]["application/json"]["schema"][
        "required"
    ] == ["steps", "captured", "board"]
