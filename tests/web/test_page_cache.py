"""A table page and its live fragment are kept whole (companion/pagecache.py): what a phone gets from
the cache must be what drawing it gives (tokens aside), with its own fresh tokens that work, and never
another phone's page."""

from __future__ import annotations

import gzip
import os
import re
import shutil

import pytest

from companion import app as app_module
from companion import store
from companion.app import create_app
from companion.rules import scorepad
from companion.store import db
from companion.web import pagecache
from companion.web.views import tables as tables_view
from tests.conftest import Browser
from tests.web.test_templating import _mid_game_tables

_KEYS = re.compile(r'name="idempotency_key" value="([^"]*)"')
_CSRF = re.compile(r'(?:name="csrf_token" value="|"X-CSRF-Token": ")([^"]*)"')
_TOKENS = re.compile(r'((?:csrf_token|idempotency_key)"[^>]*value="|X-CSRF-?Token"?: ")[^"]+')
LANGUAGES = ("en", "fr", "pl")


def _blank(html: str) -> str:
    return _TOKENS.sub(r"\1-", html)


def _get(client, path: str, fragment: bool = False, gzipped: bool = False) -> str:
    headers = {"HX-Request": "true"} if fragment else {}
    response = client.get(path, headers={**headers, "Accept-Encoding": "gzip" if gzipped else "identity"})
    assert response.status_code == 200, (path, response.data[:300])
    body = response.data
    if gzipped:
        assert (
            response.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in response.headers["Vary"]
        )
        body = gzip.decompress(body)  # checks the CRC-32 and the length too
        assert len(response.data) < len(body) / 2, path
    assert not re.search(rb"\x1b", body), path  # no placeholder left in
    return body.decode()


@pytest.fixture
def mid_game(tmp_path):
    """Every game's table halfway through a random game (seeded), and an app on its database."""
    database = str(tmp_path / "castellan.sqlite3")
    conn = db.connect(database)
    tables = {
        name: store.table_links(conn, store.find_link(conn, token).table_id)
        for name, token in _mid_game_tables(database).items()
    }
    conn.close()
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SWEEP_DAYS": 0})
    return app, tables


def test_every_kept_page_is_the_page_drawn(mid_game):
    """Each game, each link (referee, viewer, every seat), en/fr/pl, page and fragment: drawn with the
    cache off, then twice with it on (drawn and kept, then from the cache, gzipped from its kept
    pieces), the same but for tokens."""
    app, tables = mid_game
    compared = 0
    for name, links in tables.items():
        phones = {link.token: app.test_client() for link in links}
        for link in links:  # every seat opened (claimed, joined) first: the referee's invitations say so
            assert _get(phones[link.token], f"/t/{link.token}")
        for lang in LANGUAGES:
            for link in links:
                phone = phones[link.token]
                phone.set_cookie("lang", lang)
                for path, fragment in (
                    (f"/t/{link.token}", False),
                    (f"/t/{link.token}", True),
                    (f"/t/{link.token}/live", False),
                ):
                    app.config["PAGE_CACHE_ENTRIES"] = 0
                    drawn = _get(phone, path, fragment)
                    app.config["PAGE_CACHE_ENTRIES"] = pagecache.ENTRIES
                    kept = [_get(phone, path, fragment, gzipped) for gzipped in (False, True)]
                    where = (name, link.role, link.label, lang, path, fragment)
                    assert f'<html lang="{lang}"' in drawn or fragment or path.endswith("/live"), where
                    assert _blank(kept[0]) == _blank(drawn), where
                    assert _blank(kept[1]) == _blank(drawn), where
                    # the session's own CSRF token in every form, a fresh key in each form of each answer
                    assert set(_CSRF.findall(kept[1])) == set(_CSRF.findall(drawn)), where
                    keys = [_KEYS.findall(page) for page in (drawn, *kept)]
                    assert [len(found) for found in keys] == [len(keys[0])] * 3, where
                    every = [key for found in keys for key in found]
                    assert len(set(every)) == len(every) and all(len(key) >= 20 for key in every), where
                    compared += 1
    assert compared >= 6 * 3 * 3 * 3
    assert len(pagecache.for_app(app)) > 0


