"""Square Tactics with the real hands: the referee ticks each player's cards, a player's own link
shows and enters only that player's hand and plays that player's turns, a card outside an entered
hand is refused in words, and nobody else's page, fragment, history, export or API answer holds it."""

from __future__ import annotations

import re

from tests.conftest import everything_seen, table_state, text, with_state_changed
from tests.web.test_tactics import act, mover, new_table, page, version


def links(browser, token) -> dict[str, str]:
    html = browser.get(f"/t/{token}/links").data.decode()
    return dict(re.findall(r"<strong>([^<]+)</strong>.*?href=\"https?://[^/]+/t/([\w-]+)\"", html, re.S))


def enter_hand(browser, token, player: str, cards: list[str], htmx=True):
    return act(browser, token, {"type": "hand", "player": player, "cards": cards}, htmx=htmx)


def names(state: dict, cards: list[str]) -> list[str]:
    return [state["cards"][card]["name"] for card in cards]


def test_the_referee_ticks_a_hand_and_a_card_outside_it_is_refused(browser, app):
    token = new_table(browser)
    html = page(browser, token)
    player = "p1" if mover(html) == "Ola" else "p2"
    assert 'id="enter-hands"' in html and f'id="hand-{player}"' in html
    assert "is not entered here: any unplayed card of the faction is accepted" in html
    state = table_state(app, token)
    hand, outside = state["unplayed"][player][:3], state["unplayed"][player][4]
    answer = enter_hand(browser, token, player, hand)
    assert answer.status_code == 200 and "(3 of 3 entered)" in text(answer)
    assert table_state(app, token)["hands"][player] == hand
    refused = act(browser, token, {"cell": "B2", "card": outside})
    assert refused.status_code == 422
    message = f"{names(state, [outside])[0]} is not in {mover(html)}'s hand, which holds {', '.join(names(state, hand))}."
    assert message in text(refused) and 'role="alert"' in text(refused)
    assert table_state(app, token)["board"] == {}
    played = act(browser, token, {"cell": "B2", "card": hand[0]}, htmx=False)
    assert played.status_code == 303 and table_state(app, token)["board"]["B2"]["card"] == hand[0]


def test_without_javascript_the_refusal_is_said_on_the_page(browser, app):
    token = new_table(browser)
    html = page(browser, token)
    player = "p1" if mover(html) == "Ola" else "p2"
    state = table_state(app, token)
    assert enter_hand(browser, token, player, state["unplayed"][player][:3], htmx=False).status_code == 303
    refused = act(browser, token, {"cell": "A1", "card": state["unplayed"][player][6]}, htmx=False)
    assert refused.status_code == 422 and table_state(app, token)["board"] == {}
    assert re.search(r'role="alert"[^>]*>[^<]*is not in', text(refused))
    four = state["unplayed"][player][:4]
    too_many = enter_hand(browser, token, player, four, htmx=False)
    assert too_many.status_code == 422 and "holds 3 cards, and 4 were chosen." in text(too_many)
    ticked = re.findall(rf'name="cards_{player}" value="([\w-]+)" checked', text(too_many))
    assert ticked == four  # the ticks are kept, to untick one
    assert table_state(app, token)["hands"][player] == state["unplayed"][player][:3]


def test_a_players_link_shows_enters_and_plays_only_its_own_hand(browser, other_browser, app):
    token = new_table(browser)
    seats = links(browser, token)
    ola, kuba = seats["Ola"], seats["Kuba"]
    state = table_state(app, token)
    hand = state["unplayed"]["p1"][:3]
    entered = enter_hand(other_browser, ola, "p1", hand)
    assert entered.status_code == 200 and "Your hand" in text(entered)
    for name in names(state, hand):
        assert name in text(other_browser.get(f"/t/{ola}"))
    refused = enter_hand(other_browser, ola, "p2", state["unplayed"]["p2"][:3])
    assert refused.status_code == 422 and "only that player's own hand" in text(refused)
    assert table_state(app, token)["hands"]["p2"] == []
    turn = table_state(app, token)["turn"]
    mine, theirs = (ola, kuba) if turn == "p1" else (kuba, ola)
    card = table_state(app, token)["hands"][turn][0] if turn == "p1" else state["unplayed"]["p2"][0]
    assert act(other_browser, theirs, {"cell": "A1", "card": "p1-01"}).status_code == 422
    assert act(other_browser, mine, {"cell": "A1", "card": card}).status_code == 200
    assert table_state(app, token)["board"]["A1"]["card"] == card


