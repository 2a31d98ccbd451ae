"""Players and plays in the store: a table that ends becomes one play in the same transaction,
undo withdraws it, a private table never becomes one; players are names, renamed, merged and
forgotten at once; the history's filters, pages and statistics; an import adds each play once.
On SQLite and on a throwaway PostgreSQL server."""

from __future__ import annotations

import dataclasses
import random

import pytest
import sqlalchemy as sa

from companion import store
from companion.rules import castle, scorepad
from companion.rules.errors import RuleError
from companion.service import plays_export
from companion.store import backfill, base, db

pytestmark = pytest.mark.both_backends


@pytest.fixture
def conn(database):
    store.migrate(database)
    with db.connect(database) as connection:
        yield connection


def _pad(conn, names=("Ola", "Kuba"), rounds=((5, 3),), private=False, lowest_wins=False) -> store.Table:
    """A score pad with these rounds, finished by its referee."""
    table, _links = store.create_table(
        conn,
        scorepad,
        "scorepad",
        {"players": list(names), "lowest_wins": lowest_wins},
        ", ".join(names),
        private,
    )
    for points in rounds:
        table = store.act(
            conn, scorepad, table.id, "referee", {"type": "round", "points": list(points)}, table.version
        )
    return store.finish(conn, scorepad, table.id, table.version)


def test_a_finished_pad_is_one_play_with_its_scores_winners_and_rounds(conn):
    table = _pad(conn, rounds=((5, 3), (2, 7), (1, 1)))
    [play] = store.list_plays(conn)
    assert play.game == "scorepad" and store.count_plays(conn) == 1
    assert [(p.name, p.score, p.winner, p.team) for p in play.players] == [
        ("Ola", 8, False, None),
        ("Kuba", 11, True, None),
    ]
    assert play.details == {"rounds": [[5, 3], [2, 7], [1, 1]], "lowest_wins": False}
    assert play.started.endswith("Z") and play.finished.endswith("Z")
    assert play.started == store.utc(table.created_at) and play.started <= play.finished
    assert store.play(conn, play.id) == play == store.table_play(conn, table.id)


def test_undoing_the_finish_withdraws_the_play_and_finishing_again_brings_it_back_with_the_same_id(conn):
    table = _pad(conn)
    first = store.list_plays(conn)[0].id
    table = store.undo(conn, scorepad, table.id, table.version)
    assert store.list_plays(conn) == [] and store.count_plays(conn) == 0 and not table.finished
    assert store.table_play(conn, table.id) is None
    table = store.act(conn, scorepad, table.id, "referee", {"type": "round", "points": [0, 9]}, table.version)
    assert store.list_plays(conn) == []  # an open pad is no play
    store.finish(conn, scorepad, table.id, table.version)
    [again] = store.list_plays(conn)
    assert again.id == first and [p.score for p in again.players] == [5, 12]


def test_a_game_over_by_its_rules_is_a_play_from_its_last_move_and_undo_withdraws_it(conn):
    table, _ = store.create_table(
        conn, castle, "castle", {"players": 2, "dealer": "S", "names": {"N": "Ola", "S": "Kuba"}}
    )
    state = table.state
    rng = random.Random(5)
    while (move := castle.random_legal_action(state, rng)) is not None:
        assert store.list_plays(conn) == []
        table = store.act(conn, castle, table.id, move[0], move[1], table.version)
        state = table.state
    [play] = store.list_plays(conn)
    result = castle.result(state, False)
    assert [(p.name, p.score, p.winner) for p in play.players] == [
        (p["name"], p["score"], p["winner"]) for p in result["players"]
    ]
    assert [side["players"] for side in play.details["sides"]] == [[0], [1]]
    store.undo(conn, castle, table.id, table.version)
    assert store.list_plays(conn) == []


def test_a_private_table_never_becomes_a_play_but_its_names_are_remembered(conn):
    table = _pad(conn, names=("Zosia", "Kuba"), private=True)
    assert table.finished and store.get_table(conn, table.id).private
    assert store.list_plays(conn) == [] and store.count_plays(conn) == 0
    assert "Zosia" in store.player_names(conn)


def test_names_typed_at_a_start_are_offered_most_played_first_by_prefix_in_any_case(conn):
    store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Oskar", "Kuba"]})
    _pad(conn, names=("Oskar", "ola"))
    _pad(conn, names=("OSKAR", "Ada"))
    assert store.player_names(conn, "o") == ["Oskar", "Ola"]  # Oskar played twice, Ola once
    assert store.player_names(conn, " OL") == ["Ola"]
    assert store.player_names(conn, "", limit=2) == ["Oskar", "Ada"]
    assert store.player_names(conn, "%") == [] and store.player_names(conn, "_") == []
    by_name = {p["name"]: p["plays"] for p in store.players(conn)}
    assert by_name == {"Ola": 1, "Oskar": 2, "Kuba": 0, "Ada": 1}


