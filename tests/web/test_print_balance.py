"""The balance check of a faction of one's own before printing it (issue 40): step by step, each
step carrying the results before it, then the win rate against each shipped faction, the same
as the simulator's own figures for that faction."""

from __future__ import annotations

import json
import re

from companion.rules import tactics, tactics_balance
from tests.conftest import text

MINE = {**tactics.load_factions()["roost"], "name": "Ravens of Kraków"}
STRONG = {"name": "Giants", "cards": [{"name": f"Giant {n}", "edges": [9, 9, 9, 9]} for n in range(12)]}


def _checked(client, faction: dict) -> tuple[list[str], str]:
    """Every step's progress sentence, and the last step's page."""
    said, played, steps = [], "", 0
    while True:
        query = {"deck": json.dumps(faction), "played": played}
        page = text(client.get("/print/balance", query_string=query, headers={"HX-Request": "true"}))
        steps += 1
        assert steps <= 8, "more steps than pairings and seatings"
        found = re.search(r'name="played" value="([^"]*)"', page)
        if not found:
            return said, page
        said.append(re.search(r'<p role="status">([^<]*)</p>', page).group(1))
        played = found.group(1)


def test_the_check_plays_each_shipped_faction_step_by_step_and_agrees_with_the_simulator(app):
    said, page = _checked(app.test_client(), MINE)
    assert said[0] == "Playing game 250 of 2,000 against the shipped factions…" and len(said) == 7
    simulated = tactics_balance.balance(
        {**tactics.load_factions(), tactics_balance.OWN: tactics.validate_faction(MINE)}, 250, 1
    )
    for shipped, faction in tactics.load_factions().items():
        rate = round(simulated[(tactics_balance.OWN, shipped)]["rate"] * 100)
        assert re.search(rf"<th scope=\"row\">{faction['name']}</th><td>{rate} %</td>", page), shipped
    assert "the faction is fair against the shipped ones" in page


def test_a_faction_far_too_strong_is_said_so_before_printing(app):
    _said, page = _checked(app.test_client(), STRONG)
    assert page.count("Too strong") == 4 and "change a few edges and check again" in page


def test_results_that_are_not_a_step_s_shape_start_the_check_again(app):
    query = {"deck": json.dumps(MINE), "played": "250.0.0,999999.1.1"}
    page = text(app.test_client().get("/print/balance", query_string=query, headers={"HX-Request": "true"}))
    assert '<progress max="8" value="1">' in page


def test_a_faction_the_rules_refuse_is_refused_with_the_wrong_field_and_nothing_played(app):
    bad = {**MINE, "cards": MINE["cards"][:5]}
    answer = app.test_client().get("/print/balance", query_string={"deck": json.dumps(bad)})
    assert answer.status_code == 400 and "(the field deck.cards)" in text(answer)
    assert "<progress" not in text(answer)


def test_without_script_each_step_is_a_page_with_a_button_for_the_next(app):
    client = app.test_client()
    page = text(client.get("/print/balance", query_string={"deck": json.dumps(MINE)}))
    assert '<html lang="en">' in page and '<noscript><button type="submit">Go on</button></noscript>' in page
    assert 'formaction="/print/balance"' in text(client.get("/print"))
