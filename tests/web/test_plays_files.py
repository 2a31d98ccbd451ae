"""The plays as files: Castellan's own export imported on a fresh server gives the same export
again, a second import adds nothing, a bad file is refused in words and changes nothing; the
BG Stats file holds what BG Stats' backup holds, its references resolve and its uuids stay
the same from one export (and one server) to the next. On SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
import uuid

import pytest

from companion import store
from companion.app import create_app
from companion.cli import main as castellan
from companion.http.context import get_db
from companion.rules import castle, fort, forteresse, scorepad, tactics, zamek
from companion.service import plays_export
from companion.store import db
from tests.conftest import Browser, fresh_database, text
from tests.rules.test_all_games import OPTIONS

pytestmark = pytest.mark.both_backends

RULES = {
    "castle": castle,
    "fort": fort,
    "forteresse": forteresse,
    "scorepad": scorepad,
    "tactics": tactics,
    "zamek": zamek,
}
TEAMS_PLAY = {
    "id": "imported-castle-0001",
    "game": "castle",
    "started": "2026-11-20T19:02:00Z",
    "finished": "2026-11-20T20:14:05Z",
    "players": [
        {"name": "Ola", "team": "NS", "score": 31, "winner": True},
        {"name": "Kuba", "team": "EW", "score": 12, "winner": False},
        {"name": "Ada", "team": "NS", "score": 31, "winner": True},
        {"name": "Wiesia", "team": "EW", "score": 12, "winner": False},
    ],
    "details": {"sides": [{"players": [0, 2], "colour": "red", "score": 31, "captured": {"K": 1}}]},
}


@pytest.fixture
def other_database(request, database, tmp_path):
    """A second fresh database on the same backend: the server a club moves to."""
    backend = "postgresql" if database.startswith("postgresql") else "sqlite"
    yield from fresh_database(request, tmp_path, backend, "other")


@pytest.fixture
def app(database):
    """The app, importing as often as these tests do (the limit has its own test)."""
    return create_app(
        {"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "IMPORTS_PER_MINUTE": 10_000}
    )


@pytest.fixture
def other_app(other_database):
    return create_app(
        {"DATABASE": other_database, "SECRET_KEY": "test", "TESTING": True, "IMPORTS_PER_MINUTE": 10_000}
    )


def _play_every_game(app, seed: str = "history") -> None:
    """One table of each game (the first of the tests' options) played at random to its end;
    the score pad finished by its referee; one play with teams imported with known times."""
    rng = random.Random(seed)
    with app.app_context():
        conn = get_db()
        for name, variants in sorted(OPTIONS.items()):
            rules = RULES[name]
            for options in variants[:1]:
                table, _links = store.create_table(conn, rules, name, copy.deepcopy(options), name)
                for _step in range(3000):
                    chosen = rules.random_legal_action(table.state, rng)
                    if chosen is None or (name == "scorepad" and table.version >= 3):
                        break
                    actor, action = chosen
                    table = store.act(conn, rules, table.id, actor, action, table.version)
                if name == "scorepad":
                    store.finish(conn, rules, table.id, table.version)
        store.import_plays(conn, [copy.deepcopy(TEAMS_PLAY)])


def _export(client) -> dict:
    response = client.get("/api/v1/plays/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert re.fullmatch(
        r'attachment; filename="castellan-plays-\d{4}-\d\d-\d\d\.json"',
        response.headers["Content-Disposition"],
    )
    return response.get_json()


def _all_plays(app) -> list[store.Play]:
    """Every play as the history pages read it, less the player's number (each server's own)."""
    with app.app_context():
        plays = plays_export.every_play(get_db())
    return [
        dataclasses.replace(
            play, players=tuple(dataclasses.replace(seat, player_id=0) for seat in play.players)
        )
        for play in plays
    ]


def test_an_export_imported_on_a_fresh_server_exports_the_same_and_a_second_import_adds_nothing(
    app, other_app
):
    _play_every_game(app)
    exported = _export(app.test_client())
    assert exported["format"] == "castellan-plays" and exported["version"] == 1
    games = {play["game"] for play in exported["plays"]}
    assert games == set(OPTIONS), "every game's play is in the file"
    assert len(exported["plays"]) == len(OPTIONS) + 1
    assert exported["plays"] == sorted(exported["plays"], key=lambda play: (play["finished"], play["id"]))
    (teams_play,) = [p for p in exported["plays"] if p["id"] == TEAMS_PLAY["id"]]
    assert all(seat["rating"]["sigma"] > 0 for seat in teams_play["players"])  # each seat's, after it
    unrated = [
        {key: value for key, value in seat.items() if key != "rating"} for seat in teams_play["players"]
    ]
    assert {**teams_play, "players": unrated} == TEAMS_PLAY
    assert any(
        play["details"]
        for play in exported["plays"]
        if play["game"] == "castle" and play["id"] != TEAMS_PLAY["id"]
    )

    moved = other_app.test_client()
    first = moved.post("/api/v1/plays/import", json=exported)
    assert first.status_code == 200
    assert first.get_json() == {
        "imported": len(exported["plays"]),
        "skipped": 0,
        "plays": len(exported["plays"]),
    }
    assert _export(moved) == exported
    assert _all_plays(other_app) == _all_plays(app)  # the history pages read the same plays, players in order

    again = moved.post("/api/v1/plays/import", json=exported)
    assert again.get_json() == {
        "imported": 0,
        "skipped": len(exported["plays"]),
        "plays": len(exported["plays"]),
    }
    assert _export(moved) == exported


def test_a_file_with_some_plays_already_here_adds_only_the_new_ones(app, other_app):
    _play_every_game(app)
    exported = _export(app.test_client())
    half = {**exported, "plays": exported["plays"][::2]}
    moved = other_app.test_client()
    assert moved.post("/api/v1/plays/import", json=half).get_json()["imported"] == len(half["plays"])
    answer = moved.post("/api/v1/plays/import", json=exported).get_json()
    assert answer == {
        "imported": len(exported["plays"]) - len(half["plays"]),
        "skipped": len(half["plays"]),
        "plays": len(exported["plays"]),
    }
    assert _export(moved) == exported


def _valid(document_plays=None) -> dict:
    return {"format": "castellan-plays", "version": 1, "plays": document_plays or [copy.deepcopy(TEAMS_PLAY)]}


BAD_FILES = [
    ([], "not_castellan_plays"),
    ({}, "not_castellan_plays"),
    ("castellan-plays", "not_castellan_plays"),
    ({"format": "bgstats", "version": 1, "plays": []}, "not_castellan_plays"),
    ({"format": "castellan-plays", "plays": []}, "bad_version"),
    ({"format": "castellan-plays", "version": "1", "plays": []}, "bad_version"),
    ({"format": "castellan-plays", "version": True, "plays": []}, "bad_version"),
    ({"format": "castellan-plays", "version": 2, "plays": []}, "newer_version"),
    ({"format": "castellan-plays", "version": 1}, "no_plays"),
    ({"format": "castellan-plays", "version": 1, "plays": {"a": 1}}, "no_plays"),
    (
        {"format": "castellan-plays", "version": 1, "plays": [{}] * (plays_export.MAX_PLAYS + 1)},
        "too_many_plays",
    ),
    (_valid([{**TEAMS_PLAY, "id": "another-play-0002", "game": "chess"}]), "unknown_game"),
]


def _junk_plays() -> list[dict]:
    """A good play spoilt one field at a time, each after a good play (so a file half good adds nothing)."""
    spoilt = []
    not_text = [None, -1, 2**70, 1.5, True, [], {}]
    junk = {
        "id": [*not_text, "", "short", "x" * 65, "\x00" * 12, "play\x00\x00\x00\x00\x00\x00\x00"],
        "game": [*not_text, "", "x" * 5000, "chess"],
        "started": [*not_text, "", "x" * 5000, "2026-13-45T19:02:00Z", "2026-11-20T19:02:00"],
        "finished": [*not_text, "", "2026-11-20 20:14", "2026-11-20T20:14:05"],
        "players": [
            *[value for value in not_text if value != []],
            "Ola",
            [],
            [TEAMS_PLAY["players"][0]] * 17,
            ["Ola"],
        ],
        "details": [value for value in not_text if value != {}]
        + ["", "rounds", {"note": "\ud800"}, {"\udfff": 1}],
    }
    seat_junk = {
        "name": [*not_text, "", "   ", "x" * 5000, "\x00"],
        "team": [-1, 2**70, 1.5, True, [], {}, "x" * 41, "\x00", "N\x00S"],
        "score": [2**70, -(2**70), 1.5, True, "31", [], {}],
    }
    for field, values in junk.items():
        spoilt += [{**TEAMS_PLAY, "id": "spoilt-play-0003", field: value} for value in values]
    for field, values in seat_junk.items():
        for value in values:
            seat = {**TEAMS_PLAY["players"][0], field: value}
            spoilt.append(
                {**TEAMS_PLAY, "id": "spoilt-play-0003", "players": [seat, *TEAMS_PLAY["players"][1:]]}
            )
    spoilt.append({key: value for key, value in TEAMS_PLAY.items() if key != "players"})
    spoilt.append(["not", "a", "play"])
    return spoilt


def test_a_bad_file_is_refused_in_words_and_changes_nothing(app):
    client = app.test_client()
    before = _export(client)
    good = {**copy.deepcopy(TEAMS_PLAY), "id": "good-play-000000001"}
    cases = [(document, code) for document, code in BAD_FILES]
    cases += [(_valid([good, spoilt]), None) for spoilt in _junk_plays()]
    for document, code in cases:
        response = client.post("/api/v1/plays/import", json=document)
        assert response.status_code == 422, (
            document if len(str(document)) < 400 else code,
            response.get_json(),
        )
        error = response.get_json()["error"]
        if code is not None:
            assert error["code"] == code
        assert error["message"].endswith(".") and "Traceback" not in error["message"], error
        assert _export(client) == before, f"a refused file changed the plays: {error}"
    assert len(cases) > 80


def test_what_is_not_json_or_too_big_is_refused_with_the_apis_error_shape(app):
    client = app.test_client()
    not_json = client.post("/api/v1/plays/import", data=b'{"format": ', content_type="application/json")
    assert not_json.status_code == 400 and not_json.get_json()["error"]["code"] == "malformed_json"
    as_text = client.post("/api/v1/plays/import", data=b"{}", content_type="text/plain")
    assert as_text.status_code == 415 and as_text.get_json()["error"]["code"] == "unsupported_media_type"
    huge = (
        b'{"format": "castellan-plays", "version": 1, "plays": ['
        + b" " * (plays_export.MAX_FILE_BYTES + 10)
        + b"]}"
    )
    too_big = client.post("/api/v1/plays/import", data=huge, content_type="application/json")
    assert too_big.status_code == 413 and too_big.get_json()["error"]["code"] == "too_large"
    assert _export(client)["plays"] == []


def test_a_large_file_is_taken_although_other_requests_stay_capped(app):
    client = app.test_client()
    plays = [{**copy.deepcopy(TEAMS_PLAY), "id": f"bulk-play-{number:08d}"} for number in range(1500)]
    body = json.dumps(_valid(plays)).encode()
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]  # the cap of every other request
    answer = client.post("/api/v1/plays/import", data=body, content_type="application/json")
    assert answer.status_code == 200 and answer.get_json()["imported"] == 1500
    elsewhere = client.post("/api/v1/tables", data=body, content_type="application/json")
    assert elsewhere.status_code == 413


# --- BG Stats --------------------------------------------------------------------------------

BGSTATS_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def _bgstats(client, query: str = "") -> dict:
    response = client.get(f"/api/v1/plays/bgstats.json{query}")
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    assert re.fullmatch(
        r'attachment; filename="castellan-\d{4}-\d\d-\d\d\.bgsplay"', response.headers["Content-Disposition"]
    )
    return response.get_json()


def assert_bgstats_shape(document: dict) -> None:
    """What readers of BG Stats' backup file rely on (docs/history.md lists the sources): the four
    lists, integer ids unique in each, uuids, every reference resolving, BG Stats' dates."""
    assert {"games", "players", "locations", "plays"} <= set(document)
    assert isinstance(document.get("userInfo", {}), dict)
    for kind in ("games", "players", "locations"):
        ids = [entry["id"] for entry in document[kind]]
        assert all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in ids) and len(
            set(ids)
        ) == len(ids)
        for entry in document[kind]:
            assert isinstance(entry["name"], str) and entry["name"]
            assert str(uuid.UUID(entry["uuid"])).upper() == entry["uuid"]
    games = {game["id"]: game for game in document["games"]}
    players = {player["id"] for player in document["players"]}
    locations = {location["id"] for location in document["locations"]}
    for game in document["games"]:
        assert all(
            isinstance(game[key], bool) for key in ("highestWins", "noPoints", "cooperative", "usesTeams")
        )
        assert game["bggId"] == 0
    play_uuids = [play["uuid"] for play in document["plays"]]
    assert len(set(play_uuids)) == len(play_uuids)
    for play in document["plays"]:
        uuid.UUID(play["uuid"])
        assert play["gameRefId"] in games and play["locationRefId"] in locations
        for key in ("playDate", "entryDate", "modificationDate"):
            assert BGSTATS_DATE.fullmatch(play[key]), play[key]
        assert isinstance(play["durationMin"], int) and play["durationMin"] >= 0
        assert play["ignored"] is False and isinstance(play["usesTeams"], bool)
        assert play["playerScores"], "a play without players"
        for score in play["playerScores"]:
            assert score["playerRefId"] in players
            assert isinstance(score["winner"], bool) and isinstance(score["startPlayer"], bool)
            assert isinstance(score["newPlayer"], bool) and isinstance(score["seatOrder"], int)
            assert "score" not in score or re.fullmatch(r"-?\d+", score["score"])
            assert ("team" in score) == play["usesTeams"]
        assert not games[play["gameRefId"]]["noPoints"] or all("score" not in s for s in play["playerScores"])


