"""The score pad: negative points by the ± toggle, empty fields, lowest total wins, corrections;
and the answer to each post (recorded, refused with the input kept) with and without htmx."""

from __future__ import annotations

import re

import pytest

from companion.rules import scorepad
from companion.rules.errors import RuleError
from tests.conftest import table_state, text


def _round(browser, token, version, points, minus=(), htmx=False, **extra):
    data = {
        "version": str(version),
        "points": [str(p) for p in points],
        "minus": [str(i) for i in minus],
        **extra,
    }
    return browser.post(f"/t/{token}/act", data, htmx=htmx)


def table_state_rounds(browser, token):
    return table_state(browser.client.application, token)["rounds"]


def _totals(html: str) -> list[str]:
    return re.findall(r'class="total">(-?\d+)<', html)


def test_the_round_form_has_empty_fields_and_a_sign_toggle_for_every_player(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    html = text(browser.get(f"/t/{token}"))
    fields = re.findall(r'<input id="points-\d"[^>]*>', html, re.S)
    assert len(fields) == 2 and all('value=""' in field and 'placeholder="0"' in field for field in fields)
    assert html.count('name="minus"') == 2 and "Negative points for Kuba" in html


def test_the_sign_toggle_makes_points_negative_and_an_empty_field_is_zero(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba\nAda"})
    _round(browser, token, 0, [5, 3, ""], minus=[1])
    assert table_state_rounds(browser, token) == [[5, -3, 0]]
    assert _totals(text(browser.get(f"/t/{token}"))) == ["5", "-3", "0"]


def test_lowest_total_wins_is_chosen_at_creation(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba", "lowest_wins": "yes"})
    _round(browser, token, 0, [5, 3])
    html = text(browser.get(f"/t/{token}"))
    assert "Leading, with the lowest total: Kuba" in html
    other = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    _round(browser, other, 0, [5, 3])
    assert "Leading: Ola" in text(browser.get(f"/t/{other}"))


def test_a_past_round_is_corrected_as_a_move_of_its_own_and_undone_like_one(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    _round(browser, token, 0, [5, 3])
    _round(browser, token, 1, [1, 1])
    form = text(browser.get(f"/t/{token}?correct=1"))
    assert "Correct round 1" in form and 'name="round" value="1"' in form and 'value="5"' in form
    response = _round(browser, token, 2, [5, 7], minus=[1], htmx=True, round="1", type="correct")
    body = text(response)
    assert "<strong>Recorded.</strong> Round 1 corrected: Ola 5, Kuba -7." in body
    assert _totals(body) == ["6", "-6"] and "corrected</span>" in body
    history = text(browser.get(f"/t/{token}/history"))
    assert "Round 1 corrected: Ola 5, Kuba -7." in history and "Round 2: Ola 1, Kuba 1." in history
    undone = text(browser.post(f"/t/{token}/undo", {"version": "3"}, htmx=True))
    assert _totals(undone) == ["6", "4"] and "corrected</span>" not in undone


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_correction_says_why_and_keeps_what_was_typed(browser, htmx):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    _round(browser, token, 0, [5, 3])
    response = _round(browser, token, 1, [5, 3], htmx=htmx, round="1", type="correct")
    body = text(response)
    assert response.status_code == 422
    assert re.search(r'role="alert">Round 1 already has these points: nothing to correct\.<', body)
    assert ("<html" in body) is not htmx  # without htmx, the whole page at once: no redirect to lose the form
    assert "Correct round 1" in body and re.search(r'id="points-0"[^>]*value="5"', body, re.S)
    assert table_state_rounds(browser, token) == [[5, 3]]


def test_a_refused_round_keeps_its_typed_numbers_and_sign_toggles_without_htmx(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    response = _round(browser, token, 0, ["7", "many"], minus=[0])
    body = text(response)
    assert response.status_code == 422 and "“many” is not a whole number of points." in body
    assert re.search(r'id="points-0"[^>]*value="7"', body, re.S) and re.search(
        r'id="points-1"[^>]*value="many"', body, re.S
    )
    assert re.search(r'name="minus" value="0" checked', body) and not re.search(
        r'name="minus" value="1" checked', body
    )


def test_without_htmx_the_page_after_a_move_says_what_was_recorded_while_it_is_the_last_move(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    response = _round(browser, token, 0, [2, 9])
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}?recorded=1")
    shown = text(browser.get(response.headers["Location"]))
    assert re.search(r'role="status"><strong>Recorded.</strong> Round 1: Ola 2, Kuba 9.<', shown)
    _round(browser, token, 1, [1, 1])
    assert "Recorded." not in text(browser.get(f"/t/{token}?recorded=1"))  # not the last move any more


def test_the_rules_refuse_a_correction_of_a_round_not_played():
    state = scorepad.new_table({"players": ["Ola", "Kuba"]}, 1)
    state = scorepad.apply(state, {"type": "round", "points": [1, 2]}, "referee")
    for number in (0, 2, "1", True):
        with pytest.raises(RuleError) as refused:
            scorepad.apply(state, {"type": "correct", "round": number, "points": [3, 3]}, "referee")
        assert refused.value.message == "Only round 1 can be corrected."
    with pytest.raises(RuleError):
        scorepad.new_table({"players": ["Ola"], "lowest_wins": "yes"}, 1)


def test_the_api_corrects_a_round_and_a_lowest_wins_pad_names_the_lowest_winner(app):
    client = app.test_client()
    created = client.post(
        "/api/v1/tables",
        json={"game": "scorepad", "options": {"players": ["Ola", "Kuba"], "lowest_wins": True}},
    )
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["links"]["referee"]["token"]
    base = f"/api/v1/tables/{token}"
    assert (
        client.post(
            f"{base}/actions", json={"action": {"type": "round", "points": [5, 3]}, "version": 0}
        ).status_code
        == 200
    )
    corrected = client.post(
        f"{base}/actions", json={"action": {"type": "correct", "round": 1, "points": [2, 3]}, "version": 1}
    )
    assert corrected.status_code == 200, corrected.get_json()
    finished = client.post(f"{base}/finish", json={"version": 2}).get_json()
    players = finished["table"]["result"]["players"] if "table" in finished else finished["result"]["players"]
    assert [(p["name"], p["score"], p["winner"]) for p in players] == [("Ola", 2, True), ("Kuba", 3, False)]


def test_a_long_evenings_rows_are_light_and_each_shows_its_own_round_after_a_correction(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba\nAda"})
    for version in range(60):
        assert _round(browser, token, version, [version, 2 * version, 3], htmx=True).status_code == 200
    corrected = _round(browser, token, 60, [7, 8, 9], htmx=True, round="14", type="correct")
    body = text(corrected)
    rows = re.findall(r"<tr[^>]*><th scope=\"row\">.*?</tr>", body.split("</tbody>")[0], re.S)
    assert (
        len(rows) == 60 and len(body.encode()) < 17_000
    )  # 25 kB when each row carried its htmx target and pencil
    assert 'hx-target="#live" hx-swap="outerHTML show:#round-form:bottom"' in body.split("<tbody", 1)[1][:80]
    for number, row in enumerate(rows, start=1):
        points = ["7", "8", "9"] if number == 14 else [str(number - 1), str(2 * (number - 1)), "3"]
        assert re.findall(r"<td>(-?\d+)</td>", row) == points
        assert (
            f'hx-get="/t/{token}?correct={number}"' in row and f'aria-label="Correct round {number}"' in row
        )
        assert ("corrected" in row) == (number == 14)
    correcting = text(browser.get(f"/t/{token}?correct=23"))
    marked = re.findall(
        r'<tr class=correcting><th scope="row"><a [^>]*aria-label="Correct round (\d+)"', correcting
    )
    assert marked == ["23"] and 'name="round" value="23"' in correcting
    assert _totals(body) == [str(sum(range(60)) - 13 + 7), str(2 * sum(range(60)) - 26 + 8), str(3 * 59 + 9)]