def test_default_names_are_players_in_plays_but_never_offered(conn):
    table, _ = store.create_table(
        conn, castle, "castle", {"players": 2, "dealer": "S", "names": {"N": "Ola"}}
    )
    assert store.player_names(conn) == ["Ola"]
    assert "South" not in store.player_names(conn)


def test_renaming_changes_every_play_at_once_and_a_taken_name_asks_for_a_merge(conn):
    _pad(conn, names=("Ola", "Kuba"))
    _pad(conn, names=("ola", "Ada"))
    ola = store.find_player(conn, "OLA")
    assert ola["plays"] == 2 and store.find_player(conn, str(ola["id"])) == ola
    store.rename_player(conn, ola["id"], "Aleksandra")
    assert [p.players[0].name for p in store.list_plays(conn)] == ["Aleksandra", "Aleksandra"]
    assert store.player_names(conn, "ol") == []
    store.rename_player(conn, ola["id"], "aleksandra")  # the same key: just a new spelling
    assert store.player(conn, ola["id"])["name"] == "aleksandra"
    with pytest.raises(RuleError) as taken:
        store.rename_player(conn, ola["id"], " KUBA ")
    assert taken.value.message == (
        "Another player is already called Kuba: if aleksandra and Kuba are the same person, merge them instead."
    )
    with pytest.raises(RuleError):
        store.rename_player(conn, ola["id"], "   ")
    with pytest.raises(RuleError):
        store.rename_player(conn, 99999, "Nobody")


def test_merging_moves_every_play_and_the_duplicate_goes(conn):
    _pad(conn, names=("Ola", "Kuba"))
    _pad(conn, names=("Aleksandra", "Kuba"))
    ola, alek = store.find_player(conn, "Ola"), store.find_player(conn, "Aleksandra")
    kept = store.merge_players(conn, ola["id"], alek["id"])
    assert kept == {"id": ola["id"], "name": "Ola", "plays": 2}
    assert store.player(conn, alek["id"]) is None and store.find_player(conn, "Aleksandra") is None
    assert store.count_plays(conn, player="Ola") == 2 and store.count_plays(conn, player=alek["id"]) == 0
    with pytest.raises(RuleError):
        store.merge_players(conn, ola["id"], ola["id"])


def test_forgetting_replaces_the_name_in_every_play_with_a_new_player_number_at_once(conn):
    store.create_table(conn, scorepad, "scorepad", {"players": ["Player 1", "Kuba"]})
    _pad(conn, names=("Ola", "Kuba"))
    _pad(conn, names=("Ewa", "Ola"))
    ola = store.find_player(conn, "Ola")
    forgotten = store.forget_player(conn, ola["id"])
    assert forgotten["name"] == "Player 2"  # "Player 1" is someone's name already
    names = [[p.name for p in play.players] for play in store.list_plays(conn)]
    assert names == [["Ewa", "Player 2"], ["Player 2", "Kuba"]]
    assert store.find_player(conn, "Ola") is None and "Player 2" not in store.player_names(conn)
    assert store.forget_player(conn, store.find_player(conn, "Ewa")["id"])["name"] == "Player 3"


def test_filters_by_game_and_player_and_pages_newest_first(conn, monkeypatch):
    # A clock a second apart at each reading: two pads finished within the same millisecond would be
    # ordered by their plays' ids (as the store pages them), not by the order they were played here.
    readings = iter(range(3_600))

    def ticking() -> str:
        second = next(readings)
        return f"2026-11-23T20:{second // 60:02d}:{second % 60:02d}.000+00:00"

    monkeypatch.setattr(base, "now", ticking)
    for number in range(7):
        _pad(conn, names=("Ola", f"P{number}"), rounds=((number, 0),))
    _pad(conn, names=("Kuba", "Ada"))
    newest = store.list_plays(conn)
    assert len(newest) == 8 and [p.players[0].name for p in newest[:2]] == ["Kuba", "Ola"]
    assert [p.finished for p in newest] == sorted((p.finished for p in newest), reverse=True)
    ola = store.list_plays(conn, player="ola", limit=3)
    assert [p.players[1].name for p in ola] == ["P6", "P5", "P4"]
    rest = store.list_plays(conn, player="Ola", limit=10, before=ola[-1].id)
    assert [p.players[1].name for p in rest] == ["P3", "P2", "P1", "P0"]
    assert (
        store.count_plays(conn, player="Ola") == 7
        and store.count_plays(conn, game="scorepad", player="Ada") == 1
    )
    assert store.list_plays(conn, game="castle") == [] and store.count_plays(conn, game="castle") == 0
    assert (
        store.list_plays(conn, player="Nobody") == []
        and store.list_plays(conn, before="no-such-play-id") == []
    )
    assert store.play(conn, "no-such-play-id") is None


