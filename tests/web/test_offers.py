"""Only what a person may do is offered on their phone (issue 37.5): through every game's phases, each
form a phone is shown is held to what the server would answer that phone's role. A viewer is shown
no form that changes the table; a player none that only the referee may send (Undo, Finish, Rematch,
the next game, Pause, Add time); and no one a move the rules already refuse for want of what it needs (a burn with no
fort card)."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from companion import store
from companion.http.context import get_db, registry
from companion.rules.errors import RuleError
from tests.conftest import text, with_state_changed

GAMES = {
    "scorepad": {"players": "Ola\nKuba"},
    # With a chess clock: the referee's Add time is held to the roles too.
    "castle": {
        "players": "2",
        "dealer": "N",
        "name_N": "Ola",
        "name_S": "Kuba",
        "clock": "chess",
        "clock_minutes": "5",
    },
    "fort": {"players": "2", "name_1": "Ann", "name_2": "Bob"},
    "forteresse": {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"},
    "tactics": {
        "players": "2",
        "faction_p1": "wardens",
        "faction_p2": "roost",
        "name_p1": "Ola",
        "name_p2": "Kuba",
    },
    "zamek": {"players": ["Ola", "Kuba", "", ""], "variant": "basic", "deck": "default", "voting": "yes"},
}
# The refusals that say a form was offered to a phone whose role may not send it.
NOT_YOURS = {"referee_only", "not_referee", "not_your_turn", "not_your_hand", "unknown_actor", "viewer_link"}
# Every post a table page may offer: a move, and the referee's own changes (the clock's among them).
CHANGES = ("act", "undo", "finish", "release", "rematch", "pause", "resume", "time")


class _Forms(HTMLParser):
    """The forms of a page posting to a table: ``[(action, fields, buttons)]``."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, list[dict], list[dict]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "get").lower() == "post":
            self.forms.append((attrs.get("action", ""), [], []))
        elif self.forms and tag in ("input", "select", "textarea"):
            self.forms[-1][1].append({"tag": tag, **attrs})
        elif self.forms and tag == "button" and attrs.get("type", "submit") == "submit":
            self.forms[-1][2].append(attrs)


def _sent(fields: list[dict], button: dict) -> dict:
    """What tapping ``button`` sends: hidden and typed fields, the chosen (else first) of each choice."""
    data: dict = {}
    for field in fields:
        name, kind = field.get("name"), field.get("type", "text")
        if not name or name in data:
            continue
        if kind in ("radio", "checkbox"):
            if "checked" in field or not any(f.get("name") == name and "checked" in f for f in fields):
                data[name] = field.get("value", "on")
        elif kind != "submit":
            data[name] = field.get("value", "")
    if button.get("name"):
        data[button["name"]] = button.get("value", "")
    return data


def _links(browser, token: str) -> dict[str, str]:
    page = text(browser.get(f"/t/{token}/links"))
    return dict(re.findall(r"<strong>([^<]+)</strong>.*?href=\"https?://[^/]+/t/([\w-]+)\"", page, re.S))


def _check_offers(browser, game, link, state) -> list[str]:
    """What ``link``'s page offers that the server would refuse its role, as sentences."""
    wrong = []
    page = text(browser.get(f"/t/{link.token}"))
    forms = _Forms()
    forms.feed(page)
    for action, fields, buttons in forms.forms:
        change = action.rsplit("/", 1)[-1]
        if f"/t/{link.token}/" not in action or change not in CHANGES:
            continue
        if link.role == "viewer" or (link.role == "seat" and change != "act"):
            wrong.append(f"{link.role} is offered {change}")
            continue
        if change != "act":
            continue
        for button in buttons or [{}]:
            sent = _sent(fields, button)
            try:
                move = game.table_action(sent, link.viewer)
                game.rules.apply(state, game.checked_action(move), link.viewer)
            except RuleError as refused:
                if refused.code in NOT_YOURS:
                    wrong.append(f"{link.role} {link.label} is offered {sent.get('type')}: {refused.code}")
    return wrong


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_phase_offers_each_phone_only_what_the_server_accepts_from_it(app, browser, slug):
    token = browser.create_table(slug, GAMES[slug])
    with app.app_context():
        conn = get_db()
        game = registry().games[slug]
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        links = [store.find_link(conn, each) for each in _links(browser, token).values()]
    rng, state, wrong = random.Random(37), table.state, []
    for _ in range(400):  # a whole game, played by the rules' own random legal moves
        wrong += with_state_changed(
            app,
            token,
            lambda _, checked=state: checked,
            lambda checked=state: [w for link in links for w in _check_offers(browser, game, link, checked)],
        )
        chosen = game.rules.random_legal_action(state, rng)
        if chosen is None:
            break
        state = game.rules.apply(state, chosen[1], chosen[0])
    assert not sorted(set(wrong)), sorted(set(wrong))