def test_the_bgstats_file_holds_every_play_with_its_scores_winners_and_teams(app):
    _play_every_game(app)
    client = app.test_client()
    document = _bgstats(client, "?tz=UTC")
    assert_bgstats_shape(document)
    plays = _all_plays(app)
    assert len(document["plays"]) == len(plays)
    names = {player["id"]: player["name"] for player in document["players"]}
    game_names = {game["id"]: game["name"] for game in document["games"]}
    assert sorted(game_names.values()) == sorted(
        ["Castle", "Fort", "Forteresse", "Score pad", "Square Tactics", "Zamek"]
    )
    assert [location["name"] for location in document["locations"]] == ["Castellan"]
    for ours, theirs in zip(plays, document["plays"], strict=True):
        assert theirs["uuid"] == str(uuid.uuid5(plays_export.NAMESPACE, f"play:{ours.id}")).upper()
        assert [
            (names[s["playerRefId"]], s.get("score"), s["winner"], s.get("team"))
            for s in theirs["playerScores"]
        ] == [
            (
                seat.name,
                None if seat.score is None else str(seat.score),
                seat.winner,
                seat.team or None,
            )
            for seat in ours.players
        ]
    [teams] = [
        play
        for play in document["plays"]
        if play["uuid"] == str(uuid.uuid5(plays_export.NAMESPACE, f"play:{TEAMS_PLAY['id']}")).upper()
    ]
    assert (teams["playDate"], teams["entryDate"], teams["durationMin"]) == (
        "2026-11-20 19:02:00",
        "2026-11-20 20:14:05",
        72,
    )
    assert teams["usesTeams"] is True and [s["team"] for s in teams["playerScores"]] == [
        "NS",
        "EW",
        "NS",
        "EW",
    ]
    assert len({player["name"] for player in document["players"]}) == len(document["players"])


