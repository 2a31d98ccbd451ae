"""Tables through the web: links and roles, acting, stale versions, undo, history, export, live polling.

Every test runs on SQLite and on a throwaway PostgreSQL server."""

from __future__ import annotations

import json
import re
import threading

import pytest
import sqlalchemy as sa

from companion import store
from companion.rules import scorepad
from companion.store import db
from tests.conftest import text

pytestmark = pytest.mark.both_backends


def _links(browser, token):
    page = browser.get(f"/t/{token}/links").data.decode()
    return dict(re.findall(r"<strong>([^<]+)</strong>.*?href=\"https?://[^/]+/t/([\w-]+)\"", page, re.S))


def _version(page: bytes) -> int:
    return int(re.search(rb'data-version="(\d+)"', page).group(1))


def _round(browser, token, points, version, htmx=False):
    return browser.post(
        f"/t/{token}/act", {"version": str(version), "points": [str(p) for p in points]}, htmx=htmx
    )


def test_creating_a_table_gives_unguessable_links_for_each_role(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    links = _links(browser, token)
    assert set(links) == {"Referee", "Viewer"}
    assert links["Referee"] == token
    for value in links.values():
        assert len(value) >= 22  # 16 random bytes, base64url: 128 bits
    page = browser.get(f"/t/{token}").data.decode()
    assert "You are the referee" in page
    assert page.count('<svg class="qr"') == 2


def test_bad_options_create_nothing_and_say_why(app, browser):
    response = browser.post("/tables/new/scorepad", {"players": "Ola\nOla"}, follow_redirects=True)
    assert "Two players have the same name" in text(response)
    with app.app_context():
        from companion.http.context import get_db

        assert get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar() == 0


def test_referee_records_a_round_and_the_viewer_sees_it(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    viewer = _links(browser, token)["Viewer"]
    response = _round(browser, token, [5, 3], 0)
    assert response.status_code == 303
    page = other_browser.get(f"/t/{viewer}").data.decode()
    assert "You are watching" in page
    assert re.search(r'class="total">5<.*class="total">3<', page, re.S)
    assert "Record round" not in page  # the viewer has no form to act with


def test_htmx_action_returns_the_live_fragment_only(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get(f"/t/{token}")
    response = _round(browser, token, [7, 1], 0, htmx=True)
    body = text(response)
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="live"')
    assert "<html" not in body
    assert 'data-version="1"' in body
    assert "HX-Request" in response.headers["Vary"]


def test_viewer_cannot_act_and_nothing_changes(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    viewer = _links(browser, token)["Viewer"]
    other_browser.get(f"/t/{viewer}")
    response = _round(other_browser, viewer, [9, 9], 0, htmx=True)
    assert response.status_code == 403
    assert "viewer's link" in text(response)
    assert _version(browser.get(f"/t/{token}").data) == 0


def test_a_stale_action_is_refused_and_the_table_is_shown_as_it_is(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    assert _round(browser, token, [1, 2], 0).status_code == 303
    # A second phone still showing version 0 sends its move: refused, nothing recorded twice.
    other_browser.get(f"/t/{token}")
    response = _round(other_browser, token, [1, 2], 0, htmx=True)
    body = text(response)
    assert response.status_code == 409
    assert "The table changed" in body
    assert 'data-version="1"' in body
    history = browser.get(f"/t/{token}/history").data.decode()
    assert history.count("Round 1: Ola 1, Kuba 2.") == 1
    assert "Round 2" not in history


def test_a_refused_move_says_why_and_changes_nothing(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    response = _round(browser, token, ["many", 2], 0, htmx=True)
    assert response.status_code == 422
    assert "is not a whole number of points" in text(response)
    assert _version(browser.get(f"/t/{token}").data) == 0


def test_undo_keeps_the_action_in_the_log_marked_undone(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    _round(browser, token, [4, 4], 0)
    _round(browser, token, [10, 0], 1)
    response = browser.post(f"/t/{token}/undo", {"version": "2"}, htmx=True)
    body = text(response)
    assert "Undone: Round 2: Ola 10, Kuba 0." in body
    assert re.search(r'class="total">4<.*class="total">4<', body, re.S)
    history = browser.get(f"/t/{token}/history").data.decode()
    assert re.search(r'<li class="undone">\s*<span>Round 2: Ola 10, Kuba 0.</span>', history)
    assert "Round 1: Ola 4, Kuba 4." in history


def test_undo_with_nothing_to_undo_is_refused(browser):
    token = browser.create_table("scorepad", {"players": "Ola"})
    response = browser.post(f"/t/{token}/undo", {"version": "0"}, htmx=True)
    assert response.status_code == 422
    assert "nothing to undo" in text(response)


def test_only_the_referee_can_undo(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola"})
    _round(browser, token, [3], 0)
    viewer = _links(browser, token)["Viewer"]
    other_browser.get(f"/t/{viewer}")
    assert other_browser.post(f"/t/{viewer}/undo", {"version": "1"}, htmx=True).status_code == 403
    assert _version(browser.get(f"/t/{token}").data) == 1


def test_live_fragment_answers_304_until_the_table_changes(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    viewer = _links(browser, token)["Viewer"]
    first = other_browser.get(f"/t/{viewer}/live")
    etag = first.headers["ETag"]
    assert first.status_code == 200
    again = other_browser.get(f"/t/{viewer}/live", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    _round(browser, token, [2, 2], 0)
    changed = other_browser.get(f"/t/{viewer}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert 'data-version="1"' in text(changed)


def test_export_is_json_with_the_history_in_order(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    _round(browser, token, [1, 0], 0)
    _round(browser, token, [0, 2], 1)
    document = json.loads(browser.get(f"/t/{token}/export.json").data)
    assert document["game"] == "scorepad"
    assert [entry["description"] for entry in document["history"]] == [
        "Round 1: Ola 1, Kuba 0.",
        "Round 2: Ola 0, Kuba 2.",
    ]
    assert document["view"]["totals"] == [1, 2]


def test_unknown_links_get_the_friendly_404(browser):
    response = browser.get("/t/not-a-real-token-at-all")
    assert response.status_code == 404
    assert "There is nothing here" in text(response)


def test_home_page_lists_the_tables_this_browser_opened(browser, other_browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    home = browser.get("/").data.decode()
    assert f"/t/{token}" in home
    assert "Ola, Kuba" in home
    assert f"/t/{token}" not in other_browser.get("/").data.decode()


def test_concurrent_actions_on_one_version_record_exactly_one(app, browser):
    """Eight phones send a move made on the same version at the same moment: one lands."""
    token = browser.create_table("scorepad", {"players": "Ola"})
    results = []

    def send():
        with app.app_context():
            from companion.http.context import get_db

            link = store.find_link(get_db(), token)
            try:
                store.act(get_db(), scorepad, link.table_id, "referee", {"type": "round", "points": [1]}, 0)
                results.append("ok")
            except store.StaleTable:
                results.append("stale")

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok"] + ["stale"] * 7
    history = browser.get(f"/t/{token}/history").data.decode()
    assert history.count("Round 1: Ola 1.") == 1


def test_undo_rebuilds_the_state_from_a_snapshot_past_a_long_log(database):
    store.migrate(database)
    conn = db.connect(database)
    table, _links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba"]})
    for number in range(store.SNAPSHOT_EVERY * 2 + 3):
        table = store.act(
            conn, scorepad, table.id, "referee", {"type": "round", "points": [number, 1]}, table.version
        )
    snapshots = sa.text("SELECT seq FROM snapshots WHERE table_id = :id ORDER BY seq")
    assert len(conn.execute(snapshots, {"id": table.id}).all()) == 3
    for _ in range(5):
        table = store.undo(conn, scorepad, table.id, table.version)
    expected = [[n, 1] for n in range(store.SNAPSHOT_EVERY * 2 - 2)]
    assert table.state["rounds"] == expected
    # The snapshot that held an undone action is gone; an older one remains.
    assert conn.execute(snapshots, {"id": table.id}).scalars().all() == [0, 25]
    table = store.act(conn, scorepad, table.id, "referee", {"type": "round", "points": [7, 7]}, table.version)
    assert table.state["rounds"][-1] == [7, 7]
    assert len(store.history(conn, table.id)) == store.SNAPSHOT_EVERY * 2 + 4


def test_export_leaves_out_raw_actions_of_a_game_whose_actions_hold_secrets(browser, monkeypatch):
    token = browser.create_table("scorepad", {"players": "Ola"})
    _round(browser, token, [4], 0)
    assert json.loads(browser.get(f"/t/{token}/export.json").data)["history"][0]["action"]["points"] == [4]
    monkeypatch.setattr(scorepad, "SECRET_ACTIONS", True, raising=False)
    entry = json.loads(browser.get(f"/t/{token}/export.json").data)["history"][0]
    assert "action" not in entry
    assert entry["description"] == "Round 1: Ola 4."


def test_order_free_actions_skip_the_stale_check_and_others_do_not(database, monkeypatch):
    store.migrate(database)
    conn = db.connect(database)
    table, _links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola"]})
    round_action = {"type": "round", "points": [1]}
    store.act(conn, scorepad, table.id, "referee", round_action, 0)
    assert not store.order_free(scorepad, round_action)
    monkeypatch.setattr(scorepad, "ORDER_FREE_ACTIONS", frozenset({"round"}), raising=False)
    assert store.order_free(scorepad, round_action)
    # Made on version 0 like the first, yet recorded: the view passes no version for it.
    table = store.act(conn, scorepad, table.id, "referee", round_action, None)
    assert table.state["rounds"] == [[1], [1]]


def test_a_poll_reads_the_version_in_one_lookup_by_token(app):
    """The 304 path's one query: the version of the table a token opens (and the links' version, 0 but
    for the referee's link), None for no such token."""
    from companion.http.context import get_db

    with app.app_context():
        table, links = store.create_table(get_db(), scorepad, "scorepad", {"players": ["Ola", "Kuba"]})
        token = links[0].token
        assert store.version_by_token(get_db(), token) == (0, 0)
        store.act(get_db(), scorepad, table.id, "referee", {"type": "round", "points": [1, 2]}, 0)
        assert store.version_by_token(get_db(), token) == (1, 0)
        assert store.version_by_token(get_db(), "no-such-token-here") is None
