"""Tables over the JSON API: create, read with ETag and 304, act, undo, finish, log, the errors,
every move exactly once with an Idempotency-Key, and ten phones acting at once; on SQLite and on
a throwaway PostgreSQL server."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from companion import store
from companion.http.context import get_db

pytestmark = pytest.mark.both_backends


@pytest.fixture
def client(app):
    return app.test_client()


def _pad(client, players=("Ola", "Kuba")) -> dict:
    response = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": list(players)}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _round(client, token, points, version, key=None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        f"/api/v1/tables/{token}/actions",
        json={"action": {"type": "round", "points": points}, "version": version},
        headers=headers,
    )


def _rounds_logged(app, token) -> list[list[int]]:
    with app.app_context():
        table_id = store.find_link(get_db(), token).table_id
        return [entry["action"]["points"] for entry in reversed(store.history(get_db(), table_id))]


def test_creating_gives_every_link_and_the_referees_table(client):
    created = _pad(client)
    links = created["links"]
    assert created["game"] == "scorepad" and links["seats"] == []
    assert links["referee"]["token"] != links["viewer"]["token"]
    assert links["referee"]["url"].endswith(f"/t/{links['referee']['token']}")
    table = created["table"]
    assert (table["role"], table["seat"], table["version"], table["finished"]) == ("referee", None, 0, False)
    assert table["view"]["players"] == ["Ola", "Kuba"]
    viewer = client.get(f"/api/v1/tables/{links['viewer']['token']}").get_json()
    assert viewer["role"] == "viewer" and viewer["view"]["can_act"] is False


def test_options_are_the_start_forms_fields_and_bad_ones_say_why(client):
    as_form = client.post(
        "/api/v1/tables", json={"game": "scorepad", "options": {"players": "Ola\nKuba\nAda"}}
    )
    assert as_form.get_json()["table"]["view"]["players"] == ["Ola", "Kuba", "Ada"]
    twice = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola", "Ola"]}})
    assert twice.status_code == 422 and "same name" in twice.get_json()["error"]["message"]
    unknown = client.post("/api/v1/tables", json={"game": "chess", "options": {}})
    assert unknown.status_code == 422 and unknown.get_json()["error"]["field"] == "game"
    nested = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": [{"a": 1}]}})
    assert nested.status_code == 422 and nested.get_json()["error"]["field"].startswith("options.players")


@pytest.mark.parametrize(
    "players, field, sentence",
    [
        (
            ["x" * 5000, "Kuba"],
            "options.players.0",
            "In the options, “players.0” may be at most 200 characters long.",
        ),
        (
            [f"P{n}" for n in range(50)],
            "options.players",
            "In the options, the number of entries in “players” may be at most 8.",
        ),
        ([], "options.players", "In the options, the number of entries in “players” must be at least 1."),
    ],
)
def test_a_value_too_long_or_a_list_too_long_is_refused_in_one_sentence_that_does_not_echo_it(
    client, players, field, sentence
):
    refused = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": players}})
    error = refused.get_json()["error"]
    assert refused.status_code == 422 and (error["field"], error["message"]) == (field, sentence)


def test_reading_has_an_etag_and_304_until_something_changes(client):
    token = _pad(client)["links"]["referee"]["token"]
    first = client.get(f"/api/v1/tables/{token}")
    etag = first.headers["ETag"]
    assert client.get(f"/api/v1/tables/{token}", headers={"If-None-Match": etag}).status_code == 304
    assert _round(client, token, [5, 3], 0).status_code == 200
    after = client.get(f"/api/v1/tables/{token}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.get_json()["view"]["totals"] == [5, 3]
    assert after.headers["ETag"] != etag


def test_an_action_on_an_old_version_is_a_409_with_the_table_as_it_is(app, client):
    token = _pad(client)["links"]["referee"]["token"]
    assert _round(client, token, [5, 3], 0).get_json()["version"] == 1
    stale = _round(client, token, [9, 9], 0)
    assert stale.status_code == 409
    answer = stale.get_json()
    assert answer["error"]["code"] == "stale_table"
    assert answer["table"]["version"] == 1 and answer["table"]["view"]["totals"] == [5, 3]
    assert _rounds_logged(app, token) == [[5, 3]]


def test_refusals_403_404_422_change_nothing(app, client):
    links = _pad(client)["links"]
    viewer, token = links["viewer"]["token"], links["referee"]["token"]
    refused = _round(client, viewer, [1, 1], 0)
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "viewer_link"
    assert client.post(f"/api/v1/tables/{viewer}/undo", json={"version": 0}).status_code == 403
    assert client.post(f"/api/v1/tables/{viewer}/finish", json={"version": 0}).status_code == 403
    missing = _round(client, "x" * 22, [1, 1], 0)
    assert missing.status_code == 404 and set(missing.get_json()) == {"error"}
    assert client.get("/api/v1/tables/nosuchtokenatall/log").status_code == 404
    by_rules = _round(client, token, [1], 0)
    assert by_rules.status_code == 422 and "each of the 2 players" in by_rules.get_json()["error"]["message"]
    by_schema = _round(client, token, ["five", 1], 0)
    assert by_schema.status_code == 422 and by_schema.get_json()["error"]["field"] == "action.points.0"
    no_version = client.post(
        f"/api/v1/tables/{token}/actions", json={"action": {"type": "round", "points": [1, 1]}}
    )
    assert no_version.status_code == 422 and no_version.get_json()["error"]["field"] == "version"
    assert _rounds_logged(app, token) == []


def test_finish_undo_and_the_log(client):
    links = _pad(client)["links"]
    token = links["referee"]["token"]
    _round(client, token, [5, 3], 0)
    _round(client, token, [2, 7], 1)
    finished = client.post(f"/api/v1/tables/{token}/finish", json={"version": 2}).get_json()
    assert finished["finished"] is True
    assert finished["result"]["players"] == [
        {"name": "Ola", "score": 7, "winner": False, "team": None},
        {"name": "Kuba", "score": 10, "winner": True, "team": None},
    ]
    closed = _round(client, token, [1, 1], 3)
    assert closed.status_code == 422 and closed.get_json()["error"]["code"] == "table_finished"
    reopened = client.post(f"/api/v1/tables/{token}/undo", json={"version": 3}).get_json()
    assert (reopened["finished"], reopened["result"], reopened["view"]["totals"]) == (False, None, [7, 10])
    undone = client.post(f"/api/v1/tables/{token}/undo", json={"version": 4}).get_json()
    assert undone["view"]["totals"] == [5, 3]
    log = client.get(f"/api/v1/tables/{links['viewer']['token']}/log").get_json()["actions"]
    assert [(entry["n"], entry["by"], entry["text"], entry["undone"]) for entry in log] == [
        (1, "referee", "Round 1: Ola 5, Kuba 3.", False),
        (2, "referee", "Round 2: Ola 2, Kuba 7.", True),
        (3, "referee", "The referee finished the table.", True),
    ]
    assert all(entry["at"].endswith("Z") and len(entry["at"]) == 20 for entry in log)


def test_an_action_sent_again_with_its_key_is_applied_once_and_answered_the_same(app, client):
    token = _pad(client)["links"]["referee"]["token"]
    first = _round(client, token, [5, 3], 0, key="phone-1-move-1")
    _round(client, token, [1, 1], 1)  # another move lands in between
    again = _round(client, token, [5, 3], 0, key="phone-1-move-1")
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert _rounds_logged(app, token) == [[5, 3], [1, 1]]
    undo = client.post(f"/api/v1/tables/{token}/undo", json={"version": 2}, headers={"Idempotency-Key": "u1"})
    undo_again = client.post(
        f"/api/v1/tables/{token}/undo", json={"version": 2}, headers={"Idempotency-Key": "u1"}
    )
    assert undo_again.get_json() == undo.get_json() and undo.get_json()["view"]["totals"] == [5, 3]
    assert client.get(f"/api/v1/tables/{token}").get_json()["view"]["rounds"] == [[5, 3]]


def test_a_key_answers_only_the_link_that_used_it(client):
    links = _pad(client)["links"]
    token, viewer = links["referee"]["token"], links["viewer"]["token"]
    _round(client, token, [5, 3], 0, key="k")
    other = client.post(
        f"/api/v1/tables/{viewer}/finish", json={"version": 1}, headers={"Idempotency-Key": "k"}
    )
    assert other.status_code == 403  # the viewer may not act at all, key or not
    second = _pad(client)["links"]["referee"]["token"]
    elsewhere = _round(client, second, [2, 2], 0, key="k")  # keys are per table
    assert elsewhere.status_code == 200 and elsewhere.get_json()["view"]["totals"] == [2, 2]


def test_a_page_form_sent_twice_records_its_move_once(app, browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    page = browser.get(f"/t/{token}").data.decode()
    import re

    key = re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)
    form = {"version": "0", "type": "round", "points": ["4", "2"], "idempotency_key": key}
    assert browser.post(f"/t/{token}/act", form).status_code == 303
    again = browser.post(f"/t/{token}/act", form, follow_redirects=True)
    assert again.status_code == 200 and "changed before your move" not in again.data.decode()
    assert _rounds_logged(app, token) == [[4, 2]]


def test_ten_phones_at_once_each_land_or_are_stale_and_nothing_is_lost_or_doubled(app):
    client = app.test_client()
    token = _pad(client, [f"P{n}" for n in range(1, 9)])["links"]["referee"]["token"]
    outcomes: dict[int, list[int]] = {}
    barrier = threading.Barrier(10)

    def phone(number: int) -> None:
        mine = app.test_client()
        for attempt in range(5):
            barrier.wait(timeout=30)
            version = mine.get(f"/api/v1/tables/{token}").get_json()["version"]
            response = _round(mine, token, [number] * 8, version, key=f"phone{number}-{attempt}")
            outcomes.setdefault(number, []).append(response.status_code)

    threads = [threading.Thread(target=phone, args=(number,)) for number in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    landed = [number for number, codes in outcomes.items() for code in codes if code == 200]
    assert all(code in (200, 409) for codes in outcomes.values() for code in codes)
    assert sum(len(codes) for codes in outcomes.values()) == 50
    logged = [points[0] for points in _rounds_logged(app, token)]
    assert sorted(logged) == sorted(landed)
    assert 5 <= len(logged) <= 50  # at least one phone lands in each of the five rounds
    table = client.get(f"/api/v1/tables/{token}").get_json()
    assert table["version"] == len(logged)
    assert table["view"]["totals"][0] == sum(logged)


def test_every_action_the_rules_take_fits_its_games_published_schema(app):
    """Random legal games of every game: each action fits the schema the OpenAPI document publishes."""
    import copy
    import random

    from companion.service import schemas
    from tests.rules.test_all_games import OPTIONS

    document = app.test_client().get("/api/v1/openapi.json").get_json()
    for game in app.extensions["castellan.games"].games.values():
        if not game.has_tables:
            continue
        name = "".join(part.title() for part in game.slug.split("_"))
        assert document["components"]["schemas"][f"{name}Action"] == game.action_schema
        for options in OPTIONS[game.slug]:
            rng = random.Random(game.slug)
            state = game.rules.new_table(copy.deepcopy(options), 7)
            while (chosen := game.rules.random_legal_action(state, rng)) is not None:
                actor, action = chosen
                schemas.check(game.action_schema, action, "action")
                state = game.rules.apply(state, action, actor)


def test_a_teams_phones_join_through_its_seat_link_in_any_order_without_a_version(client):
    created = client.post(
        "/api/v1/tables",
        json={"game": "zamek", "options": {"variant": "extended", "players": ["Red", "Blue"], "teams": True}},
    ).get_json()
    red = next(seat["token"] for seat in created["links"]["seats"] if seat["seat"] == "p1")
    for member, name in (("m1", "Ala"), ("m2", "Bea")):
        joined = client.post(
            f"/api/v1/tables/{red}/actions",
            json={"action": {"type": "join", "member": member, "member_name": name}},
        )
        assert joined.status_code == 200, joined.get_json()
    table = client.get(f"/api/v1/tables/{red}").get_json()
    assert (table["role"], table["seat"]) == ("seat", "p1")
    assert [member["name"] for member in table["view"]["players"][0]["members"]] == ["Ala", "Bea"]
    log = client.get(f"/api/v1/tables/{red}/log").get_json()["actions"]
    assert [entry["text"] for entry in log] == ["Ala joined Red as captain.", "Bea joined Red."]
    assert [entry["by"] for entry in log] == ["p1", "p1"]


def test_one_move_sent_five_times_at_once_with_its_key_lands_once(app):
    token = _pad(app.test_client())["links"]["referee"]["token"]
    answers: list = []
    barrier = threading.Barrier(5)

    def resend() -> None:
        barrier.wait(timeout=30)
        response = _round(app.test_client(), token, [4, 2], 0, key="the-same-move")
        answers.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=resend) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [status for status, _body in answers] == [200] * 5
    assert all(body == answers[0][1] for _status, body in answers)
    assert _rounds_logged(app, token) == [[4, 2]]


def test_keys_are_kept_more_than_a_day_and_swept_after_two(app, client):
    from datetime import UTC, datetime, timedelta

    token = _pad(client)["links"]["referee"]["token"]
    _round(client, token, [1, 1], 0, key="yesterday")
    _round(client, token, [2, 2], 1, key="last-week")
    with app.app_context():
        conn = get_db()
        for key, age in (("yesterday", timedelta(hours=47)), ("last-week", timedelta(days=7))):
            stamp = (datetime.now(UTC) - age).isoformat(timespec="milliseconds")
            conn.execute(
                sa.text("UPDATE action_keys SET created_at = :stamp WHERE key = :key"),
                {"stamp": stamp, "key": key},
            )
        conn.commit()
    _round(client, token, [3, 3], 2, key="today")  # keeping a key sweeps the old ones
    again = _round(client, token, [1, 1], 0, key="yesterday")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    with app.app_context():
        kept = {row[0] for row in get_db().execute(sa.text("SELECT key FROM action_keys"))}
    assert kept == {"yesterday", "today"}
    assert _rounds_logged(app, token) == [[1, 1], [2, 2], [3, 3]]
