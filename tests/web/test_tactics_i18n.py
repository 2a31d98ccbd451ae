"""Square Tactics in French and Polish: a refusal of its rules on the table page and through
the API in the reader's language (the API's code stays English), and the history's lines."""

from __future__ import annotations

import json

import pytest

from tests.conftest import text
from tests.web.test_tactics import act, new_table, typed

NBSP = "\u00a0"


@pytest.mark.parametrize("lang, refusal", [
    ("fr", f"D4 est hors du plateau{NBSP}: les cases vont de A1 à C3."),
    ("pl", "D4 jest poza planszą: pola są od A1 do C3."),
])
def test_a_play_off_the_board_is_refused_in_the_pages_language(browser, lang, refusal):
    browser.get(f"/language/{lang}?next=/")
    token = new_table(browser)
    response = act(browser, token, {"cell": "D4", "typed": "1", "top": "1", "right": "1", "bottom": "1", "left": "1"})
    assert response.status_code == 422
    assert refusal in text(response)


@pytest.mark.parametrize("lang, line", [
    ("fr", " joue Card [5 5 5 5] [5 5 5 5] en B2."),
    ("pl", " zagrywa Card [5 5 5 5] [5 5 5 5] na B2."),
])
def test_the_history_says_a_play_in_the_readers_language(browser, lang, line):
    token = new_table(browser)
    typed(browser, token, "B2", [5, 5, 5, 5])
    browser.get(f"/language/{lang}?next=/")
    assert line in text(browser.get(f"/t/{token}/history"))


@pytest.mark.parametrize("lang, refusal", [
    ("fr", f"Z9 est hors du plateau{NBSP}: les cases vont de A1 à C3."),
    ("pl", "Z9 jest poza planszą: pola są od A1 do C3."),
])
def test_the_api_refuses_in_the_accepted_language_with_the_english_code(app, lang, refusal):
    body = {"size": 3, "seats": {"p1": "S", "p2": "N"}, "board": {},
            "play": {"player": "p1", "cell": "Z9", "edges": [1, 1, 1, 1]}}
    response = app.test_client().post("/api/v1/tactics/play", data=json.dumps(body), content_type="application/json",
                                      headers={"Accept-Language": lang})
    error = response.get_json()["error"]
    assert error["code"] == "off_board" and error["message"] == refusal