def test_the_bgstats_file_filters_as_the_plays_do_and_says_the_phones_time(app):
    _play_every_game(app)
    client = app.test_client()
    castle_only = _bgstats(client, "?game=castle&tz=Europe/Warsaw")
    assert_bgstats_shape(castle_only)
    assert [game["name"] for game in castle_only["games"]] == ["Castle"] and len(castle_only["plays"]) == 2
    teams_uuid = str(uuid.uuid5(plays_export.NAMESPACE, f"play:{TEAMS_PLAY['id']}")).upper()
    [teams] = [play for play in castle_only["plays"] if play["uuid"] == teams_uuid]
    assert teams["playDate"] == "2026-11-20 20:02:00"  # 19:02 UTC is 20:02 in Warsaw in November
    wiesia = _bgstats(client, "?player=wiesia&me=ADA")
    assert_bgstats_shape(wiesia)
    assert [play["uuid"] for play in wiesia["plays"]] == [teams_uuid]
    ada = [player["id"] for player in wiesia["players"] if player["name"] == "Ada"]
    assert wiesia["userInfo"] == {"meRefId": ada[0]}
    nobody = _bgstats(client, "?player=Nobody")
    assert nobody["plays"] == [] and nobody["games"] == [] and nobody["players"] == []
    for query, field in (
        ("?game=chess", "game"),
        ("?tz=Mars/Olympus", "tz"),
        ("?tz=../../etc/passwd", "tz"),
        ("?tz=" + "x" * 500, "tz"),
    ):
        refused = client.get(f"/api/v1/plays/bgstats.json{query}")
        assert refused.status_code == 422 and refused.get_json()["error"]["field"] == field
        assert refused.get_json()["error"]["message"].endswith(".")


