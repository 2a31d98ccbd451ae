"""Imports that cannot break the history (issue 36): dates from 1970 to 50 years ahead, ids of
letters, digits, ``-`` and ``_`` only, files and addresses bounded in plays and new players, big
files written a chunk at a time; every page and export of a stored play at the calendar's edges, in
every time zone; a play deleted by its referee or by the server's owner."""

from __future__ import annotations

import json
import logging
import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from companion import store
from companion.app import create_app
from companion.cli import main as castellan
from companion.http.context import get_db
from companion.rules import scorepad
from companion.store import db
from companion.store import plays as store_plays
from companion.store.roster import find_or_add_player
from companion.web import charts
from tests.conftest import Browser, text

pytestmark = pytest.mark.both_backends

# The time zones of this test set: both ends of the clock (UTC-12, UTC+14), half and quarter hours,
# summer time on either side of the equator.
ZONES = [
    "UTC",
    "Etc/GMT+12",
    "Pacific/Kiritimati",
    "Asia/Tokyo",
    "Asia/Kathmandu",
    "Europe/Warsaw",
    "America/New_York",
    "Australia/Lord_Howe",
]
LATEST = datetime.now(UTC).year + store_plays.YEARS_AHEAD


def _play(play_id: str, started: str, finished: str | None = None, rounds=None) -> dict:
    """A score pad's play (the game whose play page draws a chart) as Castellan's export holds it."""
    return {
        "id": play_id,
        "game": "scorepad",
        "started": started,
        "finished": finished or started,
        "players": [
            {"name": "Ola", "team": None, "score": 12, "winner": True},
            {"name": "Kuba", "team": None, "score": 5, "winner": False},
        ],
        "details": {"rounds": rounds or [[5, 2], [7, 3]], "lowest_wins": False},
    }


def _file(*plays: dict) -> dict:
    return {"format": "castellan-plays", "version": 1, "plays": list(plays)}


