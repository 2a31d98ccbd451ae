"""The pages no one game owns, in French and Polish (issue 17): home, print, an error
page, a table's history, replay and ending; and a seat nobody named, said in the reader's
language while its stored name (and the API's) stays the English default."""

from __future__ import annotations

import json
import re

import pytest

from companion.rules.sentences import Message, seat_name
from tests.conftest import text
from tests.web.test_forteresse import _links

FR, PL = {"Accept-Language": "fr"}, {"Accept-Language": "pl"}


def _scorepad(browser) -> str:
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    for version, points in enumerate([[5, 3], [1, 9]]):
        browser.post(f"/t/{token}/act", {"version": str(version), "points": [str(p) for p in points]})
    return token


@pytest.mark.parametrize(
    ("headers", "sentences"),
    [
        (FR, ["L'arbitre à côté de vos feuilles et de vos cartes", "Jeux"]),
        (PL, ["Sędzia obok twoich kartek i kart", "Gry"]),
    ],
)
def test_the_home_page(browser, headers, sentences):
    page = text(browser.get("/", headers=headers))
    assert all(sentence in page for sentence in sentences), page[:3000]


@pytest.mark.parametrize(
    ("headers", "sentences"),
    [
        (
            FR,
            [
                "Les feuilles sont imprimées dans la langue de cette page",
                "Jeu standard de 52 cartes",
                "Le paquet Zamek par défaut de Castellan (zamek-default@1)",
                "Plan de table, places 1 à 45",
            ],
        ),
        (
            PL,
            [
                "Arkusze są drukowane w języku tej strony",
                "Standardowa talia 52 kart",
                "Domyślna talia Castellana do Zamku (zamek-default@1)",
                "Plansza, miejsca od 1 do 45",
            ],
        ),
    ],
)
def test_the_print_page(browser, headers, sentences):
    page = text(browser.get("/print", headers=headers))
    assert all(sentence in page for sentence in sentences)


@pytest.mark.parametrize(
    ("headers", "sentences"),
    [
        (FR, ["Page introuvable", "Il n'y a rien ici.", "Retour aux jeux"]),
        (PL, ["Nie znaleziono", "Nic tu nie ma.", "Wróć do gier"]),
    ],
)
def test_the_error_page(browser, headers, sentences):
    page = text(browser.get("/t/no-such-table", headers=headers))
    assert all(sentence in page for sentence in sentences), page[-1500:]


@pytest.mark.parametrize(
    ("headers", "sentences"),
    [
        (
            FR,
            ["Historique", "Manche 2\u00a0: Ola 1, Kuba 9.", "Retour à la table", "Revoir depuis le début"],
        ),
        (PL, ["Historia", "Runda 2: Ola 1, Kuba 9.", "Wróć do stołu", "Powtórka od początku"]),
    ],
)
def test_a_tables_history(browser, headers, sentences):
    page = text(browser.get(f"/t/{_scorepad(browser)}/history", headers=headers))
    assert all(sentence in page for sentence in sentences)


@pytest.mark.parametrize(
    ("headers", "sentences"),
    [
        (
            FR,
            [
                "Le début, avant tout coup (2 coups en tout).",
                'aria-label="Parcourir les coups"',
                'aria-label="Suivant"',
                "Coup 1 sur 2\u00a0: Manche 1\u00a0: Ola 5, Kuba 3.",
            ],
        ),
        (
            PL,
            [
                "Początek, przed pierwszym ruchem (razem 2 ruchy).",
                'aria-label="Przeglądaj ruchy"',
                'aria-label="Następny"',
                "Ruch 1 z 2: Runda 1: Ola 5, Kuba 3.",
            ],
        ),
    ],
)
def test_a_tables_replay(browser, headers, sentences):
    token = _scorepad(browser)
    page = text(browser.get(f"/t/{token}/replay?step=0", headers=headers)) + text(
        browser.get(f"/t/{token}/replay?step=1", headers=headers)
    )
    assert all(sentence in page for sentence in sentences)


@pytest.mark.parametrize(
    ("headers", "before", "after"),
    [
        (
            FR,
            [
                "Terminer la table",
                "Terminer fait de ces totaux le score final et garde la partie dans l'historique.",
            ],
            [
                "Cette table est terminée.",
                "Voir cette partie dans l'historique",
                "Revanche",
                "Une nouvelle table (Bloc de score) avec les mêmes joueurs",
            ],
        ),
        (
            PL,
            [
                "Zakończ grę przy stole",
                "Po zakończeniu te sumy staną się wynikiem końcowym, a rozgrywka zostanie w historii.",
            ],
            [
                "Gra przy tym stole jest zakończona.",
                "Zobacz tę rozgrywkę w historii",
                "Rewanż",
                "Nowy stół (",
            ],
        ),
    ],
)
def test_finishing_a_table_and_its_end(browser, headers, before, after):
    token = _scorepad(browser)
    page = text(browser.get(f"/t/{token}", headers=headers))
    assert all(sentence in page for sentence in before)
    browser.post(f"/t/{token}/finish", {"version": "2"})
    page = text(browser.get(f"/t/{token}", headers=headers))
    assert all(sentence in page for sentence in after), page[:4000]


@pytest.mark.parametrize(
    ("headers", "words"),
    [
        (FR, {"Joueur A", "Joueur B", "Arbitre", "Spectateur"}),
        (PL, {"Gracz A", "Gracz B", "Sędzia", "Widz"}),
    ],
)
def test_a_seat_nobody_named_is_said_in_the_page_language_and_stays_english_for_programs(
    browser, headers, words
):
    token = browser.create_table("forteresse", {"mode": "phones", "first": "a"})
    assert set(_links(browser, token)) == {"Player A", "Player B", "Referee", "Viewer"}  # English, as stored
    page = text(browser.get(f"/t/{token}/links", headers=headers))
    assert all(word in page for word in words) and "Player A" not in page
    seat = _links(browser, token)["Player A"]
    said = {"fr": "C'est l'écran privé du joueur A.", "pl": "To prywatny ekran gracza A."}
    seat_page = text(browser.get(f"/t/{seat}", headers=headers))
    assert said[headers["Accept-Language"]] in seat_page, re.findall(
        r'class="role[^"]*">(.*?)</p>', seat_page, re.S
    )
    api = browser.client.get(f"/api/v1/tables/{token}", headers=headers).get_json()
    assert "Player A" in json.dumps(api) and "Joueur A" not in json.dumps(api)


def test_a_typed_name_stays_as_typed_and_only_default_names_are_sentences():
    assert (
        seat_name("Ola") == "Ola"
        and seat_name("Players 2") == "Players 2"
        and seat_name("Player") == "Player"
    )
    assert seat_name("Player 2") == Message("Player %(number)s", number=2)
    assert seat_name("North") == Message("North")
    assert seat_name("Team Ola") == Message("Team %(name)s", name="Ola")