def test_kept_pages_answered_before_flask_are_flasks_answers(mid_game, monkeypatch):
    """``CachedPages`` answers a cached page without Flask: the same status, headers and text (tokens
    aside) as Flask's path, for every game's links, page, fragment and /live, plain and gzipped."""
    app, tables = mid_game
    answered = []
    before_flask = tables_view.CachedPages._answer

    def counted(self, *args):
        answer = before_flask(self, *args)
        answered.append(answer is not None)
        return answer

    monkeypatch.setattr(tables_view.CachedPages, "_answer", counted)
    for name, links in tables.items():
        for link in links:
            phone = app.test_client()
            phone.set_cookie("lang", "pl" if link.role == "seat" else "fr")
            phone.get(f"/t/{link.token}")
            for path, headers in (
                (f"/t/{link.token}", {}),
                (f"/t/{link.token}", {"HX-Request": "true"}),
                (f"/t/{link.token}/live", {"HX-Request": "true"}),
            ):
                for encoding in ("identity", "gzip"):
                    asked = {**headers, "Accept-Encoding": encoding}
                    flask = _without_kept_pages(monkeypatch, lambda: phone.get(path, headers=asked))  # noqa: B023
                    del answered[:]
                    fast = phone.get(path, headers=asked)
                    where = (name, link.role, path, headers, encoding)
                    assert answered == [True], where
                    assert fast.status == flask.status == "200 OK", where
                    assert _header_names(fast) == _header_names(flask), where
                    assert fast.headers.get("ETag") == flask.headers.get("ETag"), where
                    assert "Set-Cookie" not in fast.headers, where
                    body = gzip.decompress(fast.data) if encoding == "gzip" else fast.data
                    expected = gzip.decompress(flask.data) if encoding == "gzip" else flask.data
                    assert _blank(body.decode()) == _blank(expected.decode()), where
                    assert set(_KEYS.findall(body.decode())).isdisjoint(_KEYS.findall(expected.decode())), (
                        where
                    )


def _without_kept_pages(monkeypatch, call):
    with monkeypatch.context() as patch:
        patch.setattr(tables_view.CachedPages, "_answer", lambda *args: None)
        return call()


def _header_names(response) -> list:
    return [
        (name, value if name not in ("Content-Length", "ETag") else "") for name, value in response.headers
    ]