@pytest.fixture
def app(database):
    return create_app(
        {"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "IMPORTS_PER_MINUTE": 10_000}
    )


def _plays(app) -> list[store.Play]:
    with app.app_context():
        return store.list_plays(get_db(), limit=store.MAX_PAGE)


# --- Dates ---------------------------------------------------------------------------------------


REFUSED_DATES = [
    "0001-01-01T00:00:00Z",
    "0001-01-01T00:00:00+05:00",  # leaves the calendar when moved to UTC
    "1969-12-31T23:59:59Z",
    "1970-01-01T00:30:00+01:00",  # 1969 in UTC
    f"{LATEST + 1}-01-01T00:00:00Z",
    "9999-12-31T23:59:59-12:00",  # leaves the calendar when moved to UTC
]


@pytest.mark.parametrize("date", REFUSED_DATES)
def test_a_play_dated_outside_1970_to_50_years_ahead_is_refused_naming_it(app, date):
    client = app.test_client()
    good = _play("good-play-00001", "2026-11-20T19:02:00Z")
    answer = client.post(
        "/api/v1/plays/import", json=_file(good, _play("dated-play-0002", "2026-11-20T19:00:00Z", date))
    )
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {
        "code": "bad_play_date",
        "message": f"Play number 2 of the file is dated {date}: Castellan keeps plays from 1970 to {LATEST}.",
        "field": "plays.1.finished",
    }
    assert _plays(app) == []


def test_the_first_moment_of_1970_and_the_last_of_50_years_ahead_are_kept(app):
    first = _play("first-play-0001", "1970-01-01T00:00:00Z")
    last = _play("last-play-00001", f"{LATEST}-12-31T23:59:59+00:00")
    answer = app.test_client().post("/api/v1/plays/import", json=_file(first, last))
    assert answer.get_json() == {"imported": 2, "skipped": 0, "plays": 2}
    assert {(play.started, play.finished) for play in _plays(app)} == {
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        (f"{LATEST}-12-31T23:59:59Z", f"{LATEST}-12-31T23:59:59Z"),
    }


def test_stored_times_have_one_width_whatever_the_year():
    from companion.store import base

    for year in (1, 999, 1970, 9999):
        moment = datetime(year, 6, 1, 12, 0, tzinfo=UTC)
        assert len(base.stamp(moment)) == 29
        assert base.utc(base.stamp(moment)) == f"{year:04d}-06-01T12:00:00Z"


def test_the_command_refuses_a_date_past_the_calendar_in_one_line(
    app, database, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    file = tmp_path / "plays.json"
    file.write_text(json.dumps(_file(_play("far-play-00001", "0001-01-01T00:00:00+05:00"))))
    assert castellan(["plays", "import", str(file)]) == 1
    err = capsys.readouterr().err
    assert err == (
        "castellan plays: Play number 1 of the file is dated 0001-01-01T00:00:00+05:00:"
        f" Castellan keeps plays from 1970 to {LATEST}.\n"
    )


# --- Every page of any stored play, in every zone --------------------------------------------------


def _store_directly(database: str, play_id: str, stamp: str) -> None:
    """A play written straight into the database, as an older Castellan could have kept it."""
    with db.connect(database) as conn, conn.begin():
        conn.execute(
            db.plays.insert().values(
                id=play_id,
                table_id=None,
                game="scorepad",
                started=stamp,
                finished=stamp,
                seconds=0,
                details=json.dumps({"rounds": [[1, 2]], "lowest_wins": False}),
                lowest_wins=False,
            )
        )
        player_id, other = find_or_add_player(conn, "Ola"), find_or_add_player(conn, "Kuba")
        conn.execute(
            db.play_players.insert(),
            [
                {
                    "play_id": play_id,
                    "position": 0,
                    "player_id": player_id,
                    "finished": stamp,
                    "team": None,
                    "score": 1,
                    "winner": False,
                },
                {
                    "play_id": play_id,
                    "position": 1,
                    "player_id": other,
                    "finished": stamp,
                    "team": None,
                    "score": 2,
                    "winner": True,
                },
            ],
        )


EDGE_STAMPS = {
    "year-one-play-0001": "0001-01-01T00:00:00.000+00:00",
    "year-nine-9999-001": "9999-12-31T23:59:59.999+00:00",
}


def test_every_page_and_export_of_plays_at_the_calendars_edges_answers_in_every_zone(app, database):
    client = app.test_client()
    imported = [
        _play("first-play-0001", "1970-01-01T00:00:00Z"),
        _play("last-play-00001", f"{LATEST}-12-31T23:59:59Z"),
    ]
    assert client.post("/api/v1/plays/import", json=_file(*imported)).status_code == 200
    for play_id, stamp in EDGE_STAMPS.items():
        _store_directly(database, play_id, stamp)
    with app.app_context():
        ola = store.find_player(get_db(), "Ola")["id"]
    pages = [
        "/history",
        "/history?player=Ola",
        "/history/game/scorepad",
        f"/players/{ola}",
        "/players",
        "/history/files",
        *[f"/history/{play_id}" for play_id in [*EDGE_STAMPS, "first-play-0001", "last-play-00001"]],
    ]
    for zone in ZONES:
        client.set_cookie("tz", zone)
        for page in pages:
            answer = client.get(page)
            assert answer.status_code == 200, (zone, page)
        listed = client.get("/api/v1/plays?limit=10").get_json()["plays"]
        assert {play["finished"] for play in listed} >= {"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}
        csv = client.get("/api/v1/plays.csv")
        assert csv.status_code == 200 and "0001-01-01T00:00:00Z" in csv.text
        bgstats = client.get("/api/v1/plays/bgstats.json", query_string={"tz": zone})
        assert bgstats.status_code == 200, zone
        dates = {play["playDate"] for play in bgstats.get_json()["plays"]}
        assert all(len(date) == 19 for date in dates), dates
        assert client.get("/api/v1/plays/export.json").status_code == 200
    assert "0001-01-01" in text(client.get("/history/year-one-play-0001"))


def test_the_servers_own_export_imports_again_once_an_old_unkept_play_is_deleted(
    app, database, tmp_path, monkeypatch, capsys
):
    client = app.test_client()
    kept = [
        _play("first-play-0001", "1970-01-01T00:00:00Z"),
        _play("last-play-00001", f"{LATEST}-12-31T23:59:59Z"),
    ]
    client.post("/api/v1/plays/import", json=_file(*kept))
    fresh = create_app({"DATABASE": str(tmp_path / "fresh.sqlite3"), "SECRET_KEY": "t", "TESTING": True})
    exported = client.get("/api/v1/plays/export.json").get_json()
    assert fresh.test_client().post("/api/v1/plays/import", json=exported).get_json()["imported"] == 2
    _store_directly(database, "year-one-play-0001", EDGE_STAMPS["year-one-play-0001"])
    exported = client.get("/api/v1/plays/export.json").get_json()
    refused = fresh.test_client().post("/api/v1/plays/import", json=exported)
    assert refused.get_json()["error"]["message"] == (
        f"Play number 1 of the file is dated 0001-01-01T00:00:00Z: Castellan keeps plays from 1970 to {LATEST}."
    )
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    assert castellan(["plays", "delete", "year-one-play-0001", "--yes"]) == 0
    assert "Deleted the scorepad play year-one-play-0001" in capsys.readouterr().out
    exported = client.get("/api/v1/plays/export.json").get_json()
    assert fresh.test_client().post("/api/v1/plays/import", json=exported).get_json() == {
        "imported": 0,
        "skipped": 2,
        "plays": 2,
    }


# --- Ids ------------------------------------------------------------------------------------------

ACCEPTED_IDS = [
    "0123456789",
    "a" * 64,
    "----------",
    "__________",
    "-_aZ09-_aZ09",
    "Imported_play-2026-11-20",
]
REFUSED_IDS = [
    '"><meta http-equiv=refresh content=0;url=https://evil.example>',
    "play with spaces",
    "play.id.with.dots",
    "play/slash/id",
    "zażółć-gęślą",
    "a" * 65,
    "short",
    "play\x00\x00\x00\x00\x00\x00",
]


def test_a_play_whose_id_is_not_letters_digits_hyphens_or_underscores_is_refused_naming_it(app):
    client = app.test_client()
    for play_id in REFUSED_IDS:
        answer = client.post(
            "/api/v1/plays/import",
            json=_file(
                _play("good-play-00001", "2026-11-20T19:02:00Z"), _play(play_id, "2026-11-20T19:02:00Z")
            ),
        )
        assert answer.status_code == 422, play_id
        assert answer.get_json()["error"] == {
            "code": "bad_play_id",
            "message": "Play number 2 of the file has an id Castellan cannot keep: an id is 10 to 64 letters A to Z, digits, hyphens and underscores.",
            "field": "plays.1.id",
        }
    assert _plays(app) == []


def test_every_id_shape_the_importer_takes_gives_a_play_page_with_its_chart(app):
    client = app.test_client()
    answer = client.post(
        "/api/v1/plays/import",
        json=_file(*[_play(play_id, "2026-11-20T19:02:00Z") for play_id in ACCEPTED_IDS]),
    )
    assert answer.get_json()["imported"] == len(ACCEPTED_IDS)
    for play_id in ACCEPTED_IDS:
        page = client.get(f"/history/{play_id}")
        assert page.status_code == 200, play_id
        assert f'<svg class="chart" id="play-chart-{play_id}" role="img"' in page.text


def test_a_charts_id_is_escaped_in_every_attribute():
    svg = charts.rounds_chart(
        'x"><meta http-equiv=refresh>', "Title", "Lines.", "Round", ["Ola"], [[1], [2]], str
    )
    assert "<meta" not in svg and 'id="x&quot;&gt;&lt;meta http-equiv=refresh&gt;"' in svg


# --- Bounds ----------------------------------------------------------------------------------------


def _bounded(database: str, **bounds) -> object:
    return create_app(
        {
            "DATABASE": database,
            "SECRET_KEY": "test",
            "TESTING": True,
            "IMPORTS_PER_MINUTE": 10_000,
            "IMPORT_BOUNDS": store.ImportBounds(**bounds),
        }
    )


def _many(count: int, start: int = 0, names: int = 2) -> list[dict]:
    found = []
    for number in range(start, start + count):
        play = _play(f"bulk-play-{number:08d}", "2026-11-20T19:02:00Z")
        play["players"] = [
            {"name": f"Player {number % names} of the club", "team": None, "score": 1, "winner": True}
        ]
        found.append(play)
    return found


def test_a_file_of_more_plays_or_new_players_than_one_file_may_adds_nothing(database):
    app = _bounded(database, plays_per_file=3, players_per_file=2)
    client = app.test_client()
    too_long = client.post("/api/v1/plays/import", json=_file(*_many(4)))
    assert too_long.status_code == 422
    assert too_long.get_json()["error"]["message"] == "This file has 4 plays; import at most 3 at a time."
    crowded = client.post("/api/v1/plays/import", json=_file(*_many(3, names=3)))
    assert crowded.status_code == 422
    assert crowded.get_json()["error"] == {
        "code": "too_many_new_players",
        "message": "This file would add 3 new players; one import adds at most 2.",
        "field": "plays",
    }
    assert _plays(app) == []
    with app.app_context(), store_plays.base.write(get_db()) as conn:
        find_or_add_player(conn, "Player 2 of the club")  # now only two of the three are new
    assert client.post("/api/v1/plays/import", json=_file(*_many(3, names=3))).get_json()["imported"] == 3


def test_an_address_imports_at_most_its_hours_plays_and_new_players(database):
    app = _bounded(database, plays_per_hour=5, players_per_hour=3)
    phone = Browser(app.test_client())
    assert phone.client.post("/api/v1/plays/import", json=_file(*_many(3))).get_json()["imported"] == 3
    over = phone.client.post("/api/v1/plays/import", json=_file(*_many(3, start=3)))
    assert over.status_code == 429 and int(over.headers["Retry-After"]) > 3000
    assert over.get_json()["error"] == {
        "code": "too_many_plays_this_hour",
        "message": "This file would add 3 plays, but this address may import only 2 more this hour (5 an hour). Try again later, or import a smaller file.",
        "field": "plays",
    }
    import io

    page = phone.post(
        "/history/files",
        data={"file": (io.BytesIO(json.dumps(_file(*_many(3, start=3))).encode()), "p.json")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 429 and "may import only 2 more this hour" in text(page)
    assert len(_plays(app)) == 3  # the refused files counted nothing: 2 more still fit
    assert (
        phone.client.post("/api/v1/plays/import", json=_file(*_many(2, start=3))).get_json()["imported"] == 2
    )
    players = phone.client.post("/api/v1/plays/import", json=_file(*_many(1, start=10, names=1)))
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # another address has its own hour
    assert (
        other.post("/api/v1/plays/import", json=_file(*_many(2, start=20, names=7))).get_json()["imported"]
        == 2
    )
    assert players.status_code == 429  # plays: 5 of 5 used


@pytest.mark.parametrize("value", ["0", "-1", "ten", "²"])
def test_a_bound_that_is_not_a_whole_number_of_one_or_more_stops_the_start_in_one_line(
    database, monkeypatch, value
):
    monkeypatch.setenv("CASTELLAN_IMPORT_PLAYERS_PER_HOUR", value)
    with pytest.raises(ValueError) as refused:
        create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})
    assert (
        str(refused.value)
        == f"CASTELLAN_IMPORT_PLAYERS_PER_HOUR must be a whole number of 1 or more, not {value!r}."
    )


def test_a_big_import_lets_a_move_on_another_table_in_between_its_chunks(app, monkeypatch):
    """The import writes a chunk at a time: between two, a move on another table is made and answered
    at once (in one transaction, the move would have waited for the whole file)."""
    monkeypatch.setattr(store_plays, "IMPORT_CHUNK", 20)
    with app.app_context():
        table, links = store.create_table(get_db(), scorepad, "scorepad", {"players": ["Ola", "Kuba"]}, "pad")
    referee = next(link for link in links if link.role == "referee")
    moves: list[tuple[int, int]] = []  # (plays here when the move was answered, its status)
    real_write = store_plays.base.write
    importer = threading.current_thread()
    writes = 0

    def write_and_move(conn):
        nonlocal writes
        if threading.current_thread() is importer:
            writes += 1
            if writes == 3:  # two chunks written, the lock free: a phone scores a round
                mover = threading.Thread(target=move)
                mover.start()
                mover.join()
        return real_write(conn)

    def move():
        answer = app.test_client().post(
            f"/api/v1/tables/{referee.token}/actions",
            json={"action": {"type": "round", "points": [3, 4]}, "version": table.version},
        )
        with app.app_context():
            here = store.count_plays(get_db())
        moves.append((here, answer.status_code))

    monkeypatch.setattr(store_plays.base, "write", write_and_move)
    with app.app_context():
        added = store.import_plays(get_db(), _many(100))
    assert added == 100
    assert moves == [(40, 200)]


def test_a_move_that_finds_the_database_locked_is_asked_again_later_never_a_500(app, monkeypatch):
    with app.app_context():
        table, links = store.create_table(get_db(), scorepad, "scorepad", {"players": ["Ola", "Kuba"]}, "pad")
    referee = next(link for link in links if link.role == "referee")

    def locked(*_args, **_kwargs):
        import sqlite3

        raise sa.exc.OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(store, "act", locked)
    answer = app.test_client().post(
        f"/api/v1/tables/{referee.token}/actions",
        json={"action": {"type": "round", "points": [3, 4]}, "version": table.version},
    )
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
    assert answer.get_json()["error"]["code"] == "busy"
    assert "busy" in answer.get_json()["error"]["message"]


# --- Players a page at a time ---------------------------------------------------------------------


def test_players_come_a_page_at_a_time_and_are_found_by_a_typed_name(app):
    with app.app_context():
        conn = get_db()
        with store_plays.base.write(conn):
            for number in range(250):
                find_or_add_player(conn, f"Member {number:03d}")
            find_or_add_player(conn, "Zofia Żółw")
    client = app.test_client()
    first = client.get("/players")
    assert "Member 099" in first.text and "Member 100" not in first.text
    assert first.text.count('class="hint"') <= 101
    second = client.get("/players?after=member 099")
    assert "Member 100" in second.text and "Member 099" not in second.text and "More players" in second.text
    found = client.get("/players?name=żółw")
    assert "Zofia Żółw" in found.text and "Member" not in text(found).split("Players")[-1]
    none = client.get("/players?name=nobody")
    assert "No player's name holds nobody." in text(none)
    with app.app_context():
        member = store.find_player(get_db(), "Member 000")["id"]
    page = client.get(f"/players/{member}")
    assert page.text.count("<option value=") == 51  # the first 50 others, and "Choose a player"
    assert "Only the first 50 names are listed" in text(page)
    typed = client.get(f"/players/{member}?other_name=zofia")
    assert typed.text.count("<option value=") == 2 and "Zofia Żółw" in typed.text


# --- Deleting a play ---------------------------------------------------------------------------------


def _finished_pad(app) -> tuple[str, str, Browser]:
    """A score pad played and finished by its referee's phone: (the play's id, the referee's token, the phone)."""
    phone = Browser(app.test_client())
    token = phone.create_table("scorepad", {"players": "Ola\nKuba"})
    with app.app_context():
        conn = get_db()
        link = store.find_link(conn, token)
        table = store.get_table(conn, link.table_id)
        table = store.act(
            conn, scorepad, table.id, "referee", {"type": "round", "points": [3, 4]}, table.version
        )
        store.finish(conn, scorepad, table.id, table.version)
        play = store.table_play(conn, table.id)
    return play.id, token, phone


def test_the_referee_deletes_the_play_after_confirming_and_the_log_says_so(app, caplog):
    play_id, token, referee = _finished_pad(app)
    page = referee.get(f"/history/{play_id}")
    assert f"/history/{play_id}/delete/{token}" in page.text
    stranger = Browser(app.test_client())
    assert "/delete/" not in stranger.get(f"/history/{play_id}").text
    assert stranger.get(f"/history/{play_id}/delete/not-the-referee-token").status_code == 404
    confirm = referee.get(f"/history/{play_id}/delete/{token}")
    assert confirm.status_code == 200 and "Delete this play?" in text(confirm)
    assert len(_plays(app)) == 1  # asking changes nothing
    with caplog.at_level(logging.WARNING, logger="castellan"):
        done = referee.post(f"/history/{play_id}/delete/{token}", data={})
    assert done.status_code == 303
    assert "The play is deleted from the history." in text(referee.get(done.headers["Location"]))
    assert _plays(app) == []
    assert (
        f"Play {play_id} (scorepad, ended" in caplog.text and "deleted by its table's referee" in caplog.text
    )
    assert referee.get(f"/history/{play_id}").status_code == 404


def test_a_viewer_cannot_delete_a_play(app):
    play_id, token, _phone = _finished_pad(app)
    with app.app_context():
        conn = get_db()
        viewer = next(
            link
            for link in store.table_links(conn, store.find_link(conn, token).table_id)
            if link.role == "viewer"
        )
    assert Browser(app.test_client()).get(f"/history/{play_id}/delete/{viewer.token}").status_code == 404


def test_the_owner_deletes_a_play_on_the_command_line_after_saying_yes(app, database, monkeypatch, capsys):
    play_id, _token, _phone = _finished_pad(app)
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    monkeypatch.setattr("builtins.input", lambda _question: "n")
    assert castellan(["plays", "delete", play_id]) == 1
    assert "Nothing was deleted." in capsys.readouterr().out and len(_plays(app)) == 1
    monkeypatch.setattr("builtins.input", lambda _question: "yes")
    assert castellan(["plays", "delete", play_id]) == 0
    assert capsys.readouterr().out.startswith(f"Deleted the scorepad play {play_id}, ended ")
    assert _plays(app) == []
    assert castellan(["plays", "delete", play_id, "--yes"]) == 1
    assert capsys.readouterr().err == f"castellan plays: there is no play {play_id!r} in {database}.\n"
