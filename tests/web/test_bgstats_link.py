"""Send to BG Stats: the link on a finished play's page and at the table's end is BG Stats' documented
``createPlay.html?data=``, and its data decodes to the documented JSON for every game's play, teams
included; the page works without JavaScript (a plain link) and the server sends nothing anywhere."""

from __future__ import annotations

import copy
import html
import json
import re
import uuid
from urllib.parse import unquote, urlsplit

import pytest

from companion import store
from companion.http.context import get_db
from companion.service import bgstats_link, plays_export
from tests.web import test_plays_files
from tests.web.test_plays_files import RULES, TEAMS_PLAY, _play_every_game

pytestmark = pytest.mark.both_backends
app = test_plays_files.app  # that test's app: imports as often as these tests do

NAMES = {
    "castle": "Castle",
    "fort": "Fort",
    "forteresse": "Forteresse",
    "scorepad": "Score pad",
    "tactics": "Square Tactics",
    "zamek": "Zamek",
}


def _link_on(page: str) -> str:
    found = re.findall(r'<a class="button" href="([^"]+)"[^>]*>Send to BG Stats</a>', page)
    assert len(found) == 1, "one Send to BG Stats link"
    return html.unescape(found[0])


def _data(link: str) -> dict:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    assert parts.query.startswith("data=") and "&" not in parts.query
    return json.loads(unquote(parts.query[len("data=") :]))


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(plays_export.NAMESPACE, f"{kind}:{key}")).upper()


def _documented(play: dict, started: str, minutes: int) -> dict:
    """What BG Stats' documentation asks for, written out from the API's play."""
    scores = [seat["score"] for seat in play["players"]]
    players = []
    for position, seat in enumerate(play["players"]):
        better = {
            other["score"]
            for other in play["players"]
            if not other["winner"] and other["score"] is not None and other["score"] > seat["score"]
        }
        rank = (
            1
            if seat["winner"]
            else sum(other["winner"] for other in play["players"])
            + 1
            + sum(1 for other in play["players"] if other["score"] in better and not other["winner"])
        )
        entry = {
            "name": seat["name"],
            "sourcePlayerId": _uuid("player", store.name_key(seat["name"])),
            "winner": seat["winner"],
            "rank": rank,
            "startPlayer": position == play["first_player"],
            "score": seat["score"],
        }
        if seat["team"]:
            entry["team"] = seat["team"]
        players.append(entry)
    return {
        "sourceName": "Castellan",
        "sourcePlayId": play["id"],
        "playDate": started,
        "durationMin": minutes,
        "game": {
            "name": NAMES[play["game"]],
            "sourceGameId": _uuid("game", play["game"]),
            "highestWins": True,
            "noPoints": all(score is None for score in scores),
        },
        "players": players,
    }


def test_every_games_play_page_links_to_bgstats_with_the_documented_json(app):
    _play_every_game(app)
    client = app.test_client()
    plays = client.get("/api/v1/plays").get_json()["plays"]
    assert {play["game"] for play in plays} == set(RULES)
    for play in plays:
        data = _data(_link_on(client.get(f"/history/{play['id']}").data.decode()))
        started = play["started"].replace("T", " ").replace("Z", "")
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", started)
        assert data == _documented(play, started, data["durationMin"])
        assert isinstance(data["durationMin"], int) and data["durationMin"] >= 0
    teams = next(play for play in plays if play["id"] == TEAMS_PLAY["id"])
    data = _data(_link_on(client.get(f"/history/{teams['id']}").data.decode()))
    assert [(player["name"], player["team"], player["rank"]) for player in data["players"]] == [
        ("Ola", "NS", 1),
        ("Kuba", "EW", 3),
        ("Ada", "NS", 1),
        ("Wiesia", "EW", 3),
    ]
    assert data["durationMin"] == 72 and data["playDate"] == "2026-11-20 19:02:00"
    assert not any(player["startPlayer"] for player in data["players"]), "not known: nobody"


def test_a_lowest_total_wins_pad_is_its_own_game_and_ranks_the_lowest_first(app):
    play = {
        **copy.deepcopy(TEAMS_PLAY),
        "id": "imported-low-pad-1",
        "game": "scorepad",
        "players": [
            {"name": "Ola", "team": None, "score": 40, "winner": False},
            {"name": "Kuba", "team": None, "score": 12, "winner": True},
            {"name": "Ada", "team": None, "score": 20, "winner": False},
        ],
        "details": {"rounds": [[40, 12, 20]], "lowest_wins": True},
        "first_player": 2,
    }
    with app.app_context():
        store.import_plays(get_db(), [play])
    data = _data(_link_on(app.test_client().get("/history/imported-low-pad-1").data.decode()))
    assert data["game"] == {
        "name": "Score pad (lowest total wins)",
        "sourceGameId": _uuid("game", "scorepad:lowest"),
        "highestWins": False,
        "noPoints": False,
    }
    assert [(p["name"], p["rank"], p["startPlayer"]) for p in data["players"]] == [
        ("Ola", 3, False),
        ("Kuba", 1, False),
        ("Ada", 2, True),
    ]


def test_the_tables_end_offers_the_same_link_and_a_private_table_none(app):
    client = app.test_client()
    for private in (False, True):
        made = client.post(
            "/api/v1/tables",
            json={"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}, "private": private},
        ).get_json()
        token = made["links"]["referee"]["token"]
        client.post(f"/api/v1/tables/{token}/finish", json={"version": 0})
        page = client.get(f"/t/{token}").data.decode()
        if private:
            assert "Send to BG Stats" not in page
            continue
        play = client.get("/api/v1/plays").get_json()["plays"][0]
        assert _link_on(page) == _link_on(client.get(f"/history/{play['id']}").data.decode())
        assert _link_on(page) == bgstats_link.link(
            next(found for found in _stored(app) if found.id == play["id"]), "Score pad"
        )


def _stored(app) -> list[store.Play]:
    with app.app_context():
        return store.list_plays(get_db())
