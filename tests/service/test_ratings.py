"""Ratings and rivals (service/ratings.py): recomputed from the plays in the order they ended, so the
same plays give the same ratings whatever order they were imported in, after a merge of two names
and after an undo; sides and places as the rules and the scores say; computed once per change."""

from __future__ import annotations

import random

import pytest

from companion import store
from companion.service import ratings
from companion.store import db
from companion.store.results import Result
from tests.conftest import fresh_database


def _play(number: int, game: str, seats: list[tuple], details: dict | None = None) -> dict:
    """An exported play: ``seats`` are (name, score, won) or (name, score, won, team)."""
    day = 1 + number // 10
    return {
        "id": f"rated-play-{number:04d}",
        "game": game,
        "started": f"2026-10-{day:02d}T{10 + number % 10:02d}:00:00Z",
        "finished": f"2026-10-{day:02d}T{10 + number % 10:02d}:30:00Z",
        "players": [
            {"name": seat[0], "score": seat[1], "winner": seat[2], "team": seat[3] if len(seat) > 3 else None}
            for seat in seats
        ],
        "details": details or {},
    }


def _evening(aleksandra: str = "Aleksandra") -> list[dict]:
    """Plays of every shape: pairs at Castle, three at Zamek, Fort without points, a score pad where
    the lowest total wins, a solo score pad (rates nobody), two plays ending at the same moment."""
    plays = [
        _play(
            1,
            "castle",
            [
                ("Ola", 30, True, "ns"),
                ("Kuba", 24, False, "ew"),
                ("Ewa", 30, True, "ns"),
                ("Jan", 24, False, "ew"),
            ],
        ),
        _play(2, "zamek", [("Kuba", 9, True), (aleksandra, 7, False), ("Ola", 3, False)]),
        _play(3, "fort", [("Jan", None, True), ("Ola", None, False), ("Ewa", None, False)]),
        _play(
            4,
            "scorepad",
            [(aleksandra, 12, True), ("Kuba", 30, False), ("Ewa", 18, False)],
            {"rounds": [], "lowest_wins": True},
        ),
        _play(5, "scorepad", [("Ola", 40, True)]),
        _play(6, "zamek", [("Ola", 8, True), (aleksandra, 8, False), ("Kuba", 2, False)]),
    ]
    for number in range(7, 31):  # a season of two-player Castle
        names = random.Random(number).sample(["Ola", "Kuba", "Ewa", "Jan", aleksandra], 2)
        plays.append(_play(number, "castle", [(names[0], 30, True), (names[1], 20, False)]))
    same_moment = dict(_play(31, "fort", [("Ewa", None, True), ("Jan", None, False)]))
    plays.append({**same_moment, "id": "rated-play-0000-same", "finished": plays[-1]["finished"]})
    return plays


def _by_name(conn) -> dict:
    """The ledger in names rather than ids (which depend on the order players were first seen)."""
    ledger = ratings.ledger(conn)
    names = {player["id"]: player["name"] for player in store.players(conn)}
    return {
        "ratings": {
            game: {names[player]: (round(r.mu, 9), round(r.sigma, 9), r.plays) for player, r in kept.items()}
            for game, kept in ledger.ratings.items()
        },
        "streaks": {name: ledger.streaks(player) for player, name in names.items()},
        "rivals": {
            name: sorted(
                (names[rival.player_id], rival.plays, rival.wins, rival.their_wins)
                for rival in ledger.rivals_of(player)
            )
            for player, name in names.items()
        },
        "after": {play: dict(seats) for play, seats in ledger.after.items()},
    }


@pytest.fixture
def second_database(request, tmp_path, database):
    """Another fresh database on the same backend as ``database``."""
    backend = "postgresql" if database.startswith("postgresql") else "sqlite"
    yield from fresh_database(request, tmp_path, backend, name="second")


@pytest.mark.both_backends
def test_the_same_plays_give_the_same_ratings_in_any_import_order(database, second_database):
    plays = _evening()
    shuffled = plays[:]
    random.Random(39).shuffle(shuffled)
    for path in (database, second_database):
        store.migrate(path)
    with db.connect(database) as conn:
        store.import_plays(conn, plays)
        expected = _by_name(conn)
    with db.connect(second_database) as conn:
        store.import_plays(conn, shuffled[:15])  # two imports, the newer plays partly first
        partial = _by_name(conn)
        store.import_plays(conn, shuffled[15:])
        assert _by_name(conn) == expected != partial
    assert expected["ratings"]["castle"]["Ola"][2] > 3


