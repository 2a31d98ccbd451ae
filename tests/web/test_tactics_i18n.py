"""Square Tactics in French and Polish: its pages, a tracked table's steps and captures, a refusal
of its rules on the table page and through the API in the reader's language (the API's code stays
English), the history's lines, and its printed sheets."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import pdf_text, text
from tests.printables.test_languages import _sheet as sheet
from tests.web.test_tactics import act, mover, new_table, page, typed

NBSP = "\u00a0"
SCORES = (
    "name_p1=Ola&name_p2=Kuba&g1_p1_captured=2&g1_p1_corners=2&g1_p1_sides=1&g1_p2_centres=1"
    "&g1_p2_sides=2&g2_p1_centres=1&g2_p2_captured=1"
)


def words(html: str) -> str:
    """A page's text as read: tags dropped, runs of white space one space."""
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" .", ".").replace(" ,", ",")


@pytest.mark.parametrize(
    "lang, pages",
    [
        (
            "fr",
            {
                "/tactics/": [
                    "Posez des cartes sur une petite grille",
                    "2 joueurs (3x3) ou 4 (4x4)",
                    "Suivre un match",
                    "Joueur 2, place N à deux joueurs, W à quatre",
                    "Ouvrir une table",
                    "Les factions",
                    "15 cartes",
                ],
                f"/tactics/score?{SCORES}": [
                    "Square Tactics" + NBSP + ": feuille de marque",
                    "Partie 3",
                    "Coins sur 4",
                    "Compter les points",
                    "Ola mène avec 9.",
                    "Coin 1 point, bord 2, centre 3" + NBSP + "; chaque carte prise 1.",
                ],
                "/tactics/score?players=4": [
                    "4 joueurs, 4x4",
                    "Bords sur 8",
                    "(les quatre cases intérieures du plateau 4x4 sont toutes des centres)",
                ],
            },
        ),
        (
            "pl",
            {
                "/tactics/": [
                    "Kładź karty na małej planszy",
                    "2 graczy (3x3) lub 4 (4x4)",
                    "Prowadź mecz",
                    "Gracz 2, miejsce N przy dwóch graczach, W przy czterech",
                    "Załóż stół Square Tactics",
                    "Frakcje",
                    "15 kart",
                ],
                f"/tactics/score?{SCORES}": [
                    "Square Tactics: karta wyników",
                    "Partia 3",
                    "Narożne z 4",
                    "Policz punkty",
                    "Prowadzi Ola z wynikiem 9.",
                    "Pole narożne 1 punkt, boczne 2, środkowe 3; każda zdobyta karta 1.",
                ],
                "/tactics/score?players=4": [
                    "4 graczy, 4x4",
                    "Boczne z 8",
                    "(wszystkie cztery wewnętrzne pola planszy 4x4 są środkowe)",
                ],
            },
        ),
    ],
)
def test_tactics_pages_in_each_language(browser, lang, pages):
    for path, said in pages.items():
        html = text(browser.get(path, headers={"Accept-Language": lang}))
        assert f'<html lang="{lang}">' in html
        assert [sentence for sentence in said if sentence not in words(html)] == [], path


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "fr",
            [
                "Partie 1 sur 3",
                "{second} a joué Carte [9 9 9 9] en B3.",
                "9 contre 1 → prise en B2",
                "1 carte prise" + NBSP + ": B2, la case est vide.",
                "{second} a pris 1 carte dans cette partie.",
                "Au tour {of_first}",
                "Jouer ces nombres",
                "Touchez la case où {first} a posé la carte.",
                "Ou tapez ses quatre nombres",
                "Vu depuis",
                "Saisir la main {of_second} (0 sur 3 saisies)",
            ],
        ),
        (
            "pl",
            [
                "Partia 1 z 3",
                "Zagranie gracza {second}",
                ": Karta [9 9 9 9] na B3.",
                "9 kontra 1 → zdobywa B2",
                "Zdobyta 1 karta: B2, pole jest teraz puste.",
                "Gracz {second} ma w tej partii 1 zdobytą kartę.",
                "Kolej gracza {first}",
                "Zagraj tę kartę",
                "Dotknij pola, na które gracz {first} kładzie kartę.",
                "Albo wpisz jej cztery liczby",
                "Widok z miejsca",
                "Wpisz rękę gracza {second} (wpisano 0 z 3)",
            ],
        ),
    ],
)
def test_a_capture_on_the_table_is_told_in_the_pages_language(browser, lang, said):
    token = new_table(browser)
    first = mover(page(browser, token))
    second = "Kuba" if first == "Ola" else "Ola"
    typed(browser, token, "B2", [1, 1, 1, 1])
    browser.get(f"/language/{lang}?next=/")
    html = words(text(typed(browser, token, "b3", [9, 9, 9, 9])))
    of_first, of_second = (
        ("d'Ola", "de Kuba") if first == "Ola" else ("de Kuba", "d'Ola")
    )  # French elides "de" before a vowel
    expected = [
        sentence.format(first=first, second=second, of_first=of_first, of_second=of_second)
        for sentence in said
    ]
    assert [sentence for sentence in expected if sentence not in html] == []


