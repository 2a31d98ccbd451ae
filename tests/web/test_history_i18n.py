"""The history in French and Polish: the history page, a play's page with its chart, a player's page
with its record, dates and numbers as each language writes them, a rename refused in the reader's
language, an import's answer and refusals; the API's refusal codes and the export files stay English."""

from __future__ import annotations

import io
import json
import re

import pytest

from tests.conftest import text
from tests.web.test_history_pages import _imported, _pad, _play, _player_id

NBSP = "\u00a0"


def words(html: str) -> str:
    """A page's text as read: tags dropped, runs of white space one space."""
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" .", ".").replace(" ,", ",")


def _record(app) -> None:
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 1230, True), ("Kuba", 24, False)], day="2026-10-01"),
            _play(2, "castle", [("Ola", 20, False), ("Kuba", 34, True)], day="2026-10-02"),
            _play(3, "zamek", [("Ola", 9, True), ("Ewa", 7, False), ("Kuba", 3, False)], day="2026-10-05"),
        ],
    )


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "fr",
            [
                "Historique",
                "Chaque table terminée sur ce serveur, de la plus récente à la plus ancienne.",
                "3 parties.",
                "Tous les jeux",
                "Ces parties en CSV",
                "Exporter ou importer toutes les parties",
                "Ola 1\u202f230",
            ],
        ),  # French groups digits with a narrow no-break space
        (
            "pl",
            [
                "Historia",
                "Każdy stół zakończony na tym serwerze, od najnowszego.",
                "3 rozgrywki.",
                "Wszystkie gry",
                "Te rozgrywki jako CSV",
                "Eksportuj lub importuj wszystkie rozgrywki",
                "Ola 1" + NBSP + "230",
            ],
        ),
    ],
)
def test_the_history_page_in_each_language(app, browser, lang, said):
    _record(app)
    html = text(browser.get("/history", headers={"Accept-Language": lang}))
    assert f'<html lang="{lang}">' in html
    page = words(html)
    for sentence in said:
        assert sentence in page, (lang, sentence)
    assert "Every table that ended" not in page
    empty = words(text(browser.get("/history?player=Nobody", headers={"Accept-Language": lang})))
    assert {"fr": "Aucune partie de Nobody ne correspond.", "pl": "Brak pasujących rozgrywek gracza Nobody."}[
        lang
    ] in empty


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "fr",
            [
                "Parties gagnées" + NBSP + ": 2 sur 3, soit 67" + NBSP + "%.",
                "Par jeu",
                "Taux de victoire",
                "Meilleur score",
                "50" + NBSP + "%",
                "625,0",
                "Joue le plus souvent avec",
                "3 parties ensemble",
                "Victoires au fil du temps",
                "Parties gagnées" + NBSP + ": 2 sur 3, cumulées de la première partie à la dernière.",
                "Les jours commencent à minuit, dans le fuseau horaire UTC.",
                "01/10/2026",
                "Nouveau nom d'Ola, dans toutes les parties",
                "Oublier le nom d'Ola…",
            ],
        ),
        (
            "pl",
            [
                "Wygrane: 2 z 3 rozgrywek, czyli 67%.",
                "Według gry",
                "Odsetek wygranych",
                "Najlepszy wynik",
                "50%",
                "625,0",
                "Najczęstszy współgracz",
                "3 wspólne rozgrywki",
                "Wygrane w czasie",
                "Rozgrywki: 3, wygrane: 2, liczone narastająco od pierwszej rozgrywki do ostatniej.",
                "Dni zaczynają się o północy w strefie czasowej UTC.",
                "1.10.2026",
                "Nowe imię dla gracza Ola, we wszystkich rozgrywkach",
                "Zapomnij imię gracza Ola…",
            ],
        ),
    ],
)
def test_a_players_page_in_each_language(app, browser, lang, said):
    _record(app)
    html = text(browser.get(f"/players/{_player_id(app, 'Ola')}", headers={"Accept-Language": lang}))
    page = words(html)
    for sentence in said:
        assert sentence in page, (lang, sentence)
    svg = re.search(r"<svg class=\"chart\" id=\"wins-chart.*?</svg>", html, re.S).group(0)
    assert {
        "fr": "Ola" + NBSP + ": parties et victoires au fil du temps",
        "pl": "Ola: rozgrywki i wygrane w czasie",
    }[lang] in svg
    assert {"fr": ">Parties</text>", "pl": ">Rozgrywki</text>"}[lang] in svg


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "fr",
            [
                "Partie · Bloc de score",
                "Début",
                "Durée",
                "Manche par manche",
                "Manches",
                "Bloc de score" + NBSP + ": totaux cumulés après chaque manche",
                "Une ligne par joueur, à partir de 0 avant la première manche. Gagnant" + NBSP + ": Kuba.",
            ],
        ),
        (
            "pl",
            [
                "Notes wyników: rozgrywka",
                "Początek",
                "Czas gry",
                "Runda po rundzie",
                "Rundy",
                "Notes wyników: sumy narastająco po każdej rundzie",
                "Jedna linia na gracza, od 0 przed pierwszą rundą. Zwycięzca: Kuba.",
            ],
        ),
    ],
)
def test_a_plays_page_and_its_chart_in_each_language(browser, lang, said):
    _pad(browser, rounds=((5, 3), (2, 8), (1, 0)))
    html = text(browser.get("/history", headers={"Accept-Language": lang}))
    link = re.search(r'<a class="play-link" href="([^"]+)"', html).group(1)
    page = words(text(browser.get(link, headers={"Accept-Language": lang})))
    for sentence in said:
        assert sentence in page, (lang, sentence)