def test_a_players_and_a_games_statistics(conn):
    _pad(conn, names=("Ola", "Kuba"), rounds=((5, 3),))  # Ola wins 5-3
    _pad(conn, names=("Ola", "Kuba"), rounds=((1, 9),))  # Kuba wins
    _pad(conn, names=("Ola", "Ada"), rounds=((7, 2),))  # Ola wins 7-2
    ola = store.find_player(conn, "Ola")
    stats = store.player_stats(conn, ola["id"])
    assert (stats["plays"], stats["wins"], stats["win_rate"]) == (3, 2, 2 / 3)
    assert stats["games"] == [
        {
            "game": "scorepad",
            "lowest_wins": False,
            "plays": 3,
            "wins": 2,
            "win_rate": 2 / 3,
            "average_score": 13 / 3,
            "best_score": 7,
        }
    ]
    assert [(o["name"], o["plays"]) for o in stats["opponents"]] == [("Kuba", 2), ("Ada", 1)]
    game = store.game_stats(conn, "scorepad")
    assert game["plays"] == 3 and game["average_seconds"] >= 0
    assert [(w["name"], w["wins"], w["plays"]) for w in game["winners"]] == [("Ola", 2, 3), ("Kuba", 1, 2)]
    assert store.game_stats(conn, "castle") == {"plays": 0, "winners": [], "average_seconds": None}
    assert store.player_stats(conn, 99999)["plays"] == 0


def test_an_import_adds_each_play_once_and_refuses_a_broken_file_whole(conn):
    _pad(conn, names=("Ola", "Kuba"))
    exported = plays_export.castellan_document(store.list_plays(conn))["plays"]
    moved = {
        "id": "from-another-server-1",
        "game": "castle",
        "started": "2026-11-20T19:00:00Z",
        "finished": "2026-11-20T19:40:00Z",
        "details": {"sides": []},
        "players": [
            {"name": "Ewa", "score": 12, "winner": True, "team": "NS"},
            {"name": "ola", "score": 7, "winner": False, "team": "EW"},
        ],
    }
    assert store.import_plays(conn, [*exported, moved]) == 1
    assert store.import_plays(conn, [*exported, moved]) == 0
    got = store.play(conn, "from-another-server-1")
    assert (got.id, got.game, got.started, got.finished, got.details) == (
        moved["id"],
        moved["game"],
        moved["started"],
        moved["finished"],
        moved["details"],
    )
    assert [(p.name, p.score, p.winner, p.team) for p in got.players] == [
        ("Ewa", 12, True, "NS"),
        ("Ola", 7, False, "EW"),  # the same player as here's Ola
    ]
    assert store.count_plays(conn, player="Ola") == 2
    broken = {**moved, "id": "from-another-server-2", "players": [{"name": "", "score": 1}]}
    with pytest.raises(RuleError) as refused:
        store.import_plays(conn, [{**moved, "id": "from-another-server-3"}, broken])
    assert refused.value.message == "Play number 2 of the file is not a Castellan play."
    assert store.play(conn, "from-another-server-3") is None


def test_the_tables_that_ended_before_plays_were_kept_become_plays_on_upgrade(conn):
    from companion.store.db import play_players, players, plays

    pad = _pad(conn, names=("Ola", "Kuba"), rounds=((5, 3),))
    _pad(conn, names=("Zosia", "Ewa"), private=True)
    store.create_table(conn, scorepad, "scorepad", {"players": ["Jan", "Ada"]})  # still open
    before = store.list_plays(conn)
    conn.rollback()
    with conn.begin():  # as before migration 0009: no play, no player
        for table in (play_players, plays, players):
            conn.execute(table.delete())
    with conn.begin():
        assert backfill.record_past_plays(conn, {"scorepad": scorepad}.get) == 1
    [play] = store.list_plays(conn)
    assert dataclasses.replace(play, players=(), finished="") == dataclasses.replace(
        before[0], players=(), finished=""
    )
    assert play.finished == store.utc(store.get_table(conn, pad.id).finished_at)
    assert [(p.name, p.score, p.winner) for p in play.players] == [
        ("Ola", 5, True),
        ("Kuba", 3, False),
    ]
    assert store.player_names(conn) == ["Kuba", "Ola", "Ada", "Ewa", "Jan", "Zosia"]