@pytest.mark.parametrize(
    "lang, refusal",
    [
        ("fr", f"D4 est hors du plateau{NBSP}: les cases vont de A1 à C3."),
        ("pl", "D4 leży poza planszą: pola mają oznaczenia od A1 do C3."),
    ],
)
def test_a_play_off_the_board_is_refused_in_the_pages_language(browser, lang, refusal):
    browser.get(f"/language/{lang}?next=/")
    token = new_table(browser)
    response = act(
        browser, token, {"cell": "D4", "typed": "1", "top": "1", "right": "1", "bottom": "1", "left": "1"}
    )
    assert response.status_code == 422
    assert refusal in text(response)


@pytest.mark.parametrize(
    "lang, line",
    [
        ("fr", " joue une carte [5 5 5 5] en B2."),
        ("pl", " zagrywa kartę [5 5 5 5] na B2."),
    ],
)
def test_the_history_says_a_play_in_the_readers_language(browser, lang, line):
    token = new_table(browser)
    typed(browser, token, "B2", [5, 5, 5, 5])
    browser.get(f"/language/{lang}?next=/")
    assert line in text(browser.get(f"/t/{token}/history"))


@pytest.mark.parametrize(
    "lang, refusal",
    [
        ("fr", f"Z9 est hors du plateau{NBSP}: les cases vont de A1 à C3."),
        ("pl", "Z9 leży poza planszą: pola mają oznaczenia od A1 do C3."),
    ],
)
def test_the_api_refuses_in_the_accepted_language_with_the_english_code(app, lang, refusal):
    body = {
        "size": 3,
        "seats": {"p1": "S", "p2": "N"},
        "board": {},
        "play": {"player": "p1", "cell": "Z9", "edges": [1, 1, 1, 1]},
    }
    response = app.test_client().post(
        "/api/v1/tactics/play",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Accept-Language": lang},
    )
    error = response.get_json()["error"]
    assert error["code"] == "off_board" and error["message"] == refusal


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "fr",
            [
                "Square Tactics" + NBSP + ": comment jouer",
                "Ce qu'il vous faut",
                "Castellan en imprime 4" + NBSP + ":",
                "Posée depuis la place S (côté sud)" + NBSP + ": son haut pointe vers le nord.",
                "Le vôtre est plus fort",
                "W est sud ouest nord",  # the seat table's row for W: where its top, right, bottom and left point
                "«" + NBSP + "haut" + NBSP + ": 5 contre 3 → prise en B2" + NBSP + "»",
                "le but est 40 à 60" + NBSP + "% pour chaque paire",
            ],
        ),
        (
            "pl",
            [
                "Square Tactics: jak grać",
                "Czego potrzebujesz",
                "Castellan drukuje 4:",
                "Położona z miejsca S (strona południowa): jej góra wskazuje północ.",
                "Twoja jest wyższa",
                "W wschód południe zachód północ",
                "„góra: 5 kontra 3 → zdobywa B2”",
                "celem jest 40–60% w każdej parze",
            ],
        ),
    ],
)
def test_the_help_page_in_each_language(browser, lang, said):
    html = text(browser.get("/tactics/help", headers={"Accept-Language": lang}))
    assert [sentence for sentence in said if sentence not in words(html)] == []
    letters = {"fr": "HDBG", "pl": "GPDL"}[lang]  # the pictured card's top, right, bottom and left
    edges = re.search(r'<span class="tcard [^>]*>((?:<i>\w</i>){4})', html).group(
        1
    )  # in order: top, right, bottom, left
    assert re.findall(r"<i>(\w)</i>", edges) == list(letters)
    for anchor in (
        "what-you-need",
        "your-turn",
        "seats",
        "end-of-a-game",
        "referee-s-decisions",
    ):  # linked to
        assert f'<h2 id="{anchor}">' in html