def test_a_kept_form_acts_once_and_the_next_page_shows_the_move(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get(f"/t/{token}")
    html = browser.get(f"/t/{token}", headers={"HX-Request": "true"}).get_data(as_text=True)
    again = browser.get(f"/t/{token}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert _KEYS.findall(html) and set(_KEYS.findall(html)).isdisjoint(_KEYS.findall(again))
    form = re.search(r'<form[^>]*action="/t/[^"]+/act".*?</form>', again, re.S).group(0)
    key = _KEYS.search(form).group(1)
    (csrf,) = set(_CSRF.findall(again))
    fields = {"csrf_token": csrf, "version": "0", "idempotency_key": key, "points": ["4", "6"]}
    first = browser.client.post(f"/t/{token}/act", data=fields, headers={"HX-Request": "true"})
    assert first.status_code == 200 and 'data-version="1"' in first.get_data(as_text=True)
    repeated = browser.client.post(f"/t/{token}/act", data=fields, headers={"HX-Request": "true"})
    assert repeated.status_code == 200 and 'data-version="1"' in repeated.get_data(as_text=True)
    page = browser.get(f"/t/{token}").get_data(as_text=True)
    assert 'data-version="1"' in page and ">4<" in page and ">6<" in page
    live = browser.get(f"/t/{token}/live").get_data(as_text=True)
    assert 'data-version="1"' in live
    # one round recorded, not two
    history = browser.get(f"/t/{token}/history").get_data(as_text=True)
    assert history.count("Round 1") == 1 and "Round 2" not in history


def test_phones_never_see_each_others_page(app, browser):
    """Two phones at one Square Tactics link looking from different seats, two Zamek members at one
    team's link with different names, one referee asking at two addresses: each gets its own page."""
    tactics = browser.create_table(
        "tactics",
        {"players": "2", "faction_p1": "wardens", "faction_p2": "roost", "name_p1": "Ola", "name_p2": "Kuba"},
    )
    phones = [Browser(app.test_client()) for _ in range(2)]
    for phone, seat in zip(phones, ("S", "N"), strict=True):
        phone.get(f"/t/{tactics}")
        phone.post(f"/tactics/seen/{tactics}", {"seat": seat})
    for _ in range(2):
        for phone, seat in zip(phones, ("S", "N"), strict=True):
            for path in (f"/t/{tactics}", f"/t/{tactics}/live"):
                html = phone.get(path).get_data(as_text=True)
                assert re.search(rf'aria-pressed="true">{seat} · ', html), (seat, path)

    # a player's seat claimed by one phone: kept, and still refused to another phone (which has a session)
    seat = next(link for link in _table_links(app, tactics) if link.role == "seat")
    owner, other = Browser(app.test_client()), Browser(app.test_client())
    other.get("/")
    other.get(f"/t/{tactics}")
    for _ in range(2):  # opening the page claims the seat; a poll claims nothing
        assert owner.get(f"/t/{seat.token}").status_code == 200
        assert owner.get(f"/t/{seat.token}/live").status_code == 200
    for path in (f"/t/{seat.token}", f"/t/{seat.token}/live"):
        assert other.get(path).status_code == 403, path

    zamek = browser.create_table(
        "zamek",
        {"players": ["Red", "Blue", "", ""], "variant": "extended", "teams": "yes", "deck": "default"},
    )
    team = next(link for link in _table_links(app, zamek) if link.role == "seat")
    members = [app.test_client() for _ in range(2)]
    for member, name in zip(members, ("Ada", "Bartek"), strict=True):
        with member.session_transaction() as session:
            session["member_name"] = name
    for _ in range(2):
        for member, name, other in ((members[0], "Ada", "Bartek"), (members[1], "Bartek", "Ada")):
            for path in (f"/t/{team.token}", f"/t/{team.token}/live"):
                html = member.get(path).get_data(as_text=True)
                assert f'value="{name}"' in html and f'value="{other}"' not in html, (name, path)

    for _ in range(2):
        for host in ("castle.example", "192.168.7.9:8000"):
            html = browser.get(f"/t/{tactics}", base_url=f"http://{host}").get_data(as_text=True)
            addresses = set(re.findall(r"https?://([^/\"]+)/t/", html))
            assert addresses == {host}, (host, addresses)


def _table_links(app, token: str) -> list[store.Link]:
    with app.app_context():
        from companion.http.context import get_db

        return store.table_links(get_db(), store.find_link(get_db(), token).table_id)


def test_a_page_with_something_to_say_is_drawn_not_kept(app, browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.get(f"/t/{token}")
    cache = pagecache.for_app(app)
    kept = len(cache)
    browser.post(f"/t/{token}/act", {"version": "0", "points": ["1", "2"]})
    said = browser.get(f"/t/{token}?recorded=1").get_data(as_text=True)
    assert "Recorded." in said
    assert len(cache) == kept  # a notice is never kept
    plain = browser.get(f"/t/{token}").get_data(as_text=True)
    assert "Recorded." not in plain and 'data-version="1"' in plain
    assert len(cache) == kept + 1


def test_the_cache_keeps_within_its_bounds(app, browser):
    app.config["PAGE_CACHE_ENTRIES"] = 3
    app.extensions.pop("castellan.pages", None)
    tokens = [browser.create_table("scorepad", {"players": f"Ola\nKuba{n}"}) for n in range(5)]
    for token in tokens:
        for path in (f"/t/{token}", f"/t/{token}/live"):
            browser.get(path)
    cache = pagecache.for_app(app)
    assert len(cache) == 3
    # the last ones kept, the first forgotten: drawn again, and the same
    assert "Kuba4" in browser.get(f"/t/{tokens[4]}").get_data(as_text=True)
    assert "Kuba0" in browser.get(f"/t/{tokens[0]}").get_data(as_text=True)
    assert len(cache) == 3


def test_bounds_of_entries_bytes_and_session_variants():
    cache = pagecache.PageCache(entries=4, most_bytes=100)
    for n in range(6):
        cache.put(("page", n), {}, "x" * 10)
    assert len(cache) == 4 and cache.size == 40
    assert cache.get(("page", 0), {}) is None and cache.get(("page", 5), {}).parts == [b"x" * 10]
    cache.put(("big",), {}, "y" * 90)
    assert cache.size <= 100 and cache.get(("big",), {}).parts == [b"y" * 90]
    cache.put(("huge",), {}, "z" * 101)  # larger than the whole cache: not kept
    assert cache.get(("huge",), {}) is None and cache.size <= 100
    # the deflated pieces count too
    cache = pagecache.PageCache(entries=4, most_bytes=100)
    kept = cache.put(("page",), {}, "abc" * 30)
    assert cache.size == 90
    kept.gzipped(lambda: "", lambda: "", 1)
    assert cache.size == 0 and len(cache) == 0  # 90 bytes and its pieces: over the bound, forgotten

    cache = pagecache.PageCache(entries=100, most_bytes=10_000)
    for n in range(pagecache.VARIANTS + 5):
        cache.put(("page",), {"member_name": repr(f"name{n}")}, f"page of name{n}")
    assert len(cache) == pagecache.VARIANTS
    assert cache.get(("page",), {"member_name": "name20"}).parts == [b"page of name20"]
    assert cache.get(("page",), {"member_name": "name0"}) is None
    assert cache.get(("page",), {}) is None  # a session without the value read is another phone


def test_placeholders_are_filled_per_response():
    text = f"a{pagecache.CSRF_SLOT}b{pagecache.KEY_SLOT}c{pagecache.KEY_SLOT}d{pagecache.CSRF_SLOT}" * 300
    kept = pagecache.CachedPage(pagecache.split(text))
    counter = iter(range(10_000))
    first = kept.body(lambda: "TOKEN", lambda: f"key{next(counter)}")
    assert first.startswith(b"aTOKENbkey0ckey1dTOKENaTOKENbkey2c")
    again = kept.body(lambda: "TOKEN", lambda: f"key{next(counter)}")
    assert again.startswith(b"aTOKENbkey600ckey601dTOKEN")
    zipped = kept.gzipped(lambda: "TÖKEN", lambda: f"key{next(counter)}", 1)
    assert gzip.decompress(zipped) == re.sub(
        rb"key\d+",
        lambda m: b"key%d" % (int(m.group(0)[3:]) + 1200),
        first.replace(b"TOKEN", "TÖKEN".encode()),
    )
    assert (
        pagecache.CachedPage([b"plain"]).body(lambda: 1 / 0, lambda: 1 / 0) == b"plain"
    )  # no form: no token made


@pytest.mark.parametrize("reloading", [True, False])
def test_a_changed_template_is_served_at_once_while_jinja_reloads_templates(tmp_path, monkeypatch, reloading):
    """A page's key names no template: while Flask's TEMPLATES_AUTO_RELOAD (development) reloads a
    changed template, no page is kept, so the next page shows the change (a macro kept by ``once``
    included: its cache is its template's); without it, pages are kept (templates never change)."""
    templates = tmp_path / "templates"
    shutil.copytree(app_module._templates_dir(), templates)
    monkeypatch.setattr(app_module, "_templates_dir", lambda: templates)
    database = str(tmp_path / "castellan.sqlite3")
    db.migrate(database)
    with db.connect(database) as conn:
        table, links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba"]})
        store.act(conn, scorepad, table.id, "referee", {"type": "round", "points": [3, 5]}, table.version)
    config = {"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SWEEP_DAYS": 0}
    app = create_app({**config, "TEMPLATES_AUTO_RELOAD": reloading})
    phone, path = app.test_client(), f"/t/{links[0].token}"
    before = [_get(phone, path), _get(phone, path)]
    assert (pagecache.for_app(app) is None) is reloading and _blank(before[0]) == _blank(before[1])
    macros = templates / "scorepad" / "_macros.html"
    macros.write_text(macros.read_text().replace("<td>{{ value }}</td>", '<td class="seen">{{ value }}</td>'))
    os.utime(macros, (1, 1))  # another time than the one Jinja loaded it at
    after = _get(phone, path)
    assert ('<td class="seen">5</td>' in after) is reloading and "<td>5</td>" in before[0]
