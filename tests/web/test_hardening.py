"""The holes probing found, each closed: repeated and huge fields, bad hosts, rate limits, the compressed 304."""

from __future__ import annotations

import logging
import re

import pytest
import sqlalchemy as sa

from companion.app import create_app
from companion.http.context import get_db
from tests.conftest import Browser, text


def _app(tmp_path, **config):
    return create_app(
        {"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "test", "TESTING": True, **config}
    )


def _tables(app) -> int:
    with app.app_context():
        return get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar()


def test_a_field_sent_twice_is_refused_in_words_and_creates_nothing(app, browser):
    browser.get("/")
    response = browser.client.post(
        "/tables/new/castle",
        data=f"csrf_token={browser.csrf}&players=2&name_N=a&name_N=b&name_S=c",
        content_type="application/x-www-form-urlencoded",
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "This form sent one of its fields twice. Reload the page and try again." in text(response)
    assert _tables(app) == 0


def test_a_huge_field_is_refused_in_words_and_a_long_score_pad_name_too(app, browser):
    response = browser.post(
        "/tables/new/scorepad", {"players": "Ola\n" + "K" * 250_000}, follow_redirects=True
    )
    assert "longer than the 10,000 characters Castellan keeps" in text(response)
    response = browser.post("/tables/new/scorepad", {"players": "Ola\n" + "K" * 25}, follow_redirects=True)
    assert "A player's name is at most 24 characters." in text(response)
    assert _tables(app) == 0
    browser.create_table("scorepad", {"players": "Ola\n" + "K" * 24})
    with app.app_context():
        assert get_db().execute(sa.text("SELECT title FROM tables")).scalar() == "Ola, " + "K" * 24


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_a_compressed_poll_of_an_idle_table_gets_its_empty_304(browser, encoding):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get(f"/t/{token}")
    first = browser.get(f"/t/{token}/live", headers={"Accept-Encoding": encoding})
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    again = browser.get(
        f"/t/{token}/live", headers={"Accept-Encoding": encoding, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.data == b""
    browser.post(f"/t/{token}/act", {"version": "0", "points": ["3", "4"]})
    changed = browser.get(
        f"/t/{token}/live", headers={"Accept-Encoding": encoding, "If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_one_address_may_create_only_so_many_tables_a_minute(tmp_path):
    app = _app(tmp_path, TABLES_PER_MINUTE=3)
    phone = Browser(app.test_client())
    for _ in range(3):
        phone.create_table("scorepad", {"players": "Ola"})
    refused = phone.post("/tables/new/scorepad", {"players": "Ola"})
    assert refused.status_code == 429
    assert "This address has created 3 tables in the last minute. Wait a minute, then try again." in text(
        refused
    )
    assert _tables(app) == 3
    other = Browser(app.test_client())
    other.client.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    other.create_table("scorepad", {"players": "Ola"})
    assert _tables(app) == 4


def test_tables_made_by_the_api_and_by_the_pages_count_against_one_limit(tmp_path):
    app = _app(tmp_path, TABLES_PER_MINUTE=3)
    phone = Browser(app.test_client())
    for _ in range(3):
        created = phone.client.post(
            "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola"]}}
        )
        assert created.status_code == 201
    refused = phone.post("/tables/new/scorepad", {"players": "Ola"})
    assert refused.status_code == 429 and "created 3 tables in the last minute" in text(refused)
    assert _tables(app) == 3


def test_one_address_may_have_only_so_many_sheets_built_a_minute(tmp_path):
    client = _app(tmp_path, PDFS_PER_MINUTE=2).test_client()
    assert client.get("/print/score-pad.pdf").status_code == 200
    assert client.get("/print/score-pad.pdf?paper=letter").status_code == 200
    refused = client.get("/print/score-pad.pdf?ink=saver")
    assert refused.status_code == 429
    assert "This address has had 2 sheets made in the last minute." in text(refused)
    # When the minute's window ends, not a whole minute from the refusal.
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_a_program_refused_by_the_limit_is_told_when_to_ask_again(tmp_path):
    app = _app(tmp_path, TABLES_PER_MINUTE=1)
    client = app.test_client()
    first = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola"]}})
    assert first.status_code == 201 and "Retry-After" not in first.headers
    refused = client.post("/api/v1/tables", json={"game": "scorepad", "options": {"players": ["Ola"]}})
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


@pytest.mark.parametrize(
    "host", ["a" * 64 + ".example", "bad host", "castellan:99999", "[::1", "-castellan-.local", "château.fr"]
)
@pytest.mark.parametrize("path", ["/", "/nowhere", "/api/v1/openapi.json", "/t/abcdefghijkl"])
def test_a_bad_host_gets_a_plain_400_and_writes_no_log_line(browser, caplog, host, path):
    caplog.set_level(logging.DEBUG)
    response = browser.get(path, headers={"Host": host})
    assert response.status_code == 400
    assert response.data == b"Bad Request: the Host header is not a valid host name.\n"
    assert [record for record in caplog.records if record.levelno >= logging.INFO] == []


@pytest.mark.parametrize(
    "host", ["castellan.local", "castellan.local:8000", "192.168.1.20:5000", "[::1]:5000"]
)
def test_good_hosts_are_served(browser, host):
    assert browser.get("/", headers={"Host": host}).status_code == 200


def test_the_error_page_renders_without_routing(tmp_path):
    """A request Flask cannot even route (its host is not among TRUSTED_HOSTS: no URL can be built)
    gets the page without the layout; a plain 404 gets the layout's."""
    phone = _app(tmp_path, TRUSTED_HOSTS=["castellan.local"]).test_client()
    refused = phone.get("/somewhere", headers={"Host": "elsewhere.example"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 400 and body.startswith('<!doctype html>\n<html lang="en"><head>')
    assert '<p><a href="/">Back to the games</a></p>' in body and 'id="trouble"' not in body
    missing = phone.get("/somewhere", headers={"Host": "castellan.local"})
    page = missing.get_data(as_text=True)
    assert missing.status_code == 404 and "There is nothing here." in page and 'id="trouble"' in page


def test_without_trusted_proxies_forwarded_headers_are_ignored_and_the_cookie_is_plain(browser):
    token = browser.create_table("scorepad", {"players": "Ola"})
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    page = text(browser.get(f"/t/{token}/links", headers=forged))
    assert "evil.example" not in page
    response = browser.client.application.test_client().get("/", headers=forged)
    assert "Secure" not in response.headers["Set-Cookie"]


def test_behind_a_trusted_proxy_the_cookie_is_secure_and_links_use_the_forwarded_address(tmp_path):
    phone = Browser(_app(tmp_path, TRUSTED_PROXIES=1).test_client())
    forwarded = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "castellan.example.org",
        "X-Forwarded-For": "198.51.100.4",
    }
    assert "; Secure" in phone.get("/", headers=forwarded).headers["Set-Cookie"]
    response = phone.post("/tables/new/scorepad", {"players": "Ola"}, headers=forwarded)
    token = response.headers["Location"].rsplit("/t/", 1)[1]
    assert f"https://castellan.example.org/t/{token}" in text(
        phone.get(f"/t/{token}/links", headers=forwarded)
    )
    bad = phone.get("/", headers={**forwarded, "X-Forwarded-Host": "a" * 70 + ".example"})
    assert bad.status_code == 400


def test_with_a_base_url_links_always_use_it(tmp_path):
    phone = Browser(_app(tmp_path, BASE_URL="https://games.example.org/").test_client())
    token = phone.create_table("scorepad", {"players": "Ola"})
    page = text(phone.get(f"/t/{token}/links", headers={"Host": "192.168.1.9:5000"}))
    assert f"https://games.example.org/t/{token}" in page and "192.168.1.9" not in page


@pytest.mark.parametrize(
    "url, words",
    [
        ("javascript:alert(1)", "must be an http:// or https:// address"),
        ("http://" + "a.b" * 40, "a QR code has room"),
    ],
)
def test_a_bad_base_url_stops_the_app_with_one_sentence(tmp_path, url, words):
    with pytest.raises(ValueError, match=words):
        _app(tmp_path, BASE_URL=url)


def _forteresse_table(browser) -> tuple[str, dict]:
    token = browser.create_table(
        "forteresse", {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    page = browser.get(f"/t/{token}/links").data.decode()
    seats = dict(re.findall(r"<strong>(Ola|Kuba)</strong>.*?/t/([A-Za-z0-9_-]{10,64})", page, re.S))
    return token, seats


def test_a_seat_link_is_claimed_by_the_first_phone_and_hidden_from_the_referee(app, browser, other_browser):
    token, seats = _forteresse_table(browser)
    assert set(seats) == {"Ola", "Kuba"}
    assert other_browser.get(f"/t/{seats['Kuba']}").status_code == 200
    assert other_browser.get(f"/t/{seats['Kuba']}/history").status_code == 200  # the same phone, again
    referee_page = text(browser.get(f"/t/{token}"))
    assert seats["Kuba"] not in referee_page and seats["Ola"] in referee_page
    assert "Taken: this link is open on Kuba's phone, and only there." in referee_page
    thief = Browser(app.test_client())
    for path in ("", "/live", "/history", "/links", "/export.json"):
        refused = thief.get(f"/t/{seats['Kuba']}{path}")
        assert refused.status_code in (403, 304), path
        said = text(refused)
        assert "Kuba" not in said or "already open on another phone" in said or "no longer open" in said, path
    assert "Kuba's link is already open on another phone" in text(thief.get(f"/t/{seats['Kuba']}"))
    assert browser.get(f"/t/{seats['Kuba']}").status_code == 403  # the referee's own phone too


def test_the_referee_releases_a_lost_phones_seat_and_the_table_is_told(app, browser, other_browser):
    token, seats = _forteresse_table(browser)
    other_browser.get(f"/t/{seats['Kuba']}")
    version_before = int(
        re.search(r'data-version="(\d+)"', browser.get(f"/t/{token}").data.decode()).group(1)
    )
    refused = other_browser.post(f"/t/{seats['Kuba']}/release", {"seat": "b"}, follow_redirects=True)
    assert "Only the referee can release a seat." in text(refused)
    released = browser.post(f"/t/{token}/release", {"seat": "b"}, follow_redirects=True)
    assert "Kuba's seat is free: the next phone to open its link takes it." in text(released)
    assert seats["Kuba"] in text(released)  # its code and address are back on the referee's page
    page = browser.get(f"/t/{token}").data.decode()
    assert (
        int(re.search(r'data-version="(\d+)"', page).group(1)) == version_before + 1
    )  # every phone refreshes
    history = text(other_browser.get(f"/t/{seats['Ola']}/history"))  # the table's log says so
    assert "The referee released Kuba's link: the next phone to open it takes the seat." in history
    new_phone = Browser(app.test_client())
    assert new_phone.get(f"/t/{seats['Kuba']}").status_code == 200
    assert other_browser.get(f"/t/{seats['Kuba']}").status_code == 403
    browser.post(f"/t/{token}/release", {"seat": "a"})  # Ola's seat, claimed above by reading its history
    again = browser.post(f"/t/{token}/release", {"seat": "a"}, follow_redirects=True)
    assert "That seat is not taken by any phone: there is nothing to release." in text(again)


def _session_cookie(browser) -> bytes:
    """The session cookie's payload, decoded: what anyone holding the cookie can read."""
    import base64
    import zlib

    cookie = browser.client.get_cookie("session").value
    payload = cookie.lstrip(".").split(".")[0]
    decoded = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return zlib.decompress(decoded) if cookie.startswith(".") else decoded


def test_the_session_cookie_holds_no_table_link_and_the_home_page_still_lists_the_tables(app, browser):
    token = browser.create_table(
        "tactics",
        {"players": "2", "faction_p1": "wardens", "faction_p2": "roost", "name_p1": "Ola", "name_p2": "Kuba"},
    )
    browser.get(f"/t/{token}")
    browser.post(f"/tactics/seen/{token}", {"seat": "N"})
    assert token.encode() not in _session_cookie(browser)
    assert f"/t/{token}" in text(browser.get("/"))
    assert f"/t/{token}" not in text(Browser(app.test_client()).get("/"))


def test_each_sheet_is_built_once_and_served_from_the_cache(app, browser):
    first = browser.get("/print/score-pad.pdf?paper=letter")
    again = browser.get("/print/score-pad.pdf?paper=letter")
    assert first.data[:5] == b"%PDF-" and again.data == first.data
    assert browser.get("/print/score-pad.pdf?paper=letter&ink=saver").data != first.data
    assert app.extensions["castellan.sheets"].builds == 2


def test_an_address_too_long_for_a_qr_code_is_a_clear_refusal(browser):
    response = browser.get("/print/score-pad.pdf", headers={"Host": "x." * 110 + "com"})
    assert response.status_code == 400
    assert "is too long for a sheet's QR code to scan" in text(response)


def test_a_freed_seats_old_phone_is_told_and_the_referees_poll_follows_the_seats(app, browser, other_browser):
    token, seats = _forteresse_table(browser)
    referee_poll = browser.get(f"/t/{token}/live")
    etag = referee_poll.headers["ETag"]
    assert browser.get(f"/t/{token}/live", headers={"If-None-Match": etag}).status_code == 304
    wrong = Browser(app.test_client())
    assert "Kuba" in text(wrong.get(f"/t/{seats['Kuba']}"))  # the wrong phone opens Kuba's link first
    seat_etag = wrong.get(f"/t/{seats['Kuba']}/live").headers["ETag"]
    followed = browser.get(f"/t/{token}/live", headers={"If-None-Match": etag})
    assert followed.status_code == 200  # the referee's poll sees the seat opened, at the same version
    assert 'id="invites-fresh"' in text(followed) and "Private links opened: 1 of 2." in text(followed)
    browser.post(f"/t/{token}/release", {"seat": "b"})
    for _poll in range(2):  # its polls never take the seat back
        lost = wrong.get(f"/t/{seats['Kuba']}/live", headers={"If-None-Match": seat_etag})
        assert lost.status_code == 403 and "data-lost" in text(lost)
        assert "Kuba's seat is no longer open on this phone" in text(lost)
        assert "fire" not in text(lost).lower() and "<form" not in text(lost)  # none of the seat's view
    assert other_browser.get(f"/t/{seats['Kuba']}").status_code == 200  # the right phone gets it
    assert wrong.get(f"/t/{seats['Kuba']}").status_code == 403
