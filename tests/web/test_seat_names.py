"""Seats nobody named (issue 17): stored under their English default names ("Player 2"), shown on
each game's pages, in table titles and in the history in the reader's language; a typed name
stays as typed, and the API and the export keep the stored English name."""

from __future__ import annotations

import re

import pytest

from companion import store
from companion.http.context import registry
from companion.store import db
from tests.conftest import text

PLAYER_2 = {"en": "Player 2", "fr": "Joueur 2", "pl": "Gracz 2"}


def _words(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page))


def _page(browser, token: str, lang: str) -> str:
    return _words(text(browser.get(f"/t/{token}", headers={"Accept-Language": lang})))


def _api(browser, token: str) -> dict:
    return browser.client.get(f"/api/v1/tables/{token}", headers={"Accept-Language": "fr"}).get_json()


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", ["Fort Ann, Player 2 and Player 3", "Player 2 Army 0", "Player 3, card 1", "Ann, card 1"]),
        ("fr", ["Fort Ann, Joueur 2 et Joueur 3", "Joueur 2 Armée 0", "Joueur 3, carte 1", "Ann, carte 1"]),
        ("pl", ["Fort Ann, Gracz 2 i Gracz 3", "Gracz 2 Armia 0", "Gracz 3, karta 1", "Ann, karta 1"]),
    ],
)
def test_forts_unnamed_players_in_the_pages_language(browser, lang, said):
    token = browser.create_table("fort", {"players": "3", "name_1": "Ann"})
    page = _page(browser, token, lang)
    assert [words for words in said if words not in page] == []
    if lang != "en":
        assert "Player 2" not in page and "Player 3" not in page
    assert [player["name"] for player in _api(browser, token)["view"]["players"]] == [
        "Ann",
        "Player 2",
        "Player 3",
    ]
    export = browser.get(f"/t/{token}/export.json", headers={"Accept-Language": lang}).get_json()
    assert export["title"] == "Ann, Player 2 and Player 3"


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", ["Square Tactics Ola v Player 2", "Player 2 N, Dragonspire Roost", "Enter Player 2's hand"]),
        ("fr", ["Square Tactics Ola contre Joueur 2", "Joueur 2 N, Dragonspire Roost", "Joueur 2 (N)"]),
        ("pl", ["Square Tactics Ola – Gracz 2", "Gracz 2 N, Dragonspire Roost", "Gracz 2 (N)"]),
    ],
)
def test_tactics_unnamed_player_in_the_pages_language(browser, lang, said):
    token = browser.create_table(
        "tactics", {"players": "2", "faction_p1": "wardens", "faction_p2": "roost", "name_p1": "Ola"}
    )
    page = _page(browser, token, lang)
    assert [words for words in said if words not in page] == []
    assert "Ola" in page
    if lang != "en":
        assert "Player 2" not in page
    assert [player["name"] for player in _api(browser, token)["view"]["players"]] == ["Ola", "Player 2"]


@pytest.mark.parametrize(
    "lang, title",
    [
        ("en", "Player A v Kuba"),
        ("fr", "Joueur A contre Kuba"),
        ("pl", "Gracz A – Kuba"),
    ],
)
def test_forteresse_title_in_the_pages_language(browser, lang, title):
    token = browser.create_table("forteresse", {"mode": "paper", "first": "a", "name_b": "Kuba"})
    assert f"Forteresse {title} " in _page(browser, token, lang)
    assert f"{title} " in _words(text(browser.get("/", headers={"Accept-Language": lang})))


@pytest.mark.parametrize(
    "lang, title",
    [
        ("en", "Ola & South v East & West"),
        ("fr", "Ola & Sud contre Est & Ouest"),
        ("pl", "Ola & Południe – Wschód & Zachód"),
    ],
)
def test_castles_title_in_the_pages_language(browser, lang, title):
    token = browser.create_table("castle", {"players": "4", "dealer": "N", "name_N": "Ola"})
    assert f" {title} " in _page(browser, token, lang)
    for path in ("history", "replay"):
        assert f": {title} " in _words(
            text(browser.get(f"/t/{token}/{path}", headers={"Accept-Language": lang}))
        )


@pytest.mark.parametrize(
    "lang, title",
    [
        ("en", "Ola v Kuba, extended"),
        ("fr", "Ola contre Kuba, jeu avancé"),
        ("pl", "Ola – Kuba, wariant rozszerzony"),
    ],
)
def test_zameks_title_in_the_pages_language(browser, lang, title):
    token = browser.create_table("zamek", {"variant": "extended", "players": ["Ola", "Kuba"]})
    assert f"Zamek {title} " in _page(browser, token, lang)
    assert browser.get(f"/t/{token}/export.json").get_json()["title"] == "Ola v Kuba, extended"


def test_a_title_castellan_did_not_make_is_shown_as_stored(app):
    options = {"names": ["Ann", "Player 2"]}
    with app.test_request_context("/", headers={"Accept-Language": "pl"}):
        fort = registry().games["fort"]
        assert fort.said_title("Ann and Player 2", options) == "Ann i Gracz 2"
        assert fort.said_title("Ann et Joueur 2", options) == "Ann i Gracz 2"  # made on a French phone before
        assert fort.said_title("Ann and Bob", options) == "Ann and Bob"  # not what these options make
        assert fort.said_title("Friday's game", options) == "Friday's game"
        assert fort.said_title("", options) == ""


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_score_pad_leader_and_columns_by_the_readers_words(browser, lang):
    token = browser.create_table("scorepad", {"players": "Ola\nPlayer 2"})
    browser.post(f"/t/{token}/act", {"version": "0", "points": ["1", "5"]})
    page = _page(browser, token, lang)
    assert f"Ola {PLAYER_2[lang]}" in page  # the columns
    assert f": {PLAYER_2[lang]}" in page  # the leader
    assert _api(browser, token)["view"]["players"] == ["Ola", "Player 2"]


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", {"list": "Player 1 5", "play": "Round Player 1 Kuba"}),
        ("fr", {"list": "Joueur 1 5", "play": "Manche Joueur 1 Kuba"}),
        ("pl", {"list": "Gracz 1 5", "play": "Runda Gracz 1 Kuba"}),
    ],
)
def test_a_forgotten_player_in_the_history_in_the_readers_words(app, browser, lang, said):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    assert browser.post(f"/t/{token}/act", {"version": "0", "points": ["5", "3"]}).status_code == 303
    assert browser.post(f"/t/{token}/finish", {"version": "1"}).status_code == 303
    with db.connect(app.config["DATABASE"]) as conn:
        ola = store.find_player(conn, "Ola")["id"]
        play = store.list_plays(conn)[0].id
    browser.get(f"/language/{lang}?next=/")
    response = browser.post(f"/players/{ola}/forget")
    player_page = _words(text(browser.get(response.headers["Location"])))
    assert f"{PLAYER_2[lang][:-1]}1" in player_page  # its heading, and the flash that says what it is now
    if lang != "en":
        assert "Player 1" not in player_page
    assert "player=Player+1" in text(browser.get(f"/players/{ola}"))  # the filter finds the stored name
    history = re.sub(r"<[^>]+>", "", text(browser.get("/history")))  # the play's line as it reads
    assert said["list"] in history
    assert said["play"] in _words(text(browser.get(f"/history/{play}")))