def test_the_sheets_in_polish_read_back(browser):
    pad = " ".join(pdf_text(sheet("tactics-score-pad", "pl")).split())
    assert "Notes wyników, mecz z trzech partii" in pad
    assert (
        "W każdej partii: 1 za każdą zdobytą kartę przeciwnika; za zajęte pole: narożne 1, boczne 2, środkowe 3"
        in pad
    )
    assert pad.count("Gracz Zdobyte Narożne × 1 Boczne × 2 Środkowe × 3 Suma") == 3
    assert "Partia 3" in pad and "Mecz: suma trzech partii" in pad and pad.count("Imię i suma") == 4
    mat = " ".join(pdf_text(sheet("tactics-mat-3x3", "pl")).split())
    assert "Plansza 3x3 dla dwóch graczy" in mat and "Miejsce S, pierwszy gracz" in mat
    assert "Miejsce N (2 graczy: S i N)" in mat and "mała liczba to punkty za zajęcie pola na koniec" in mat
    deck = " ".join(pdf_text(sheet("tactics-marches", "pl")).split())
    assert (
        "Marcher Lords: talia 15 kart frakcji Marcher Lords do Square Tactics, z rewersami. "
        "Baronowie pogranicza, którzy trzymają flanki" in deck
    )
    assert set("ąęłóśżź") <= set(pad + mat + deck)  # drawn, embedded and read back
    listed = words(text(browser.get("/print", headers={"Accept-Language": "pl"})))
    assert (
        "Plansza 4x4 dla czterech graczy" in listed
        and "Wartownicy, którzy widzą nadchodzącego wroga" in listed
    )


def test_every_shipped_factions_description_is_marked_for_translation():
    from companion.rules import tactics
    from companion.web.views.tactics import FACTION_DESCRIPTIONS

    assert sorted(FACTION_DESCRIPTIONS) == sorted(
        faction["description"] for faction in tactics.load_factions().values()
    )


@pytest.mark.parametrize(
    "lang, log, refusals",
    [
        (
            "fr",
            "joue une carte [5 5 5 5] en B2.",
            [
                "Partie 1"
                + NBSP
                + ": Les prises d'Ola doivent être un nombre entier, et « x » n'en est pas un.".replace(
                    "« x »", f"«{NBSP}x{NBSP}»"
                )
            ],
        ),
        (
            "pl",
            "zagrywa kartę [5 5 5 5] na B2.",
            [
                "Zdobyte karty gracza Ola muszą być liczbą całkowitą, a „x” nią nie jest.",
                "Plansza 3x3 ma tylko 4 pola narożne, a policzono ich więcej.",
            ],
        ),
    ],
)
def test_a_typed_card_in_the_log_and_the_score_sheets_refusals_in_the_pages_language(
    browser, lang, log, refusals
):
    token = new_table(browser)
    assert typed(browser, token, "B2", [5, 5, 5, 5]).status_code == 200
    history = words(text(browser.get(f"/t/{token}/history", headers={"Accept-Language": lang})))
    assert log in history and "Card [" not in history
    sheet_page = words(
        text(
            browser.get(
                "/tactics/score?name_p1=Ola&g1_p1_captured=x&g2_p1_corners=9",
                headers={"Accept-Language": lang},
            )
        )
    )
    assert [sentence for sentence in refusals if sentence not in sheet_page] == []
