"""The holes probing found, each closed: repeated and huge fields, bad hosts, rate limits, the compressed 304."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa

from companion import create_app, get_db
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


def test_one_address_may_have_only_so_many_sheets_built_a_minute(tmp_path):
    client = _app(tmp_path, PDFS_PER_MINUTE=2).test_client()
    assert client.get("/print/score-pad.pdf").status_code == 200
    assert client.get("/print/score-pad.pdf?paper=letter").status_code == 200
    refused = client.get("/print/score-pad.pdf?ink=saver")
    assert refused.status_code == 429
    assert "This address has had 2 sheets made in the last minute." in text(refused)


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


def test_the_error_page_renders_without_routing(app):
    from flask.globals import request_ctx
    from werkzeug.exceptions import NotFound

    with app.test_request_context("/somewhere"):
        request_ctx.url_adapter = None
        body, status = app.handle_user_exception(NotFound())
    assert status == 404
    assert "There is nothing here." in body and 'href="/"' in body
