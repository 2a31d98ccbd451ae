"""Castle's JSON API through the app: the contract's shapes, sorting and 422 errors."""

from __future__ import annotations

import json

import pytest

EXAMPLE = dict(
    zip(
        ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"],
        ["4C", "8D", "JS", "2S", "2H", "9H", "5C", "3S", "10C", "6S", "7D", "AH"],
        strict=True,
    )
)


def _post(client, path, body):
    return client.post(f"/api/v1/castle/{path}", data=json.dumps(body), content_type="application/json")


@pytest.fixture
def client(app):
    return app.test_client()


def test_values_gives_every_pile_sorted_column_then_row(client):
    answer = _post(client, "values", {"castle": EXAMPLE}).get_json()
    assert list(answer) == ["values"]
    assert list(answer["values"]) == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3"]
    assert answer["values"]["B2"] == 9 and answer["values"]["C2"] == 5
    assert answer["values"]["A1"] == 4 - 2  # a black 4 between two red piles


def test_values_with_a_card_lists_where_it_may_go(client):
    answer = _post(client, "values", {"castle": EXAMPLE, "card": "q♥"}).get_json()
    assert "C2" in answer["legal"]  # 12 beats the 5 of clubs' value 5
    assert answer["legal"] == sorted(answer["legal"])
    black_nine = _post(client, "values", {"castle": EXAMPLE, "card": "9s"}).get_json()
    assert "B2" not in black_nine["legal"]  # equal to B2's value 9 is not enough


def test_the_sources_example_red_ten_with_three_red_and_one_black_neighbour_is_twelve(client):
    castle = {**EXAMPLE, "B2": "10H", "B1": "8D", "A2": "2H", "C2": "5D", "C3": "7D", "B3": "6S"}
    assert _post(client, "values", {"castle": castle}).get_json()["values"]["B2"] == 12


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"castle": {**EXAMPLE, "A1": "1X"}}, "unknown_card", "castle.A1"),
        ({"castle": {**EXAMPLE, "A1": "8D"}}, "card_elsewhere", "castle.B1"),
        ({"castle": {**EXAMPLE, "E4": "KD"}}, "unknown_pile", "castle.E4"),
        ({"castle": {k: v for k, v in EXAMPLE.items() if k != "D3"}}, "castle_size", "castle"),
        ({"castle": EXAMPLE, "card": "9H"}, "card_elsewhere", "card"),
        ({"castle": EXAMPLE, "card": 12}, "wrong_type", "card"),
        ({}, "missing_field", "castle"),
    ],
)
def test_values_refuses_bad_input_with_a_422_saying_why(client, body, code, field):
    response = _post(client, "values", body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error.get("field")) == (code, field)
    assert error["message"].endswith(".")


def test_score_counts_the_other_colour_in_each_pickup_and_the_pass_taken_cards(client):
    piles = {pile: [card] for pile, card in EXAMPLE.items()}
    piles["C2"] = ["5C", "QH"]  # the queen of hearts took C2 for red
    answer = _post(client, "score", {"piles": piles, "taken": {"red": ["KS"], "black": ["AD"]}}).get_json()
    # Red holds 8D 2H 9H 5C QH 7D AH + KS: black cards 5C (1) and KS (4) = 5.
    # Black holds 4C JS 2S 3S 10C 6S + AD: the red AD = 9.
    assert answer == {"scores": {"red": 5, "black": 9}, "winner": "black"}


def test_score_is_a_draw_when_equal(client):
    piles = {pile: [card] for pile, card in EXAMPLE.items()}
    answer = _post(client, "score", {"piles": piles}).get_json()
    assert answer == {"scores": {"red": 0, "black": 0}, "winner": None}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"piles": {**{p: [c] for p, c in EXAMPLE.items()}, "A1": []}}, "empty_pile"),
        ({"piles": {p: [c] for p, c in EXAMPLE.items()}, "taken": {"red": ["4C"]}}, "card_elsewhere"),
        ({"piles": {p: [c] for p, c in EXAMPLE.items()}, "taken": {"green": []}}, "unknown_colour"),
        ({"piles": "A1"}, "wrong_type"),
    ],
)
def test_score_refuses_bad_input(client, body, code):
    response = _post(client, "score", body)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == code


def test_the_openapi_document_describes_both_endpoints(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for name in ("values", "score"):
        operation = paths[f"/castle/{name}"]["post"]
        assert operation["tags"] == ["castle"]
        assert operation["requestBody"]["content"]["application/json"]["schema"]["required"]
