"""A rematch reaches every phone of the finished table (issue 37, item 4): each one's next poll of the
finished table carries "Join the rematch" with its own role's link there, the referee's, the
viewer's, or for a seated player's phone the same player's seat, still private to that phone."""

from __future__ import annotations

import random
import re

from companion import store
from companion.http.context import get_db
from companion.rules import forteresse
from tests.conftest import Browser, text

JOIN = re.compile(r'<a class="button" href="/t/([\w-]+)">Join the rematch</a>')
HINTS = {
    "referee": "The rematch is started.",
    "viewer": "The rematch is started: watch it from here.",
    "Ola": "The rematch is started: Ola's seat there, still private to this phone.",
    "Kuba": "The rematch is started: Kuba's seat there, still private to this phone.",
}


def _who(link: store.Link) -> str:
    """A link's key in these tests: its role, or a seat's player."""
    return link.label if link.role == "seat" else link.role


def _links(app, token: str) -> dict[str, str]:
    """The tokens of the table that ``token`` opens, by ``_who``."""
    with app.app_context():
        conn = get_db()
        return {
            _who(link): link.token for link in store.table_links(conn, store.find_link(conn, token).table_id)
        }


def _played_to_the_end(app, token: str) -> None:
    """Both rounds of the table played by the rules' own random legal moves."""
    with app.app_context():
        conn = get_db()
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        rng = random.Random(37)
        while (move := forteresse.random_legal_action(table.state, rng)) is not None:
            table = store.act(conn, forteresse, table.id, move[0], move[1], None)


def test_every_phones_next_poll_offers_the_rematch_with_its_own_link(app, browser):
    referee = browser.create_table(
        "forteresse", {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    old = _links(app, referee)
    phones = {"referee": browser, **{who: Browser(app.test_client()) for who in ("viewer", "Ola", "Kuba")}}
    for who in ("viewer", "Ola", "Kuba"):
        assert phones[who].get(f"/t/{old[who]}").status_code == 200  # a seat's phone claims it
    _played_to_the_end(app, referee)
    etags = {}
    for who, phone in phones.items():
        finished = phone.get(f"/t/{old[who]}/live")
        assert "This table is finished." in text(finished) and "Join the rematch" not in text(finished), who
        etags[who] = finished.headers["ETag"]
    started = browser.post(f"/t/{referee}/rematch")
    new = _links(app, started.headers["Location"].rsplit("/t/", 1)[1])
    assert set(new) == set(old) and set(new.values()).isdisjoint(old.values())

    for who, phone in phones.items():  # one poll each, from what it showed before the rematch
        poll = phone.get(f"/t/{old[who]}/live", headers={"If-None-Match": etags[who]})
        assert poll.status_code == 200, who
        assert JOIN.findall(text(poll)) == [new[who]], who
        assert HINTS[who] in text(poll), who
        assert ">Rematch</button>" not in text(poll), who  # once made, the referee joins it too
    for who in ("Ola", "Kuba"):  # the same player's seat, still private to the phone that held it
        assert f"This is {who}'s private screen" in text(phones[who].get(f"/t/{new[who]}"))
        assert Browser(app.test_client()).get(f"/t/{new[who]}").status_code == 403, who
    assert "You are watching" in text(phones["viewer"].get(f"/t/{new['viewer']}"))
    assert "You are the referee" in text(browser.get(f"/t/{new['referee']}"))