def test_a_merge_gives_the_ratings_the_plays_would_have_had_under_one_name(tmp_path):
    two_names, one_name = str(tmp_path / "two.sqlite3"), str(tmp_path / "one.sqlite3")
    for path in (two_names, one_name):
        store.migrate(path)
    with db.connect(two_names) as conn:
        store.import_plays(conn, _evening(aleksandra="Ola-2"))  # Ola under a second name...
        store.merge_players(
            conn, store.find_player(conn, "Ola")["id"], store.find_player(conn, "Ola-2")["id"]
        )
        after_merge = _by_name(conn)
    with db.connect(one_name) as conn:
        store.import_plays(conn, _evening(aleksandra="Ola"))  # ...and always under one
        assert _by_name(conn)["ratings"] == after_merge["ratings"]
        assert _by_name(conn)["streaks"] == after_merge["streaks"]
    # Zamek's plays 2 and 6 seat Ola twice once merged: she plays once, at her first (best) seat.
    assert after_merge["ratings"]["zamek"]["Ola"][2] == 2


def test_an_undo_takes_the_play_back_out_of_the_ratings(app, browser):
    with db.connect(app.config["DATABASE"]) as conn:
        store.import_plays(conn, _evening())
        before = _by_name(conn)
        kept = ratings.ledger(conn)
        assert ratings.ledger(conn) is kept  # nothing changed: nothing computed again
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.post(f"/t/{token}/act", {"version": "0", "points": ["5", "3"]})
    assert browser.post(f"/t/{token}/finish", {"version": "1"}).status_code == 303
    with db.connect(app.config["DATABASE"]) as conn:
        finished = _by_name(conn)
        assert "Ola" not in before["ratings"]["scorepad"] and finished["ratings"]["scorepad"]["Ola"][2] == 1
    assert browser.post(f"/t/{token}/undo", {"version": "2"}).status_code == 303
    with db.connect(app.config["DATABASE"]) as conn:
        assert _by_name(conn) == before


def test_a_merge_is_seen_at_once_though_no_play_was_added(tmp_path):
    path = str(tmp_path / "merge.sqlite3")
    store.migrate(path)
    with db.connect(path) as conn:
        store.import_plays(conn, _evening(aleksandra="Ola-2"))
        split = ratings.ledger(conn)
        ola, twin = store.find_player(conn, "Ola")["id"], store.find_player(conn, "Ola-2")["id"]
        store.merge_players(conn, ola, twin)
        joined = ratings.ledger(conn)
    assert joined is not split and twin in split.ratings["castle"] and twin not in joined.ratings["castle"]


def test_teammates_move_together_and_are_not_each_others_rivals(tmp_path):
    path = str(tmp_path / "teams.sqlite3")
    store.migrate(path)
    with db.connect(path) as conn:
        store.import_plays(conn, _evening()[:1])
        ledger = ratings.ledger(conn)
        ids = {name: store.find_player(conn, name)["id"] for name in ("Ola", "Ewa", "Kuba", "Jan")}
    castle = ledger.ratings["castle"]
    assert castle[ids["Ola"]] == castle[ids["Ewa"]] and castle[ids["Kuba"]] == castle[ids["Jan"]]
    assert castle[ids["Ola"]].mu > 25 > castle[ids["Kuba"]].mu
    assert {rival.player_id for rival in ledger.rivals_of(ids["Ola"])} == {ids["Kuba"], ids["Jan"]}
    assert ledger.nemesis(ids["Kuba"]).player_id in (ids["Ola"], ids["Ewa"])
    assert ledger.favourite_victim(ids["Kuba"]) is None


def test_places_follow_the_winners_then_the_scores_which_way_they_count(tmp_path):
    path = str(tmp_path / "places.sqlite3")
    store.migrate(path)
    with db.connect(path) as conn:
        store.import_plays(conn, [_evening()[3]])  # lowest wins: Aleksandra 12, Ewa 18, Kuba 30
        ledger = ratings.ledger(conn)
        mu = {
            name: ledger.ratings["scorepad"][store.find_player(conn, name)["id"]].mu
            for name in ("Aleksandra", "Ewa", "Kuba")
        }
        assert mu["Aleksandra"] > mu["Ewa"] > mu["Kuba"]
        store.import_plays(conn, [_evening()[4]])  # a play alone rates nobody and is no streak
        solo = store.find_player(conn, "Ola")["id"]
        assert solo not in ratings.ledger(conn).ratings["scorepad"] and ratings.ledger(conn).streaks(
            solo
        ) == (0, 0)


def test_streaks_count_plays_won_in_a_row_the_longest_and_the_current():
    def seat(play: int, player: int, won: bool) -> Result:
        return Result(f"p{play}", "fort", f"2026-10-{play:02d}", False, player - 1, player, None, None, won)

    wins = [True, True, False, True, True, True, False, True]
    results = [item for n, won in enumerate(wins, 1) for item in (seat(n, 1, won), seat(n, 2, not won))]
    ledger = ratings.compute(results)
    assert ledger.streaks(1) == (3, 1) and ledger.streaks(2) == (1, 0)
    assert ledger.nemesis(2).player_id == 1 and ledger.nemesis(2).lost == 6
