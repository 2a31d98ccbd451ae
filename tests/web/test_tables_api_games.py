"""A whole game of each game played through the JSON API alone, from creation to the final score.

The test's players choose their moves with the rules module's ``random_legal_action`` on the
stored state (they know the cards, as people at the table do); every move reaches the table
only through the API, through the link of whoever makes it, carrying the version it last read.
"""

from __future__ import annotations

import random

import pytest

from tests.conftest import table_state

GAMES = {
    "scorepad": {"players": ["Ola", "Kuba", "Ada"]},
    "forteresse": {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"},
    "castle": {
        "players": 4,
        "dealer": "E",
        "name_N": "Ola",
        "name_E": "Kuba",
        "name_S": "Ada",
        "name_W": "Jan",
    },
    "fort": {"players": 3, "name_1": "Ola", "name_2": "Kuba", "name_3": "Ada"},
    "tactics": {
        "players": 2,
        "faction_p1": "wardens",
        "faction_p2": "roost",
        "name_p1": "Ola",
        "name_p2": "Kuba",
    },
    "zamek": {"variant": "extended", "players": ["Ola", "Kuba", "Ada"]},
}
NAMES = {
    "scorepad": ["Ola", "Kuba", "Ada"],
    "forteresse": ["Ola", "Kuba"],
    "castle": ["Ola", "Ada", "Kuba", "Jan"],
    "fort": ["Ola", "Kuba", "Ada"],
    "tactics": ["Ola", "Kuba"],
    "zamek": ["Ola", "Kuba", "Ada"],
}
MAX_MOVES = 3000
PAD_ROUNDS = 6


def test_every_game_with_tables_is_played_here(app):
    playable = {slug for slug, game in app.extensions["castellan.games"].games.items() if game.has_tables}
    assert playable == set(GAMES)


def play_to_the_end(app, client, slug: str, body: dict | None = None) -> tuple[dict, dict, int]:
    """Create a table of ``slug`` through the API and play it to its end (the score pad: ``PAD_ROUNDS``
    rounds, not finished); its links, each actor's token and how many moves were made."""
    rules = app.extensions["castellan.games"].games[slug].rules
    created = client.post("/api/v1/tables", json={"game": slug, "options": GAMES[slug], **(body or {})})
    assert created.status_code == 201, created.get_json()
    links = created.get_json()["links"]
    tokens = {
        "referee": links["referee"]["token"],
        **{seat["seat"]: seat["token"] for seat in links["seats"]},
    }
    rng = random.Random(slug)
    for moves in range(MAX_MOVES):
        chosen = rules.random_legal_action(table_state(app, tokens["referee"]), rng)
        if chosen is None or (slug == "scorepad" and moves == PAD_ROUNDS):
            return links, tokens, moves
        actor, action = chosen
        token = tokens[actor]
        version = client.get(f"/api/v1/tables/{token}").get_json()["version"]
        response = client.post(
            f"/api/v1/tables/{token}/actions",
            json={"action": action, "version": version},
            headers={"Idempotency-Key": f"move-{moves}"},
        )
        assert response.status_code == 200, (moves, action, response.get_json())
    pytest.fail(f"{slug}: the game did not end within {MAX_MOVES} moves")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_whole_game_through_the_api_alone(app, slug):
    client = app.test_client()
    links, tokens, moves = play_to_the_end(app, client, slug)
    viewer = links["viewer"]["token"]
    if slug == "scorepad":  # the score pad has no end of its own: its referee finishes it
        before = client.get(f"/api/v1/tables/{viewer}").get_json()
        assert (before["finished"], before["result"]) == (False, None)
        version = client.get(f"/api/v1/tables/{tokens['referee']}").get_json()["version"]
        client.post(f"/api/v1/tables/{tokens['referee']}/finish", json={"version": version})
    final = client.get(f"/api/v1/tables/{viewer}").get_json()
    assert final["finished"] is True
    players = final["result"]["players"]
    assert sorted(player["name"] for player in players) == sorted(NAMES[slug])
    assert any(player["winner"] for player in players) or _tied(players)
    if slug != "fort":  # Fort's winner completes a fort first; the others win on points (or a tie-break)
        best = max(player["score"] for player in players)
        assert all(player["score"] == best for player in players if player["winner"])
    log = client.get(f"/api/v1/tables/{viewer}/log").get_json()["actions"]
    assert len([entry for entry in log if not entry["undone"]]) == moves + (slug == "scorepad")
    if slug == "scorepad":
        rounds = table_state(app, viewer)["rounds"]
        assert [player["score"] for player in players] == [
            sum(column) for column in zip(*rounds, strict=True)
        ]
    if slug != "scorepad":  # over by its rules: nothing left to finish
        again = client.post(f"/api/v1/tables/{tokens['referee']}/finish", json={"version": final["version"]})
        assert again.status_code == 422 and again.get_json()["error"]["code"] == "table_finished"


def _tied(players: list[dict]) -> bool:
    return len({player["score"] for player in players}) < len(players)
