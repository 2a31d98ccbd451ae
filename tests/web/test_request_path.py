"""The request path's shortcuts keep behaviour: what they skip is only what could not change."""

from __future__ import annotations

import sqlalchemy as sa

from companion.app import POLL_SECONDS
from companion.store import db
from companion.store.db import remembered


def _seen(app, token: str) -> str:
    with db.connect(app.config["DATABASE"]) as conn:
        return conn.execute(sa.select(remembered.c.seen_at).where(remembered.c.token == token)).scalar_one()


def test_reloading_the_table_last_opened_writes_nothing_but_returning_to_it_does(app, browser):
    first = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    second = browser.create_table("scorepad", {"players": "Ewa\nJan"})
    browser.get(f"/t/{first}")
    opened = _seen(app, first)
    assert browser.get(f"/t/{first}").status_code == 200
    assert _seen(app, first) == opened  # a reload: the table already heads the list
    browser.get(f"/t/{second}")
    browser.get(f"/t/{first}")
    assert _seen(app, first) > _seen(app, second) > opened  # back to the first: it heads the list again


def test_the_live_fragment_asks_the_phone_to_poll_at_the_configured_interval(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    live = browser.get(f"/t/{token}/live")
    assert f'data-poll-ms="{int(POLL_SECONDS * 1000)}"' in live.data.decode()
    assert POLL_SECONDS < 1  # a move seen within a second at the 95th percentile (docs/deploy.md)


def test_a_score_pads_round_links_built_once_still_open_that_round_for_correction(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    for version, points in enumerate((["3", "4"], ["5", "6"], ["7", "8"])):
        answer = browser.post(f"/t/{token}/act", {"version": str(version), "points": points}, htmx=True)
        assert answer.status_code == 200, answer.data[:300]
    page = browser.get(f"/t/{token}").data.decode()
    for number in (1, 2, 3):
        assert f'href="/t/{token}?correct={number}#round-form"' in page
        assert f'hx-get="/t/{token}?correct={number}"' in page
    correcting = browser.get(f"/t/{token}?correct=2").data.decode()
    assert "Correct round 2" in correcting and 'value="5"' in correcting and 'value="6"' in correcting
    assert f'href="/t/{token}"' in correcting  # the Cancel link


def test_limits_hold_without_the_limiters_check_before_every_request(tmp_path):
    from companion.app import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "t", "TESTING": True, "TABLES_PER_MINUTE": 2}
    )
    client = app.test_client()
    made = [
        client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola"]}})
        for _ in range(3)
    ]
    assert [answer.status_code for answer in made] == [201, 201, 429]
    assert "This address has created 2 tables in the last minute." in made[2].get_data(as_text=True)


def test_the_quick_schema_check_accepts_only_what_jsonschema_accepts():
    import random

    from jsonschema import Draft202012Validator

    from companion.service import games, schemas
    from companion.web import views

    candidates = [
        None,
        True,
        False,
        0,
        1,
        -1,
        3,
        1.0,
        2.5,
        "",
        "a",
        "round",
        "x" * 300,
        [],
        [1, 2],
        [True],
        [1.0],
        ["a"],
        [1] * 20,
        {},
        {"a": 1},
    ]
    variants = []
    for game in games.discover(views).games.values():
        for schema in (game.action_schema, game.options_schema):
            if schema:
                variants += schema.get("oneOf", [schema])
    chance, surely = random.Random(15), 0
    for schema in variants:
        fields = list(schema.get("properties", {}))
        consts = [spec.get("const") for spec in schema.get("properties", {}).values() if "const" in spec]
        enums = [choice for spec in schema.get("properties", {}).values() for choice in spec.get("enum", [])]
        pool = candidates + consts + enums
        for _ in range(400):
            value = {name: chance.choice(pool) for name in fields if chance.random() < 0.8}
            if chance.random() < 0.1:
                value["extra"] = 1
            if schemas._surely_valid(schema, value):
                surely += 1
                assert Draft202012Validator(schema).is_valid(value), (schema, value)
    assert surely > 50, surely  # the quick check does answer for the games' usual actions