def test_the_same_plays_give_the_same_bgstats_file_on_the_server_they_moved_to(app, other_app):
    _play_every_game(app)
    first = _bgstats(app.test_client(), "?tz=Europe/Warsaw")
    assert _bgstats(app.test_client(), "?tz=Europe/Warsaw") == first
    moved = other_app.test_client()
    moved.post("/api/v1/plays/import", json=_export(app.test_client()))
    assert _bgstats(moved, "?tz=Europe/Warsaw") == first  # so BG Stats adds nothing twice


# --- The page and the command ---------------------------------------------------------------


def test_the_page_imports_an_uploaded_file_and_says_what_it_added(app, other_app):
    _play_every_game(app)
    exported = json.dumps(_export(app.test_client())).encode()
    count = len(json.loads(exported)["plays"])
    phone = Browser(other_app.test_client())
    page = phone.get("/history/files")
    assert page.status_code == 200
    assert 'action="/api/v1/plays/bgstats.json"' in text(page) and 'href="/api/v1/plays/export.json"' in text(
        page
    )

    def upload(data: bytes, name: str = "plays.json"):
        import io

        return phone.post(
            "/history/files", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data"
        )

    added = upload(exported)
    assert added.status_code == 303
    assert f"Plays added: {count}. Plays of the file already here, left as they were: 0." in text(
        phone.get(added.headers["Location"])
    )
    again = upload(exported)
    assert f"Nothing was added: the file's plays were all here already ({count} in all)." in text(
        phone.get(again.headers["Location"])
    )
    for junk, words in (
        (b"\xff\xfe not json", "This file is not a Castellan export of plays"),
        (b"[]", "This file is not a Castellan export of plays"),
        (
            b'{"format": "castellan-plays", "version": 9, "plays": []}',
            "made by a newer Castellan (export version 9)",
        ),
    ):
        refused = upload(junk)
        assert refused.status_code == 422 and words in text(refused) and 'role="alert"' in text(refused)
    empty = phone.post("/history/files", data={}, content_type="multipart/form-data")
    assert empty.status_code == 422 and "Choose the file to import" in text(empty)
    assert len(_all_plays(other_app)) == count
    no_token = other_app.test_client().post("/history/files", data={}, content_type="multipart/form-data")
    assert no_token.status_code == 400 and len(_all_plays(other_app)) == count


