"""After a move or an undo the store keeps the table's decoded state in memory (``heads.HEADS``)
and hands that same object to the request's answer (the API's view, the htmx fragment) and to the
next change; the JSON encoder reuses the text it wrote for the parts it has met before
(``companion/jsontext.py``). Both rest on nobody changing a state in place: an answer that did
would leave the next move made on a table that is not the recorded one. Every answer a phone
gets, for every game through a whole random game, must leave the kept state as recorded."""

from __future__ import annotations

import importlib
import random

import pytest

from bench.bench import BENCH_OPTIONS, random_moves
from companion import store
from companion.app import create_app
from companion.store import db, heads
from tests.conftest import Browser

GAMES = {"scorepad": {"players": ["Ola", "Kuba", "Ada"]}, **BENCH_OPTIONS}


def _paths(links: list[store.Link]) -> list[tuple[str, dict]]:
    """What each of the table's phones reads: its page and its poll's fragment; the referee's history,
    replay and links too, and the API's view of each link."""
    read = []
    for link in links:
        read += [(f"/t/{link.token}", {}), (f"/t/{link.token}/live", {"HX-Request": "true"})]
        read += [(f"/api/v1/tables/{link.token}", {})]
        if link.role == "referee":
            read += [(f"/t/{link.token}/{page}", {}) for page in ("history", "replay", "links")]
    return read


def _as_this_phone(client) -> dict:
    """The header that proves, through the API, that this client is the phone that claimed the seats
    it opened on the pages: its session's identity is its claims' secret."""
    with client.session_transaction() as session:
        return {"Seat-Claim": session["member"]} if "member" in session else {}


def _recorded(database: str, table_id: str) -> tuple[int, dict]:
    """The table's version and state as the database holds them now (read afresh)."""
    with db.connect(database) as conn:
        return store.table_version(conn, table_id), store.stored_state(conn, table_id)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_reading_every_page_leaves_the_kept_state_as_recorded(tmp_path, name):
    database = str(tmp_path / "castellan.sqlite3")
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SWEEP_DAYS": 0})
    rules = importlib.import_module(f"companion.rules.{name}")
    with db.connect(database) as conn:
        table, links = store.create_table(conn, rules, name, GAMES[name])
    moves = random_moves(name, rules, table.state, random.Random(f"cache {name}"), limit=120)
    assert len(moves) > 10, "a game long enough to reach its later phases"
    client = app.test_client()
    phone = Browser(app.test_client())
    phone.get(f"/t/{links[0].token}")
    referee = links[0].token
    token_of = {"referee": referee, **{link.seat: link.token for link in links if link.role == "seat"}}
    checked, version = 0, table.version
    for number, (actor, action) in enumerate(moves, start=1):
        # Through the API, whose answer is drawn from the state the move leaves (the kept one).
        answer = client.post(
            f"/api/v1/tables/{token_of.get(actor, referee)}/actions",
            json={"action": action, "version": version},
            headers=_as_this_phone(client),
        )
        assert answer.status_code == 200, (number, actor, action, answer.get_json())
        version, state = _recorded(database, table.id)
        if number % 7 and number != len(moves):
            continue
        # The referee's Undo on the page (htmx: the fragment drawn from the kept state), and the move again.
        undone = phone.post(f"/t/{referee}/undo", {"version": version}, htmx=True)
        assert undone.status_code == 200, undone.data[:300]
        version, state = _recorded(database, table.id)
        assert heads.HEADS.state(table.id, version) == state
        again = client.post(
            f"/api/v1/tables/{token_of.get(actor, referee)}/actions",
            json={"action": action, "version": version},
            headers=_as_this_phone(client),
        )
        assert again.status_code == 200, again.get_json()
        version, state = _recorded(database, table.id)
        for path, headers in _paths(links):
            response = client.get(path, headers={**headers, **_as_this_phone(client)})
            assert response.status_code == 200, (path, response.data[:200])
        kept = heads.HEADS.state(table.id, version)
        assert kept is not None, "the state of the last move is kept decoded"
        assert kept == state, f"a page changed the kept state after move {number}"
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_table_read_back_shows_what_the_move_answer_showed(tmp_path, name):
    """The state a move leaves is kept as ``apply`` made it; a worker that did not make the move reads
    it back from its JSON, whose keys the store sorts. Every link's fragment must read the same from
    either, through a whole random game (Castle's final score once listed its teams the other way
    round from a state read back)."""
    import dataclasses
    import json
    import re

    from companion.web.views import tables

    database = str(tmp_path / "castellan.sqlite3")
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SWEEP_DAYS": 0})
    rules = importlib.import_module(f"companion.rules.{name}")
    with db.connect(database) as conn:
        table, links = store.create_table(conn, rules, name, GAMES[name])
        game = app.extensions["castellan.games"].games[name]
        fresh = re.compile(r'(value="|/t/)[\w-]{16,}')  # each drawing's own form keys and tokens
        compared = 0
        for actor, action in random_moves(
            name, rules, table.state, random.Random(f"order {name}"), limit=400
        ):
            table = store.act(conn, rules, table.id, actor, action, table.version)
            read_back = dataclasses.replace(table, state=json.loads(json.dumps(table.state, sort_keys=True)))
            for link in links:
                with app.test_request_context(f"/t/{link.token}", headers={"HX-Request": "true"}):
                    as_made = tables._render_table(link, table, game).get_data(as_text=True)
                    as_read = tables._render_table(link, read_back, game).get_data(as_text=True)
                assert fresh.sub("", as_read) == fresh.sub("", as_made), (link.role, link.seat, table.version)
                compared += 1
    assert compared > 20