@pytest.mark.parametrize(
    "lang, refusal, merged",
    [
        (
            "fr",
            "Un autre joueur s'appelle déjà Kuba"
            + NBSP
            + ": si Ola et Kuba sont la même personne, fusionnez-les plutôt.",
            "Kuba et Ola ne sont plus qu'un seul joueur" + NBSP + ": Ola.",
        ),
        (
            "pl",
            "Inny gracz nazywa się już Kuba: jeśli Ola i Kuba to ta sama osoba, połącz ich w jednego gracza.",
            "Kuba i Ola to teraz jeden gracz: Ola.",
        ),
    ],
)
def test_renaming_and_merging_answer_in_each_language(app, browser, lang, refusal, merged):
    _record(app)
    ola, kuba = _player_id(app, "Ola"), _player_id(app, "Kuba")
    browser.client.set_cookie("lang", lang)
    refused = browser.post(f"/players/{ola}/rename", {"name": "kuba"})
    assert refused.status_code == 422 and refusal in words(text(refused))
    done = browser.post(f"/players/{ola}/merge", {"other": str(kuba)})
    assert merged in words(text(browser.get(done.headers["Location"])))


@pytest.mark.parametrize(
    "lang, added, refused",
    [
        (
            "fr",
            "Parties ajoutées"
            + NBSP
            + ": 3. Parties du fichier déjà présentes, laissées telles quelles"
            + NBSP
            + ": 0.",
            "Ce fichier a été créé par une version plus récente de Castellan (version d'export 9)",
        ),
        (
            "pl",
            "Dodane rozgrywki: 3. Rozgrywki z pliku, które już tu były i zostały bez zmian: 0.",
            "Ten plik utworzył nowszy Castellan (wersja eksportu 9): zaktualizuj ten serwer",
        ),
    ],
)
def test_the_import_page_answers_in_each_language_and_the_files_stay_english(
    app, browser, lang, added, refused
):
    _record(app)
    exported = browser.client.get("/api/v1/plays/export.json", headers={"Accept-Language": lang}).get_json()
    csv = browser.client.get("/api/v1/plays.csv", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert csv.splitlines()[0] == "play,game,started,finished,player,team,score,winner"
    bgstats = browser.client.get(
        "/api/v1/plays/bgstats.json?tz=UTC", headers={"Accept-Language": lang}
    ).get_json()
    assert sorted(game["name"] for game in bgstats["games"]) == ["Castle", "Zamek"]
    with app.app_context():
        from companion.http.context import get_db
        from companion.store.db import play_players, plays

        conn = get_db()
        with conn.begin():
            conn.execute(play_players.delete())
            conn.execute(plays.delete())
    browser.client.set_cookie("lang", lang)
    page = words(text(browser.get("/history/files")))
    assert {"fr": "Exporter et importer les parties", "pl": "Eksport i import rozgrywek"}[lang] in page

    def upload(document: dict):
        data = io.BytesIO(json.dumps(document).encode())
        return browser.post(
            "/history/files", data={"file": (data, "p.json")}, content_type="multipart/form-data"
        )

    answer = upload(exported)
    assert added in words(text(browser.get(answer.headers["Location"])))
    newer = upload({**exported, "version": 9})
    assert newer.status_code == 422 and refused in words(text(newer))


@pytest.mark.parametrize(
    "lang, message",
    [
        ("fr", "La limite est un nombre entier de 1 à 500."),
        ("pl", "Limit to liczba całkowita od 1 do 500."),
    ],
)
def test_the_plays_apis_refusal_in_each_language_keeps_its_english_code(app, lang, message):
    refused = app.test_client().get("/api/v1/plays?limit=0", headers={"Accept-Language": lang})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == {"code": "bad_limit", "message": message, "field": "limit"}


@pytest.mark.parametrize(
    "lang, zamek, fort",
    [
        (
            "fr",
            [
                "Le jeu avancé.",
                "Une égalité, départagée par la reine.",
                "Ola" + NBSP + ": 5 éléments",
                "Kuba" + NBSP + ": 1 élément",
            ],
            [
                "Épreuve finale",
                "La partie s'est terminée par une épreuve finale, et la victoire a été partagée.",
                "Ola" + NBSP + ": 2",
            ],
        ),
        (
            "pl",
            [
                "Wariant rozszerzony.",
                "Remis rozstrzygnięty: wygrywa zamek z królową.",
                "Ola: 5 elementów",
                "Kuba: 1 element",
                "Ewa: 3 elementy",
            ],
            ["Finał", "Gra zakończyła się finałem, a zwycięstwo zostało podzielone.", "Ola: 2"],
        ),
    ],
)
def test_a_zamek_and_a_fort_plays_details_in_each_language(app, browser, lang, zamek, fort):
    _imported(
        app,
        [
            {
                **_play(1, "zamek", [("Ola", 5, True), ("Kuba", 1, False), ("Ewa", 3, False)]),
                "details": {"variant": "extended", "decided_by": "queen", "castles": [5, 1, 3]},
            },
            {
                **_play(2, "fort", [("Ola", 1, True), ("Kuba", 1, True)]),
                "details": {
                    "ended_by": "showdown",
                    "shared": True,
                    "showdown": {"stage": 1, "tricks": [2, None]},
                },
            },
        ],
    )
    for play_id, said in (("imported-play-0001", zamek), ("imported-play-0002", fort)):
        page = words(text(browser.get(f"/history/{play_id}", headers={"Accept-Language": lang})))
        for sentence in said:
            assert sentence in page, (lang, sentence)


@pytest.mark.parametrize("lang, thousands", [("en", "10,000"), ("fr", "10\u202f000"), ("pl", "10\u00a0000")])
def test_a_charts_axis_numbers_are_grouped_as_the_language_groups_them(browser, lang, thousands):
    """A score pad's totals in the thousands: the chart's axis says them as the table beside it does."""
    _pad(browser, rounds=((6000, 3000), (6000, 4000)))
    html = text(browser.get("/history", headers={"Accept-Language": lang}))
    link = re.search(r'<a class="play-link" href="([^"]+)"', html).group(1)
    svg = re.search(
        r"<svg class=\"chart\".*?</svg>", text(browser.get(link, headers={"Accept-Language": lang})), re.S
    ).group(0)
    labels = dict(re.findall(r'<text x="[^"]+" y="[^"]+" dy="0.35em" data-value="(\d+)">([^<]+)</text>', svg))
    assert labels["10000"] == thousands and labels["0"] == "0", labels
