"""Zamek in French and Polish (issue 17): the rules' refusals through the API and the score sheet,
each in the reader's language, the API's code unchanged."""

from __future__ import annotations

import json

import pytest

from tests.conftest import pdf_text, text

TURN = "/api/v1/zamek/turn"


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "12 is not higher than 20, the end of this castle: put it back."),
        ("fr", "Le 12 n'est pas plus haut que le 20, le bout de ce château\u00a0: remettez-le."),
        ("pl", "Karta 12 nie jest wyższa niż 20, ostatnia karta tego zamku: odłóż ją na miejsce."),
    ],
)
def test_an_api_refusal_is_said_in_the_callers_language_with_its_code_unchanged(browser, lang, sentence):
    body = {"castles": {"p1": [1, 20], "p2": [1, 3]}, "player": "p1", "card": 12, "action": "add"}
    answer = browser.client.post(
        TURN, data=json.dumps(body), content_type="application/json", headers={"Accept-Language": lang}
    )
    error = answer.get_json()["error"]
    assert answer.status_code == 422 and error["code"] == "not_higher" and error["message"] == sentence


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("fr", "Deux châteaux s'appellent Ola\u00a0: donnez à chacun un nom différent."),
        ("pl", "Dwa zamki nazywają się Ola: nadaj każdemu inną nazwę."),
    ],
)
def test_the_score_sheet_refuses_in_the_page_language(browser, lang, sentence):
    page = text(
        browser.get(
            "/zamek/score?name1=Ola&castle1=1+5&name2=Ola&castle2=1+7", headers={"Accept-Language": lang}
        )
    )
    assert sentence in page


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("fr", "Ola gagne aux points."),
        ("pl", "Ola wygrywa na punkty."),
    ],
)
def test_the_score_sheet_names_the_winner_in_the_page_language(browser, lang, sentence):
    page = text(
        browser.get(
            "/zamek/score?name1=Ola&castle1=1+41&name2=Kuba&castle2=1+7", headers={"Accept-Language": lang}
        )
    )
    assert sentence in page


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        ("fr", ["Un jeu de mémoire où l'on bâtit des châteaux", "Ouvrir la table", "Paquet"]),
        ("pl", ["Gra pamięciowa o budowaniu zamków", "Załóż stół", "Czarnoksiężnik"]),
    ],
)
def test_the_zamek_page_speaks_the_page_language(browser, lang, sentences):
    page = text(browser.get("/zamek/", headers={"Accept-Language": lang}))
    assert all(sentence in page for sentence in sentences)


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        (
            "fr",
            [
                "Comment jouer à Zamek",
                "La partie continue au-delà de 10 éléments",
                "Les paires se comptent une princesse avec un chevalier",
                "Le paquet Zamek par défaut de Castellan",
            ],
        ),
        (
            "pl",
            [
                "Jak grać w Zamek",
                "Gra toczy się dalej po 10 elementach",
                "Pary liczy się jako jedna księżniczka z jednym rycerzem",
                "Domyślna talia Castellana do Zamku",
            ],
        ),
    ],
)
def test_the_help_page_speaks_the_page_language(browser, lang, sentences):
    page = text(browser.get("/zamek/help", headers={"Accept-Language": lang}))
    assert all(sentence in page for sentence in sentences)
    assert "How to play" not in page and "The wizard belongs" not in page


def test_the_score_pad_printed_in_polish_reads_back_in_polish(browser):
    words = " ".join(pdf_text(browser.get("/print/zamek-score-pad.pdf?lang=pl").data, layout=False).split())
    for sentence in (
        "Notes wyników, wariant rozszerzony",
        "Talia zamek-default@1: Domyślna talia Castellana do Zamku.",
        "Król 41, królowa 34, czarnoksiężnik 18; rycerze 3, 9, 15, 22, 28, 37, 44;",
        "Pary księżniczka–rycerz",
        "Ma czarnoksiężnika? (przy remisie)",
        "Wygrywa najwyższa suma.",
    ):
        assert sentence in words
    assert "Knights" not in words and "Highest total" not in words
