"""A seat's link claimed by a phone is that phone's through the JSON API too (issue 36): another
program reading, logging or acting through it is refused and nothing is recorded, while a program
holding the claim's secret (``POST /api/v1/tables/<seat>/claim``, then the ``Seat-Claim`` header)
plays it; before any claim, the program that made the table plays every seat."""

from __future__ import annotations

import pytest

from companion import store
from companion.http.context import get_db
from tests.conftest import Browser

pytestmark = pytest.mark.both_backends

FORTRESS = {
    "type": "setup",
    "walls": ["F2", "B2", "C3", "E3", "D4", "C5", "E5", "B6", "D6", "E6"],
    "besieged": ["D2", "B4", "F4", "C6", "F6"],
}
CLAIMED = (
    "Ola's link is already open on another phone, and it shows that player's secrets there only. "
    "If that phone is lost, the referee can release the seat from the table's page."
)


@pytest.fixture
def client(app):
    return app.test_client()


def _table(client) -> dict[str, str]:
    """A Forteresse table on phones made through the API: its tokens by role, and seats by seat."""
    created = client.post(
        "/api/v1/tables",
        json={
            "game": "forteresse",
            "options": {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"},
        },
    ).get_json()
    links = created["links"]
    return {"referee": links["referee"]["token"], **{seat["seat"]: seat["token"] for seat in links["seats"]}}


def _setup(client, token: str, version: int, claim: str | None = None):
    headers = {"Seat-Claim": claim} if claim else {}
    return client.post(
        f"/api/v1/tables/{token}/actions", json={"action": FORTRESS, "version": version}, headers=headers
    )


def _logged(app, token: str) -> list[str]:
    with app.app_context():
        return [
            entry["actor"] for entry in store.history(get_db(), store.find_link(get_db(), token).table_id)
        ]


def test_before_any_claim_the_program_that_made_the_table_plays_every_seat(app, client):
    tokens = _table(client)
    assert _setup(client, tokens["a"], 0).status_code == 200
    assert _setup(client, tokens["b"], 1).status_code == 200
    assert client.get(f"/api/v1/tables/{tokens['a']}").get_json()["seat"] == "a"
    assert _logged(app, tokens["a"]) == ["b", "a"]


def test_a_seat_a_phone_claimed_is_refused_to_other_programs_and_nothing_is_recorded(app, client):
    tokens = _table(client)
    phone = Browser(app.test_client())
    assert phone.get(f"/t/{tokens['a']}").status_code == 200  # Ola's phone opens its seat: claimed
    for answer in (
        client.get(f"/api/v1/tables/{tokens['a']}"),
        client.get(f"/api/v1/tables/{tokens['a']}", headers={"If-None-Match": '"table-0"'}),
        client.get(f"/api/v1/tables/{tokens['a']}/log"),
        _setup(client, tokens["a"], 0),
        _setup(client, tokens["a"], 0, claim="a guess"),
        client.post(f"/api/v1/tables/{tokens['a']}/claim", json={}),
    ):
        assert answer.status_code == 403
        assert answer.get_json() == {"error": {"code": "seat_claimed", "message": CLAIMED}}
    assert _logged(app, tokens["a"]) == []
    assert _setup(client, tokens["b"], 0).status_code == 200  # the seat no phone holds is still free


def test_a_program_claims_a_free_seat_and_only_its_secret_opens_it_after(app, client):
    tokens = _table(client)
    claimed = client.post(f"/api/v1/tables/{tokens['a']}/claim", json={})
    assert claimed.status_code == 200
    secret = claimed.get_json()["claim"]
    assert claimed.get_json()["table"]["seat"] == "a"
    again = client.post(f"/api/v1/tables/{tokens['a']}/claim", json={}, headers={"Seat-Claim": secret})
    assert again.get_json()["claim"] == secret
    headers = {"Seat-Claim": secret}
    assert client.get(f"/api/v1/tables/{tokens['a']}", headers=headers).status_code == 200
    assert _setup(client, tokens["a"], 0).status_code == 403
    assert _setup(client, tokens["a"], 0, claim=secret).status_code == 200
    assert (
        client.get(f"/api/v1/tables/{tokens['a']}/log", headers=headers).get_json()["actions"][0]["by"] == "a"
    )
    phone = Browser(app.test_client())
    assert phone.get(f"/t/{tokens['a']}").status_code == 403  # a phone cannot take a program's seat
    referee = Browser(app.test_client())
    referee.get(f"/t/{tokens['referee']}")
    referee.post(f"/t/{tokens['referee']}/release", {"seat": "a"})  # the referee frees it
    assert client.get(f"/api/v1/tables/{tokens['a']}").status_code == 200
    assert phone.get(f"/t/{tokens['a']}").status_code == 200


def test_only_a_players_own_seat_can_be_claimed(client):
    tokens = _table(client)
    refused = client.post(f"/api/v1/tables/{tokens['referee']}/claim", json={})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "not_claimable"
    assert client.post(f"/api/v1/tables/{tokens['a']}/claim", data="{}").status_code == 415
    assert client.post("/api/v1/tables/nosuchtokenatall/claim", json={}).status_code == 404
