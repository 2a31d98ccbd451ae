"""Ratings and rivals on the pages, in the API and in Castellan's export: a player's ratings and
streaks and rivals, a game's ranking from the N-th play on, each seat's rating after each play."""

from __future__ import annotations

import json
import re

from companion import store
from companion.service import ratings
from companion.store import db
from tests.conftest import text
from tests.service.test_ratings import _evening, _play


def _import(app, plays: list[dict]) -> None:
    with db.connect(app.config["DATABASE"]) as conn:
        store.import_plays(conn, plays)


def _id(app, name: str) -> int:
    with db.connect(app.config["DATABASE"]) as conn:
        return store.find_player(conn, name)["id"]


def _words(html: str) -> str:
    inline = re.sub(r"</?(a|strong|span)\b[^>]*>", "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", inline).split())


def test_a_players_page_shows_ratings_trend_streaks_and_rivals(app, browser):
    wins = [("Ola", 30, True), ("Kuba", 20, False)]
    losses = [("Ola", 20, False), ("Kuba", 30, True)]
    _import(
        app,
        [_play(n, "castle", wins if n != 3 else losses) for n in range(1, 6)]
        + [_play(6, "zamek", [("Ewa", 9, True), ("Ola", 3, False)])],
    )
    page = text(browser.get(f"/players/{_id(app, 'Ola')}"))
    words = _words(page)
    with db.connect(app.config["DATABASE"]) as conn:
        castle = ratings.ledger(conn).ratings["castle"][_id(app, "Ola")]
    assert f"{castle.mu:.1f} ± {castle.sigma:.1f} after 5 plays." in words
    svg = re.search(r'<svg class="chart" id="rating-chart-castle".*?</svg>', page, re.S).group(0)
    assert "Castle: rating after each play" in svg and 'data-name="Rating"' in svg
    trend = re.findall(r'<tr><th scope="row">(\d+)</th><td>([\d.]+)</td>', page)
    assert [play for play, _mu in trend] == ["1", "2", "3", "4", "5"] and trend[-1][1] == f"{castle.mu:.1f}"
    assert "Longest streak 2 plays won in a row Current streak 0 plays won in a row" in words
    assert "Nemesis: Kuba, who won 1 play that Ola lost." in words  # as Ewa did, but Kuba met Ola more
    assert "Beaten most: Kuba, in 4 plays Ola won." in words
    assert "Kuba Plays against each other 5 Won by Ola 4 Won by Kuba 1" in words
    assert "Ewa Plays against each other 1 Won by Ola 0 Won by Ewa 1" in words


def test_a_games_page_ranks_its_players_with_enough_plays_by_rating(app, browser):
    _import(app, _evening())
    page = text(browser.get("/history/game/castle"))
    ranked = re.findall(
        r'<li><a href="/players/(\d+)">(\w+)</a>', page.split('id="ranking"')[1].split("</ol>")[0]
    )
    with db.connect(app.config["DATABASE"]) as conn:
        expected = ratings.ledger(conn).ranking("castle")
        plays = {entry["id"]: store.player(conn, entry["id"])["plays"] for entry in store.players(conn)}
    assert [int(player) for player, _name in ranked] == [player for player, _rating in expected]
    assert all(rating.plays >= ratings.RANKED_PLAYS for _player, rating in expected) and len(ranked) >= 3
    assert f"Players with at least {ratings.RANKED_PLAYS} plays of this game" in page
    assert plays  # every ranked name links to its player
    empty = _words(text(browser.get("/history/game/tactics")))
    assert "No play of Square Tactics yet" in empty


def test_a_game_with_too_few_plays_says_nobody_is_ranked_yet(app, browser):
    _import(app, [_play(1, "fort", [("Ola", None, True), ("Kuba", None, False)])])
    page = _words(text(browser.get("/history/game/fort")))
    assert f"Nobody is ranked yet: a player needs {ratings.RANKED_PLAYS} plays of this game." in page


def test_pages_say_ratings_in_french_and_polish(app, browser):
    _import(app, _evening())
    ola = _id(app, "Ola")
    french = _words(text(browser.get(f"/players/{ola}", headers={"Accept-Language": "fr"})))
    polish = _words(text(browser.get(f"/players/{ola}", headers={"Accept-Language": "pl"})))
    assert "Cotes" in french and "Séries de victoires" in french and "Face à face" in french
    assert "Rankingi" in polish and "Serie zwycięstw" in polish and "Pojedynki" in polish
    assert re.search(r"\d+,\d ± \d+,\d", french) and re.search(r"\d+,\d ± \d+,\d", polish)


def test_the_api_gives_each_seat_its_rating_after_the_play(app, browser):
    _import(app, _evening())
    plays = browser.get("/api/v1/plays?limit=100").get_json()["plays"]
    with db.connect(app.config["DATABASE"]) as conn:
        after = ratings.ledger(conn).after
    castle = next(play for play in plays if play["id"] == "rated-play-0030")
    for position, seat in enumerate(castle["players"]):
        mu, sigma = after["rated-play-0030"][position]
        assert seat["rating"] == {"mu": round(mu, 4), "sigma": round(sigma, 4)}
    solo = next(play for play in plays if play["id"] == "rated-play-0005")
    assert solo["players"][0]["rating"] is None
    schema = browser.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["Play"]
    assert "rating" in schema["properties"]["players"]["items"]["properties"]


def test_the_export_carries_the_ratings_and_a_server_importing_it_computes_the_same(app, browser, tmp_path):
    _import(app, _evening())
    exported = browser.get("/api/v1/plays/export.json").get_json()
    seat = exported["plays"][-1]["players"][0]
    assert set(seat) == {"name", "team", "score", "winner", "rating"} and seat["rating"]["sigma"] > 0
    other = str(tmp_path / "other.sqlite3")
    store.migrate(other)
    with db.connect(other) as conn:
        from companion.service import plays_export

        plays_export.import_document(
            conn, json.loads(json.dumps(exported)), {"castle", "zamek", "fort", "scorepad"}
        )
        again = plays_export.castellan_document(plays_export.every_play(conn))
        ratings.with_ratings(conn, again["plays"])
    assert again == exported