def test_the_command_moves_every_play_to_another_database(
    app, database, other_database, tmp_path, monkeypatch, capsys
):
    _play_every_game(app)
    exported = _export(app.test_client())
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    file = tmp_path / "plays.json"
    assert castellan(["plays", "export", "-o", str(file)]) == 0
    assert capsys.readouterr().out.strip() == f"Wrote {len(exported['plays'])} plays to {file}."
    assert json.loads(file.read_text()) == exported
    monkeypatch.setenv("CASTELLAN_DATABASE", other_database)
    assert castellan(["plays", "import", str(file)]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"Plays added: {len(exported['plays'])}. Plays of the file already here, left as they were: 0."
    )
    assert castellan(["plays", "import", str(file)]) == 0
    assert "Plays added: 0." in capsys.readouterr().out
    db.engine(other_database).dispose()
    other = create_app({"DATABASE": other_database, "SECRET_KEY": "test", "TESTING": True})
    assert _export(other.test_client()) == exported
    (tmp_path / "junk.json").write_text("[1, 2")
    assert castellan(["plays", "import", str(tmp_path / "junk.json")]) == 1
    assert (
        capsys.readouterr().err.strip()
        == f"castellan plays: {tmp_path / 'junk.json'} is not a Castellan export of plays: it is not JSON."
    )
    (tmp_path / "other.json").write_text('{"format": "castellan-plays", "version": 3, "plays": []}')
    assert castellan(["plays", "import", str(tmp_path / "other.json")]) == 1
    assert "made by a newer Castellan (export version 3)" in capsys.readouterr().err


