"""Forteresse in French and Polish (issue 17): its pages in the game's own French words (murs,
assiégés, cases de tir, manche), a refusal of its rules through a page and through the API (the
code stays English), a table played in Polish and its move log read in French."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest

from tests.conftest import pages_say_in, text
from tests.web.test_forteresse import OLA, _act, _drawn, _marks, _table

NB = "\u00a0"
FORTRESS = {"walls": " ".join(OLA["walls"]), "besieged": " ".join(OLA["besieged"])}
USED_TWICE = {
    **FORTRESS,
    "shots": "A2-E-cannon",
    "do": "fire",
    "from": "A2",
    "direction": "E",
    "weapon": "rifle",
}
REFUSED = {
    "en": "A2 has already been fired from this round: each firing cell serves once.",
    "fr": f"On a déjà tiré depuis A2 dans cette manche{NB}: chaque case de tir ne sert qu'une fois.",
    "pl": "Z A2 już strzelano w tej rundzie: z każdego pola strzału strzela się raz.",
}


def _words(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page)).replace(" .", ".").replace(" ,", ",")


@pytest.mark.parametrize(
    "lang, pages",
    [
        (
            "fr",
            {
                "/forteresse/": [
                    "Un siège au crayon et papier",
                    "2 joueurs",
                    "Ouvrir une table",
                    "Juge des tirs",
                    "Qui tire le premier à la manche 1",
                    "Joueur A",
                ],
                "/forteresse/resolver": [
                    "Forteresse" + NB + ": juge des tirs",
                    "Commencer à tirer",
                    "10 murs et 5 assiégés",
                ],
                "/forteresse/score": [
                    "Forteresse" + NB + ": feuille de marque",
                    "Compter les points",
                    "Joueur B",
                    "laissez vide pour compter une seule manche",
                ],
                "/forteresse/help": [
                    "Comment jouer à Forteresse",
                    "Avant une manche",
                    "les cases de tir",
                    "Un canon tiré depuis A4 vers E traverse B4, C4, D4, E4, F4.",
                    "«" + NB + "Assiégé tué en B4." + NB + "»",
                    "56 tirs possibles en tout",
                    "W ← ouest",
                ],
            },
        ),
        (
            "pl",
            {
                "/forteresse/": [
                    "Oblężenie na kartce z ołówkiem",
                    "2 graczy",
                    "Załóż stół Forteresse",
                    "Sędzia strzałów",
                    "Kto strzela pierwszy w rundzie 1",
                    "Gracz A",
                ],
                "/forteresse/resolver": [
                    "Forteresse: sędzia strzałów",
                    "Zacznij strzelać",
                    "10 murów i 5 oblężonych",
                ],
                "/forteresse/score": ["Forteresse: karta wyników", "Policz punkty", "Gracz B"],
                "/forteresse/help": [
                    "Jak grać w Forteresse",
                    "Przed rundą",
                    "pola strzału",
                    "Armata z A4 w kierunku E przechodzi przez B4, C4, D4, E4, F4.",
                    "„Oblężony zabity na B4.”",
                    "razem 56 możliwych strzałów",
                    "W ← zachód",
                ],
            },
        ),
    ],
)
def test_forteresses_pages_in_each_language(browser, lang, pages):
    # The help's sections the table page links to keep their anchors.
    pages_say_in(browser, lang, pages, "/forteresse/help", ("before-a-round", "your-turn-one-shot", "score"))


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_the_resolvers_refusal_in_each_language(browser, lang):
    page = text(
        browser.get("/forteresse/resolver?" + urlencode(USED_TWICE), headers={"Accept-Language": lang})
    )
    assert re.findall(r'notice-error"[^>]*>([^<]*)<', page) == [REFUSED[lang]]


def test_the_apis_refusal_follows_accept_language_and_keeps_its_code(app):
    client = app.test_client()
    body = {"fortress": OLA, "used": ["A2"], "shot": {"from": "A2", "direction": "E", "weapon": "rifle"}}
    for lang, message in REFUSED.items():
        answer = client.post(
            "/api/v1/forteresse/shot",
            data=json.dumps(body),
            content_type="application/json",
            headers={"Accept-Language": lang},
        )
        assert answer.status_code == 422
        assert answer.get_json()["error"] == {
            "code": "firing_cell_used",
            "message": message,
            "field": "shot.from",
        }
    misses = client.post(
        "/api/v1/forteresse/shot",
        headers={"Accept-Language": "pl"},
        json={"fortress": OLA, "shot": {"from": "A1", "direction": "N", "weapon": "rifle"}},
    )
    assert (
        misses.get_json()["error"]["message"]
        == "Strzał z A1 w kierunku N nie trafia do twierdzy: z A1 strzelaj w kierunku SE."
    )


def test_a_table_in_polish_and_its_move_log_in_french(browser, other_browser):
    token, links = _table(browser)
    browser.get("/language/pl")
    drawing = _words(text(browser.get(f"/t/{links['Ola']}")))
    assert "Twoja twierdza na rundę 1" in drawing and "Rysowanie twierdz: Ola rysuje, Kuba rysuje." in drawing
    _drawn(browser, other_browser, links)
    refused = _act(
        browser,
        token,
        {"type": "shot", "shooter": "b", "from": "G2", "direction": "W", "weapon": "cannon"},
        htmx=True,
    )
    assert refused.status_code == 422 and "Teraz strzela Ola." in _words(text(refused))
    assert (
        _act(
            browser, links["Ola"], {"type": "shot", "from": "A4", "direction": "E", "weapon": "rifle"}
        ).status_code
        == 303
    )
    page = _words(text(browser.get(f"/t/{links['Ola']}")))
    assert "Ostatni strzał: Ola: karabin z A4 → E — Oblężony zabity na D4." in page
    assert "Strzela Kuba." in page and "Runda 1 z 2 · twierdze na telefonach graczy" in page
    assert "zabici: 1 · zniszczone mury: 0 · armaty: 0 · karabiny: 1" in page
    history = _words(text(other_browser.get(f"/t/{token}/history", headers={"Accept-Language": "fr"})))
    assert f"Ola a tiré au fusil depuis A4 vers E{NB}: Assiégé tué en D4." in history
    assert "Kuba a dessiné sa forteresse pour la manche 1." in history


def test_an_unnamed_seat_is_named_in_the_readers_language(browser, other_browser):
    token = browser.create_table("forteresse", {"mode": "paper", "first": "a"})
    browser.get("/language/fr")
    page = _words(text(browser.get(f"/t/{token}")))
    assert "Au joueur A de tirer." in page and "Manche 1 sur 2 · forteresses sur papier" in page
    shot = {
        "type": "shot",
        "from": "A4",
        "direction": "E",
        "weapon": "rifle",
        "outcome": "wall_destroyed",
        "cell": "B4",
    }
    refused = _act(browser, token, shot, htmx=True)
    assert refused.status_code == 422
    assert (
        "Un fusil ne peut pas détruire un mur"
        + NB
        + ": quand un fusil touche un mur, la réponse est «"
        + NB
        + "Mur."
        + NB
        + "»"
    ) in _words(text(refused))
    assert _act(browser, token, {**shot, "outcome": "wall", "cell": ""}).status_code == 303
    history = _words(text(other_browser.get(f"/t/{token}/history", headers={"Accept-Language": "pl"})))
    assert "Gracz A strzela z karabinu z A4 w kierunku E: Mur." in history


def test_the_drawing_form_in_french_keeps_its_marks(browser):
    page = text(
        browser.get(
            "/forteresse/resolver?" + urlencode({"do": "start", **_marks({"walls": ["B2"], "besieged": []})}),
            headers={"Accept-Language": "fr"},
        )
    )
    said = _words(page)
    assert ("Au départ, une forteresse compte exactement 10 murs" + NB + "; celle-ci en a 1.") in said
    assert 'aria-label="B2' + NB + ': mur"' in page


@pytest.mark.parametrize("lang, name", [("fr", "Joueur 2"), ("pl", "Gracz 2")])
def test_the_history_says_an_unnamed_players_rounds_in_the_readers_language(app, browser, lang, name):
    from companion import store
    from companion.store import db

    seat = {"killed": 2, "cannons": 1, "rifles": 3, "points": 40}
    play = {
        "id": "imported-fort-0001",
        "game": "forteresse",
        "started": "2026-10-01T10:00:00Z",
        "finished": "2026-10-01T10:30:00Z",
        "details": {"rounds": [[seat, seat]]},
        "players": [{"name": who, "score": 40, "winner": False, "team": None} for who in ("Ola", "Player 2")],
    }
    with db.connect(app.config["DATABASE"]) as conn:
        assert store.import_plays(conn, [play]) == 1
    page = text(browser.get("/history/imported-fort-0001", headers={"Accept-Language": lang}))
    rounds = page.split({"fr": "Manche 1", "pl": "Runda 1"}[lang], 1)[1]
    assert f'<th scope="row">{name}</th>' in rounds and "Player 2" not in rounds