def test_a_hand_is_seen_by_the_referee_and_its_player_only(browser, other_browser, app):
    token = new_table(browser)
    seats = links(browser, token)
    state = table_state(app, token)
    hand = state["unplayed"]["p1"][:3]
    enter_hand(browser, token, "p1", hand)
    refusal = {"type": "hand", "player": "p1", "cards": ["nobody"]}
    for name in names(state, hand):
        assert name in page(browser, token)
    assert set(seats) >= {"Ola", "Kuba", "Viewer"}
    for token_seen in (seats["Kuba"], seats["Viewer"]):
        before = everything_seen(other_browser, token_seen, refusal)
        changed = with_state_changed(
            app,
            token,
            lambda s: {**s, "hands": {**s["hands"], "p1": s["unplayed"]["p1"][3:6]}},
            lambda seen=token_seen: everything_seen(other_browser, seen, refusal),
        )
        assert before == changed
    history = text(browser.get(f"/t/{token}/history"))
    assert "Ola's hand was entered (cards known: 3 of 3)." in history
    polish = text(browser.get(f"/t/{token}/history", headers={"Accept-Language": "pl"}))
    assert "Wpisano rękę gracza Ola (znane karty: 3 z 3)." in polish
    assert not any(name in history for name in names(state, hand))


def test_the_api_enters_a_hand_and_refuses_a_card_outside_it(browser, app):
    token = new_table(browser)
    state = table_state(app, token)
    player = state["turn"]
    hand = state["unplayed"][player][:3]
    api = browser.client
    answer = api.post(
        f"/api/v1/tables/{token}/actions",
        json={"action": {"type": "hand", "player": player, "cards": hand}, "version": 0},
    )
    assert answer.status_code == 200, answer.get_json()
    seen = next(p for p in answer.get_json()["view"]["players"] if p["id"] == player)
    assert [card["id"] for card in seen["hand"]] == hand and seen["not_entered"] == 0
    refused = api.post(
        f"/api/v1/tables/{token}/actions",
        json={
            "action": {"type": "play", "cell": "A1", "card": state["unplayed"][player][5]},
            "version": answer.get_json()["version"],
        },
    )
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "not_in_hand"
    bad = api.post(
        f"/api/v1/tables/{token}/actions",
        json={
            "action": {"type": "hand", "player": player, "cards": "x"},
            "version": answer.get_json()["version"],
        },
    )
    assert bad.status_code == 422 and table_state(app, token)["hands"][player] == hand
    assert version(page(browser, token)) == answer.get_json()["version"]


def test_the_help_says_which_cards_are_accepted(browser):
    html = text(browser.get("/tactics/help"))
    assert "only a card of that hand can be played; any other card is refused" in html
    assert (
        "any unplayed card of the player&#39;s faction is accepted" in html
        or "any unplayed card of the player's faction is accepted" in html
    )
    assert "shuffles a copy" not in html


def test_one_form_enters_every_seats_hand_and_its_save_button_says_whose(browser, app):
    """The referee's hands are one form: each seat's boxes are named cards_<seat>, and the Save
    button tapped sends its seat, so only that seat's ticks are entered."""
    token = new_table(browser)
    html = page(browser, token)
    start = html.index('id="enter-hands"')
    hands = html[start : html.index("</div>\n\n", start)]
    assert hands.count("<form ") == 1 and hands.count("</form>") == 1
    assert re.findall(r'<button type="submit" name="player" value="(p\d)">Save (\w+)\'s hand', hands) == [
        ("p1", "Ola"),
        ("p2", "Kuba"),
    ]
    state = table_state(app, token)
    boxes = {seat: re.findall(rf'name="cards_{seat}" value="([\w-]+)"', hands) for seat in ("p1", "p2")}
    assert boxes == state["unplayed"]
    ticked = {"cards_p1": state["unplayed"]["p1"][:1], "cards_p2": state["unplayed"]["p2"][2:5]}
    answer = act(browser, token, {"type": "hand", "player": "p2", **ticked})
    assert answer.status_code == 200 and "Enter Kuba's hand (3 of 3 entered)" in text(answer)
    assert table_state(app, token)["hands"] == {"p1": [], "p2": state["unplayed"]["p2"][2:5]}
    saved = re.findall(r'name="cards_p2" value="([\w-]+)" checked', text(answer))
    assert saved == state["unplayed"]["p2"][2:5]