def test_imports_from_one_address_are_limited_on_the_page_and_the_api_together(database):
    import io

    limited = create_app(
        {"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "IMPORTS_PER_MINUTE": 2}
    )
    phone = Browser(limited.test_client())
    empty = json.dumps({"format": "castellan-plays", "version": 1, "plays": []}).encode()
    assert phone.client.post("/api/v1/plays/import", json=json.loads(empty)).get_json()["plays"] == 0
    first = phone.post(
        "/history/files", data={"file": (io.BytesIO(empty), "p.json")}, content_type="multipart/form-data"
    )
    assert first.status_code == 303
    sentence = "This address has imported 2 files of plays in the last minute. Wait a minute, then try again."
    page = phone.post(
        "/history/files", data={"file": (io.BytesIO(empty), "p.json")}, content_type="multipart/form-data"
    )
    assert page.status_code == 429 and sentence in text(page)
    api = phone.client.post("/api/v1/plays/import", json=json.loads(empty))
    assert api.status_code == 429 and api.get_json()["error"] == {
        "code": "too_many_requests",
        "message": sentence,
    }
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # another address has its own minute
    assert other.post("/api/v1/plays/import", json=json.loads(empty)).status_code == 200


def test_a_lowest_total_wins_pad_is_a_bgstats_game_where_the_lowest_wins(app):
    def pad(number: int, lowest: bool) -> dict:
        return {
            "id": f"pad-play-{number:06d}",
            "game": "scorepad",
            "started": "2026-11-20T19:00:00Z",
            "finished": "2026-11-20T19:30:00Z",
            "details": {"rounds": [[3, 9]], "lowest_wins": lowest},
            "players": [
                {"name": "Ola", "score": 3, "winner": lowest, "team": None},
                {"name": "Kuba", "score": 9, "winner": not lowest, "team": None},
            ],
        }

    with app.app_context():
        store.import_plays(get_db(), [pad(1, False), pad(2, True), pad(3, True)])
    document = _bgstats(app.test_client(), "?tz=UTC")
    assert_bgstats_shape(document)
    games = {game["id"]: game for game in document["games"]}
    assert sorted((game["name"], game["highestWins"]) for game in games.values()) == [
        ("Score pad", True),
        ("Score pad (lowest total wins)", False),
    ]
    by_play = {play["uuid"]: games[play["gameRefId"]]["highestWins"] for play in document["plays"]}
    assert [
        by_play[str(uuid.uuid5(plays_export.NAMESPACE, f"play:pad-play-{n:06d}")).upper()] for n in (1, 2, 3)
    ] == [True, False, False]
    [plain] = [game for game in games.values() if game["highestWins"]]
    assert plain["uuid"] == str(uuid.uuid5(plays_export.NAMESPACE, "game:scorepad")).upper()  # as before