def test_a_best_score_follows_each_plays_direction_and_never_mixes_the_two(conn):
    _pad(conn, names=("Ola", "Kuba"), rounds=((5, 3),))  # highest wins: Ola's 5 is her best
    _pad(conn, names=("Ola", "Kuba"), rounds=((9, 3),))
    _pad(
        conn, names=("Ola", "Kuba"), rounds=((12, 30),), lowest_wins=True
    )  # lowest wins: Ola's 4 is her best
    _pad(conn, names=("Ola", "Kuba"), rounds=((4, 2),), lowest_wins=True)
    stats = store.player_stats(conn, store.find_player(conn, "Ola")["id"])
    assert (stats["plays"], stats["wins"]) == (4, 3)
    assert stats["games"] == [
        {
            "game": "scorepad",
            "lowest_wins": False,
            "plays": 2,
            "wins": 2,
            "win_rate": 1.0,
            "average_score": 7.0,
            "best_score": 9,
        },
        {
            "game": "scorepad",
            "lowest_wins": True,
            "plays": 2,
            "wins": 1,
            "win_rate": 0.5,
            "average_score": 8.0,
            "best_score": 4,
        },
    ]
    kuba = store.player_stats(conn, store.find_player(conn, "Kuba")["id"])
    assert [(row["lowest_wins"], row["best_score"]) for row in kuba["games"]] == [(False, 3), (True, 2)]


def test_an_imported_play_keeps_its_direction_from_its_details(conn):
    low = {"rounds": [[30, 12]], "lowest_wins": True}
    store.import_plays(
        conn,
        [
            {
                "id": "imported-low-pad-1",
                "game": "scorepad",
                "started": "2026-11-20T19:00:00Z",
                "finished": "2026-11-20T19:40:00Z",
                "details": low,
                "players": [
                    {"name": "Ola", "score": 30, "winner": False, "team": None},
                    {"name": "Kuba", "score": 12, "winner": True, "team": None},
                ],
            }
        ],
    )
    kuba = store.player_stats(conn, store.find_player(conn, "Kuba")["id"])
    assert [(row["lowest_wins"], row["best_score"]) for row in kuba["games"]] == [(True, 12)]
    assert store.play(conn, "imported-low-pad-1").details == low  # the API's play is as it was


def test_a_players_days_are_counted_from_the_readers_midnight(conn):
    from zoneinfo import ZoneInfo

    def play(number: int, finished: str, won: bool) -> dict:
        return {
            "id": f"late-play-{number}",
            "game": "scorepad",
            "started": finished,
            "finished": finished,
            "details": {},
            "players": [{"name": "Ola", "score": 1, "winner": won, "team": None}],
        }

    store.import_plays(
        conn,
        [
            play(1, "2026-10-01T21:30:00Z", True),  # Warsaw (UTC+2): 23:30 on the 1st
            play(2, "2026-10-01T22:30:00Z", True),  # Warsaw: 00:30 on the 2nd, past midnight
            play(3, "2026-10-02T00:30:00Z", False),  # New York (UTC-4): 20:30 on the 1st
        ],
    )
    ola = store.find_player(conn, "Ola")["id"]
    assert store.player_days(conn, ola) == [("2026-10-01", 2, 2), ("2026-10-02", 1, 0)]  # UTC
    assert store.player_days(conn, ola, ZoneInfo("Europe/Warsaw")) == [
        ("2026-10-01", 1, 1),
        ("2026-10-02", 2, 1),
    ]
    assert store.player_days(conn, ola, ZoneInfo("America/New_York")) == [("2026-10-01", 3, 2)]
    assert store.player_days(conn, ola, ZoneInfo("Asia/Kolkata")) == [
        ("2026-10-02", 3, 2)
    ]  # UTC+5:30: 03:00 on


def test_rematch_twice_gives_the_same_new_table(conn):
    table = _pad(conn, names=("Ola", "Kuba"), private=True)
    options = scorepad.rematch_options(table.options, table.state)
    first, made = store.rematch(conn, scorepad, table.id, options, "Ola, Kuba")
    again, made_again = store.rematch(conn, scorepad, table.id, options, "Ola, Kuba")
    assert made and not made_again and again == first and first.role == "referee"
    new = store.get_table(conn, first.table_id)
    assert new.id != table.id and new.options == table.options and new.private and not new.finished


def test_rematch_tapped_on_several_phones_at_once_makes_one_table(conn, database):
    import threading

    table = _pad(conn, names=("Ola", "Kuba"))
    options = scorepad.rematch_options(table.options, table.state)
    conn.rollback()
    answers, start = [], threading.Barrier(6)

    def tap():
        with db.connect(database) as own:
            start.wait()
            answers.append(store.rematch(own, scorepad, table.id, options, "Ola, Kuba"))

    phones = [threading.Thread(target=tap) for _ in range(6)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert len(answers) == 6 and len({link.token for link, _made in answers}) == 1
    assert sorted(made for _link, made in answers) == [False] * 5 + [True]
    count = conn.execute(sa.select(sa.func.count()).select_from(db.tables)).scalar()
    assert count == 2  # the finished table and its one rematch
