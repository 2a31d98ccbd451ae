"""Fixtures every layer's tests share: an app on a fresh SQLite file, a client that posts forms."""

from __future__ import annotations

import copy
import html
import io
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import printables
from companion.app import create_app
from companion.store import db


def pytest_generate_tests(metafunc):
    """Tests marked ``both_backends`` run once on SQLite and once on a real PostgreSQL server."""
    if "database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("database", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def postgresql_server():
    """A throwaway PostgreSQL server, started once for the whole run (see tests/pg.py)."""
    from tests.pg import Server

    server = Server()
    yield server
    server.stop()


@pytest.fixture
def database(request, tmp_path):
    """The ``CASTELLAN_DATABASE`` of a fresh, empty database: a SQLite file, or on PostgreSQL."""
    yield from fresh_database(request, tmp_path, getattr(request, "param", "sqlite"))


def fresh_database(request, tmp_path, backend: str, name: str = "castellan", empty: bool = False):
    """Yield a fresh, empty database on ``backend`` ("sqlite" or "postgresql"), dropped afterwards
    (on PostgreSQL already migrated, from a template, unless ``empty``).

    Afterwards this process lets go of it too (``db.dispose``): otherwise every test's pool
    keeps its connections, and a whole run holds thousands of open files.
    """
    if backend == "sqlite":
        path = str(tmp_path / f"{name}.sqlite3")
        yield path
        db.dispose(path)
        return
    server = request.getfixturevalue("postgresql_server")
    url = server.new_database(empty)
    yield url
    db.dispose(url)
    server.drop(url)


@pytest.fixture
def app(database):
    """A Castellan app with its own database."""
    return create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})


class Browser:
    """A test client that behaves like one phone: it keeps its cookies and its CSRF token."""

    def __init__(self, client):
        self.client = client
        self.csrf = None

    def get(self, url, **kwargs):
        response = self.client.get(url, **kwargs)
        match = re.search(rb'"X-CSRF-Token": "([^"]+)"', response.data)
        if match:
            self.csrf = match.group(1).decode()
        return response

    def post(self, url, data=None, htmx=False, **kwargs):
        if self.csrf is None:
            self.get("/")
        data = {"csrf_token": self.csrf, **(data or {})}
        headers = kwargs.pop("headers", {})
        if htmx:
            headers["HX-Request"] = "true"
        return self.client.post(url, data=data, headers=headers, **kwargs)

    def create_table(self, game: str, data: dict) -> str:
        """Create a table and return the referee's token."""
        response = self.post(f"/tables/new/{game}", data=data)
        assert response.status_code == 303, response.data[:500]
        location = response.headers["Location"]
        assert "/t/" in location, f"creation refused: {location}"
        return location.rsplit("/t/", 1)[1]


def text(response) -> str:
    """A response's body as a person reads it (HTML entities decoded)."""
    return html.unescape(response.data.decode())


def pages_say_in(browser, lang: str, pages: dict, help_path: str, anchors) -> None:
    """Each page, asked in ``lang``, is in that language and says each of its words (tags aside);
    the help page at ``help_path`` keeps the section anchors a table page links to."""
    for path, words in pages.items():
        page = text(browser.get(path, headers={"Accept-Language": lang}))
        assert f'<html lang="{lang}">' in page
        said = re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page)).replace(" .", ".").replace(" ,", ",")
        assert [word for word in words if word not in said] == [], path
    help_page = text(browser.get(help_path, headers={"Accept-Language": lang}))
    for anchor in anchors:
        assert f'<h2 id="{anchor}">' in help_page


@pytest.fixture
def browser(app):
    """One phone."""
    return Browser(app.test_client())


@pytest.fixture
def other_browser(app):
    """A second phone at the same table."""
    return Browser(app.test_client())


# --- Secrets: what a link can see must not change when a hidden part of the state does. ---


def everything_seen(browser: Browser, token: str, refusal: dict, extra_paths=()) -> list[bytes]:
    """Everything one link can fetch, in bytes: page, live fragment, history, links, the
    htmx fragment, the export, any ``extra_paths`` (``?from=A4``), the answer to a refused post,
    and the same through the JSON API (the table, its log, a refused action).

    Each move form's Idempotency-Key is fresh at every rendering; it is blanked before comparing."""
    paths = ("", "/live", "/history", "/links", *extra_paths)
    seen = [browser.get(f"/t/{token}{path}").data for path in paths]
    seen.append(browser.get(f"/t/{token}", headers={"HX-Request": "true"}).data)
    seen.append(json.dumps(browser.get(f"/t/{token}/export.json").get_json(), sort_keys=True).encode())
    seen.append(browser.post(f"/t/{token}/act", {"version": "0", **refusal}, htmx=True).data)
    for path in ("", "/log"):
        seen.append(
            json.dumps(
                browser.client.get(f"/api/v1/tables/{token}{path}").get_json(), sort_keys=True
            ).encode()
        )
    refused = browser.client.post(
        f"/api/v1/tables/{token}/actions", json={"action": {"type": "none"}, "version": 0}
    )
    seen.append(json.dumps(refused.get_json(), sort_keys=True).encode())
    return [_FORM_KEY.sub(b'name="idempotency_key" value=""', body) for body in seen]


_FORM_KEY = re.compile(rb'name="idempotency_key" value="[^"]*"')


def with_state_changed(app, token: str, change, then):
    """Run ``then()`` while the table's stored state is ``change(state)``, then put it back."""
    from companion import store
    from companion.http.context import get_db

    with app.app_context():
        conn = get_db()
        table_id = store.find_link(conn, token).table_id
        original = store.get_table(conn, table_id).state
        _store_state(conn, table_id, change(copy.deepcopy(original)))  # a change may edit in place
    try:
        return then()
    finally:
        with app.app_context():
            _store_state(get_db(), table_id, original)


def _store_state(conn, table_id: str, state: dict) -> None:
    """Write a state behind the store's back (its version unchanged): the store forgets the state it
    kept, and the app the pages it drew (a version names one state, which this breaks on purpose)."""
    from flask import current_app

    from companion import store
    from companion.web import pagecache

    store.replace_state(conn, table_id, state)
    if (cache := pagecache.for_app(current_app)) is not None:
        cache.clear()


def table_state(app, token: str) -> dict:
    """The stored state of the table a link opens."""
    from companion import store
    from companion.http.context import get_db

    with app.app_context():
        return store.get_table(get_db(), store.find_link(get_db(), token).table_id).state


def sheet_pdf(sheet, **options) -> bytes:
    """A printed sheet's PDF bytes: ``printables.build`` with those options (``lang``, ``paper``...)."""
    out = io.BytesIO()
    printables.build(sheet, out, **options)
    return out.getvalue()


def pdf_text(pdf: bytes, layout: bool = True) -> str:
    """The words poppler's pdftotext reads in a PDF (``layout``: placed as on the page). A missing
    pdftotext fails the test: ``make debs`` installs it."""
    tool = shutil.which("pdftotext") or pytest.fail("pdftotext is missing: run `make debs`")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sheet.pdf"
        path.write_bytes(pdf)
        options = ["-layout"] if layout else []
        return subprocess.run(
            [tool, *options, str(path), "-"], check=True, capture_output=True, text=True
        ).stdout
