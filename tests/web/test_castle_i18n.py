"""Castle in French and Polish (issue 17): the start page, a tracked table's turn and its
refusal said in the phone's language (the API's code stays English), the history in each
phone's language."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import text

NB = "\u00a0"
ROW = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"  # the castle of tests/web/test_castle.py, row by row


def _words(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page))


def _dealt_table(browser) -> str:
    token = browser.create_table(
        "castle",
        {"players": "4", "dealer": "N", "name_N": "Ola", "name_S": "Kuba", "name_E": "Ewa", "name_W": "Jan"},
    )
    dealt = browser.post(f"/t/{token}/act", {"version": "0", "type": "deal", "castle_line": ROW}, htmx=True)
    assert dealt.status_code == 200, text(dealt)[:300]
    return token


@pytest.mark.parametrize(
    "lang, words",
    [
        ("fr", ["Ouvrir une table", "Donneur", "4, en deux équipes", "Valeur des tas"]),
        ("pl", ["Załóż stół Castle", "Rozdający", "4, w dwóch drużynach", "Wartości stosów"]),
    ],
)
def test_the_start_page_in_each_language(browser, lang, words):
    page = text(browser.get("/castle/", headers={"Accept-Language": lang}))
    assert f'<html lang="{lang}">' in page
    said = _words(page)
    assert [word for word in words if word not in said] == []


@pytest.mark.parametrize(
    "lang, turn, refusal",
    [
        (
            "fr",
            "Au tour d'Ewa (Ewa & Jan)",
            "Un 5 rouge doit dépasser la valeur de ce tas, 5.",
        ),
        (
            "pl",
            "Kolej gracza Ewa (Ewa & Jan)",
            "Czerwona karta 5 musi przebić wartość tego stosu (5).",
        ),
    ],
)
def test_a_tracked_table_and_its_refusal_in_each_language(browser, lang, turn, refusal):
    token = _dealt_table(browser)
    browser.client.set_cookie("lang", lang)
    page = _words(text(browser.get(f"/t/{token}"))).replace("&amp;", "&")
    assert turn in page
    refused = browser.post(
        f"/t/{token}/act",
        {"version": "1", "type": "play", "card_rank": "5", "card_suit": "H", "pile": "C2"},
        htmx=True,
    )
    assert refused.status_code == 422
    assert refusal in _words(text(refused))


def test_the_api_says_a_refusal_in_the_asked_language_and_keeps_its_code(app):
    client = app.test_client()
    body = {
        "castle": dict(
            zip(
                ("A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"),
                ROW.split(),
                strict=True,
            )
        ),
        "card": "9H",
    }
    body["card"] = body["castle"]["B1"]  # a card already on the castle
    answers = {
        lang: client.post("/api/v1/castle/values", json=body, headers={"Accept-Language": lang}).get_json()
        for lang in ("en", "fr", "pl")
    }
    assert {answer["error"]["code"] for answer in answers.values()} == {"card_elsewhere"}
    assert answers["en"]["error"]["message"].startswith("The 8 of diamonds is already elsewhere (on B1)")
    assert answers["fr"]["error"]["message"].startswith("La carte ")
    assert "est déjà ailleurs (sur B1)" in answers["fr"]["error"]["message"]
    assert answers["pl"]["error"]["message"].startswith("Karta ")
    assert "jest już gdzie indziej (na B1)" in answers["pl"]["error"]["message"]


FULL = "A1=4C&B1=8D&C1=JS&D1=2S&A2=2H&B2=9H&C2=5C&D2=3S&A3=10C&B3=6S&C3=7D&D3=AH"  # ROW, as the page keeps it


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "fr",
            [
                "Castle : valeur des tas",
                "La valeur totale de chaque tas est sous sa carte.",
                "valeur 12",
                "9♠ peut aller sur A1, A2, A3, B1, B3, C1, C2, C3, D1, D2, D3.",
                "B2 : Un 9 noir doit dépasser la valeur de ce tas, 9.",
                "Poser sur le tas choisi",
            ],
        ),
        (
            "pl",
            [
                "Castle: wartości stosów",
                "Całkowita wartość każdego stosu jest pod jego kartą.",
                "wart. 12",
                "9♠ może trafić na A1, A2, A3, B1, B3, C1, C2, C3, D1, D2, D3.",
                "B2: Czarna karta 9 musi przebić wartość tego stosu (9).",
                "Połóż na wybrany stos",
            ],
        ),
    ],
)
def test_the_pile_value_calculator_in_each_language(browser, lang, words):
    page = text(browser.get(f"/castle/calculator?{FULL}&card=9S", headers={"Accept-Language": lang}))
    assert _missing(words, page) == []


@pytest.mark.parametrize(
    "lang, row, placeholder, halfway",
    [
        (
            "fr",
            "4t 8k vp 2p 2c 9c 5t 3p 10t 6p 7k ac",
            "4t 8k vp 2p 2c 9c 5t 3p 10t 6p 7k ac",
            "8 tas sur 12 saisis : les valeurs s'affichent une fois les 12 saisis.",
        ),
        (
            "pl",
            "4c 8d ws 2s 2h 9h 5c 3s tc 6s 7d ah",
            "4c 8d ws 2s 2h 9h 5c 3s tc 6s 7d ah",
            "Wpisano 8 z 12 stosów: wartości pojawią się, gdy wpiszesz wszystkie 12.",
        ),
    ],
)
def test_the_calculator_reads_a_castle_typed_in_the_pages_letters(browser, lang, row, placeholder, halfway):
    """A French player types V for a jack and C for hearts: the same castle as the English one."""
    headers = {"Accept-Language": lang}
    page = text(browser.get("/castle/calculator", query_string={"do": "row", "row": row}, headers=headers))
    assert f'placeholder="{placeholder}"' in page
    english = text(browser.get("/castle/calculator", query_string={"do": "row", "row": ROW}))
    assert _values(page) == _values(english) and _values(page)["C1"] == 12
    assert f'value="{_typed_back(row)}"' in page  # written back in the page's letters, to be typed again
    typed = row.split()
    typed[3:7] = ["-"] * 4
    page = text(
        browser.get("/castle/calculator", query_string={"do": "row", "row": " ".join(typed)}, headers=headers)
    )
    assert _missing([halfway], page) == []


def _missing(words: list[str], page: str) -> list[str]:
    """The sentences (French written with a plain space before its colons) that the page does not say."""
    said = html.unescape(re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", "", page)))
    return [word for word in words if word.replace(" :", f"{NB}:") not in said]


def _typed_back(row: str) -> str:
    """The row as the page writes it back: capitals, ten as 10."""
    return " ".join(("10" + name[1:] if name[0] == "t" else name).upper() for name in row.split())


def _values(page: str) -> dict[str, int]:
    return {
        pile: int(value)
        for pile, value in re.findall(
            r'value="([A-D][1-3])".*?<span class="pile-value">\D*(-?\d+)</span>', page, re.S
        )
    }


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "fr",
            [
                "Castle : feuille de marque",
                "Cartes noires de l'équipe rouge",
                "Dames (3 par carte)",
                "Équipe rouge : 12 · équipe noire : 8",
                "L'équipe rouge gagne.",
                "Compter les points",
            ],
        ),
        (
            "pl",
            [
                "Castle: karta wyników",
                "Czarne karty drużyny czerwonych",
                "Damy (3 za kartę)",
                "Drużyna czerwonych: 12 · drużyna czarnych: 8",
                "Wygrywa drużyna czerwonych.",
                "Policz punkty",
            ],
        ),
    ],
)
def test_the_score_sheet_in_each_language(browser, lang, words):
    page = text(browser.get("/castle/score?red_A=1&red_2-10=3&black_K=2", headers={"Accept-Language": lang}))
    assert _missing(words, page) == []
    refused = _words(text(browser.get("/castle/score?red_A=5", headers={"Accept-Language": lang})))
    assert {
        "fr": "Le jeu ne contient que 2 as noirs, pas 5.",
        "pl": "Czarnych asów jest w talii tylko: 2, a nie 5.",
    }[lang] in refused


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "fr",
            [
                "Comment jouer à Castle",
                "Ce que vaut un tas",
                "Douze tas face visible forment le château.",
                "Ouest pose la D♥ sur C2",
                "Carte de l'autre couleur",
                "Dame",
                "Toute autre carte",
                "Décisions de l'arbitre",
                "valeur 11",
            ],
        ),
        (
            "pl",
            [
                "Jak grać w Castle",
                "Ile jest wart stos",
                "Dwanaście odkrytych stosów tworzy zamek.",
                "Zachód kładzie D♥ na C2",
                "Karta drugiego koloru",
                "Dama",
                "Każda inna karta",
                "Decyzje sędziego",
                "wart. 11",
            ],
        ),
    ],
)
def test_the_help_page_in_each_language(browser, lang, words):
    page = text(browser.get("/castle/help", headers={"Accept-Language": lang}))
    assert _missing(words, page) == []
    # the sections keep their ids, which the table page links to
    assert re.findall(r'<h2 id="([^"]+)"', page)[4:8] == [
        "value",
        "your-turn",
        "the-two-player-game",
        "the-end-and-the-score",
    ]


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "Ola & Kuba: 1 point, playing red.",
                "Captured: A ×1.",
                "Ewa & Jan: 8 points, playing black.",
                "Captured: K ×2.",
            ],
        ),
        (
            "fr",
            [
                "Ola & Kuba : 1 point, avec les rouges.",
                "Prises : A ×1.",
                "Ewa & Jan : 8 points, avec les noires.",
                "Prises : R ×2.",
            ],
        ),
        (
            "pl",
            [
                "Ola & Kuba: 1 punkt, kolor czerwony.",
                "Zdobyte: A ×1.",
                "Ewa & Jan: 8 punktów, kolor czarny.",
                "Zdobyte: K ×2.",
            ],
        ),
    ],
)
def test_a_finished_game_in_the_history_says_each_side_in_each_language(app, browser, lang, words):
    from companion import store
    from companion.store import db

    sides = [
        {"players": [0, 1], "colour": "red", "score": 1, "captured": {"A": 1, "K": 0}},
        {"players": [2, 3], "colour": "black", "score": 8, "captured": {"K": 2, "2-10": 0}},
    ]
    play = {
        "id": "imported-play-0001",
        "game": "castle",
        "started": "2026-10-01T10:00:00Z",
        "finished": "2026-10-01T10:30:00Z",
        "details": {"sides": sides},
        "players": [
            {"name": name, "score": score, "winner": score == 8, "team": None}
            for name, score in (("Ola", 1), ("Kuba", 1), ("Ewa", 8), ("Jan", 8))
        ],
    }
    with db.connect(app.config["DATABASE"]) as conn:
        assert store.import_plays(conn, [play]) == 1
    assert (
        _missing(words, text(browser.get("/history/imported-play-0001", headers={"Accept-Language": lang})))
        == []
    )


def test_a_two_player_table_says_the_cards_waiting_for_the_second_deal_only_once_dealt(browser):
    token = browser.create_table("castle", {"players": "2", "dealer": "N", "name_N": "Ola", "name_S": "Kuba"})
    browser.client.set_cookie("lang", "pl")
    assert "na drugie rozdanie, gdy" not in _words(text(browser.get(f"/t/{token}")))  # not "52 cards wait"
    dealt = browser.post(
        f"/t/{token}/act", {"version": "0", "type": "deal", "castle_line": ROW.replace("js", "ws")}, htmx=True
    )
    assert "20 kart czeka na drugie rozdanie, gdy obie ręce będą puste." in _words(text(dealt))
    assert (
        _missing(["Kolej gracza Kuba", "Kolory nie są jeszcze ustalone"], text(browser.get(f"/t/{token}")))
        == []
    )


@pytest.mark.parametrize(
    "lang, words",
    [
        ("fr", ["Sud distribue 10 cartes", "Au tour d'Ouest (Est & Ouest)", "Ola & Sud", "Carte d'Ouest"]),
        (
            "pl",
            [
                "Południe rozdaje każdemu po 10 kart",
                "Kolej Zachodu (Wschód & Zachód)",
                "Ola & Południe",
                "Karta Zachodu",
            ],
        ),
    ],
)
def test_an_unnamed_seat_and_its_side_are_said_in_the_readers_language(browser, lang, words):
    token = browser.create_table("castle", {"players": "4", "dealer": "S", "name_N": "Ola"})
    browser.client.set_cookie("lang", lang)
    assert _missing(words[:1], text(browser.get(f"/t/{token}"))) == []
    browser.client.set_cookie("lang", "en")  # the castle typed in English letters
    dealt = browser.post(f"/t/{token}/act", {"version": "0", "type": "deal", "castle_line": ROW}, htmx=True)
    assert dealt.status_code == 200, text(dealt)[:300]
    browser.client.set_cookie("lang", lang)
    page = text(browser.get(f"/t/{token}"))
    assert _missing(words, page) == []
    assert re.search(r'<th scope="row">\s*Ouest|<th scope="row">\s*Zachód', page)
    english = browser.client.get(f"/api/v1/tables/{token}", headers={"Accept-Language": lang}).get_json()
    assert english["view"]["teams"]["NS"]["name"] == "Ola & South"  # the API gives the stored names


@pytest.mark.parametrize(
    "lang, team, side",
    [("fr", "Nord-Sud", "Ola & Sud : 1 point"), ("pl", "Północ–Południe", "Ola & Południe: 1 punkt")],
)
def test_the_history_says_a_castle_team_and_an_unnamed_seat_in_the_readers_language(
    app, browser, lang, team, side
):
    from companion import store
    from companion.store import db

    sides = [
        {"players": [0, 1], "colour": None, "score": 1, "captured": {}},
        {"players": [2, 3], "colour": None, "score": 8, "captured": {}},
    ]
    play = {
        "id": "imported-play-0002",
        "game": "castle",
        "started": "2026-10-01T10:00:00Z",
        "finished": "2026-10-01T10:30:00Z",
        "details": {"sides": sides},
        "players": [
            {"name": name, "score": score, "winner": score == 8, "team": group}
            for name, score, group in (
                ("Ola", 1, "NS"),
                ("South", 1, "NS"),
                ("East", 8, "EW"),
                ("West", 8, "EW"),
            )
        ],
    }
    with db.connect(app.config["DATABASE"]) as conn:
        assert store.import_plays(conn, [play]) == 1
    page = text(browser.get("/history/imported-play-0002", headers={"Accept-Language": lang}))
    assert _missing([side], page) == []
    assert f"<td>{team}</td>" in page and "<td>NS</td>" not in page
