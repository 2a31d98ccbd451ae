"""The installable app on localhost (a secure context, as HTTPS is): the manifest and its icons,
the service worker that keeps the help pages and the offline page, and never a table page."""

from __future__ import annotations

import re
import struct
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import own_phone

pytestmark = pytest.mark.browser

# Every URL in every cache of this origin's Cache Storage.
CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) { urls.push(new URL(request.url).pathname); }
  }
  return urls;
}"""


def _until(page, script: str) -> None:
    """Wait until ``script`` is true in the page (page.wait_for_function would evaluate it through
    eval, which the pages' Content-Security-Policy forbids)."""
    deadline = time.monotonic() + 10
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(50)


def _installed(page, server, path="/"):
    """Open ``path``, then wait until the service worker controls the page and has kept its files."""
    page.goto(server + path)
    _until(page, "navigator.serviceWorker.controller !== null")
    _until(page, "caches.keys().then(names => names.length === 1)")


def _table(page, server) -> dict:
    """A Zamek table of two teams made through the API: its links (the referee's, the seats')."""
    answer = page.request.post(
        server + "/api/v1/tables",
        data={"game": "zamek", "options": {"variant": "extended", "players": ["Ola", "Kuba"], "teams": True}},
    )
    assert answer.ok, answer.text()
    return answer.json()["links"]


def test_the_worker_registers_for_the_whole_site_and_keeps_the_help_pages(server, chromium):
    context, page = own_phone(chromium)
    _installed(page, server)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == server + "/"
    kept = page.evaluate(CACHED)
    for path in (
        "/offline",
        "/help",
        "/castle/help",
        "/zamek/help",
        "/static/castellan.css",
        "/static/outbox.js",
    ):
        assert path in kept
    assert "/" not in kept  # the home page lists this browser's tables: never kept
    context.close()


def test_offline_a_help_page_opens_and_a_page_never_visited_says_what_still_works(server, chromium):
    context, page = own_phone(chromium)
    _installed(page, server)
    context.set_offline(True)
    page.goto(server + "/fort/help")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Fort")
    page.goto(server + "/print")  # a page never kept
    expect(page.get_by_role("heading", level=1)).to_have_text("Not connected")
    expect(page.get_by_role("link", name="How to play Castle")).to_have_count(0)  # the games are named
    page.get_by_role("link", name="Castle", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Castle")
    page.go_back()
    assert page.url == server + "/print"
    assert page.get_by_role("link", name="Try again").get_attribute("href") == ""  # this address
    assert_accessible(page)
    context.set_offline(False)  # the Wi-Fi back: the page opens by itself
    expect(page.get_by_role("heading", level=1)).to_have_text("Print")
    context.close()


def test_no_table_page_is_ever_kept_whoever_opens_it(server, chromium):
    context, page = own_phone(chromium)
    _installed(page, server)
    links = _table(page, server)
    tokens = [links["referee"]["token"], links["viewer"]["token"]] + [
        seat["token"] for seat in links["seats"]
    ]
    for token in tokens:
        page.goto(f"{server}/t/{token}")
        expect(page.locator("#live")).to_be_visible()
    page.goto(f"{server}/t/{tokens[0]}/links")
    kept = page.evaluate(CACHED)
    assert not [path for path in kept if path.startswith("/t/")], kept
    assert not [path for path in kept if any(token in path for token in tokens)], kept
    # Offline, a table page is the offline page: nothing of the table was kept.
    context.set_offline(True)
    page.goto(f"{server}/t/{tokens[2]}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Not connected")
    assert "Ola" not in page.content()
    context.close()


# Every response kept in this origin's Cache Storage: its address and its body.
KEPT_BODIES = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      kept.push([request.url, await (await cache.match(request)).text()]);
    }
  }
  return kept;
}"""
# What the worker may keep: the static files, the help pages and the offline page.
MAY_KEEP = re.compile(r"^/static/.+|^(/[a-z]+)?/help$|^/offline$")


def test_no_way_a_request_meets_the_worker_keeps_anything_behind_a_link(server, chromium):
    """Every branch of sw.js, from the pages a phone opens and the requests its pages make: a help
    page asked for with a query (shown, not kept), a table's pages and files (network only), the
    polls, the API, a move. Only the static files and the help pages at their own addresses are
    kept, and nothing kept holds a link's token, in its address or in its body."""
    context, page = own_phone(chromium)
    _installed(page, server)
    links = _table(page, server)
    tokens = [links["referee"]["token"], links["viewer"]["token"]] + [
        seat["token"] for seat in links["seats"]
    ]
    seat = tokens[2]
    page.goto(f"{server}/castle/help?from=/t/{seat}")  # a help page's branch, with a query
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Castle")
    page.evaluate(
        "caches.keys().then(names => caches.open(names[0])).then(cache => cache.delete('/fort/help'))"
    )
    page.goto(f"{server}/fort/help")  # the help page's branch: fetched, and kept again
    for path in ("", "/links", "/history", "/replay"):  # navigations: network only
        page.goto(f"{server}/t/{seat}{path}")
    page.goto(f"{server}/t/{tokens[0]}")
    expect(page.locator("#live")).to_be_visible()
    page.evaluate(
        """async seat => {
          await fetch('/t/' + seat + '/live');  // the page's own requests: left to the network
          await fetch('/t/' + seat + '/export.json');
          await fetch('/api/v1/tables/' + seat);
          await fetch('/history');
          await fetch('/t/' + seat + '/undo', {method: 'POST'});  // a POST (refused): never the worker's
        }""",
        seat,
    )
    kept = page.evaluate(KEPT_BODIES)
    paths = {urlsplit(url).path for url, _body in kept}
    assert "/fort/help" in paths
    assert not {path for path in paths if not MAY_KEEP.match(path)}, paths
    assert not [url for url, body in kept if any(token in url or token in body for token in tokens)]
    # Offline, a static file comes from the cache (the first branch), a table page is the offline page.
    context.set_offline(True)
    assert page.evaluate("fetch(document.querySelector('link[rel=stylesheet]').href).then(r => r.ok)")
    page.goto(f"{server}/t/{seat}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Not connected")
    context.close()


# How each poll of the table reached Castellan: Chromium names the worker's route that matched it.
POLLS_ROUTED = """() => performance.getEntriesByType('resource')
    .filter(entry => entry.name.endsWith('/live')).map(entry => entry.workerMatchedSourceType)"""


def test_a_tables_polls_and_moves_go_straight_to_the_network_not_through_the_worker(server, chromium):
    """The worker is not woken for a table's polls and moves (static routing): a catch-up after the
    phone wakes and a move cost what they cost without it."""
    context, page = own_phone(chromium)
    _installed(page, server, "/scorepad/")
    page.get_by_label("Players, one name per line").fill("Ola\nKuba")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Record round")).to_be_visible()
    assert page.evaluate("navigator.serviceWorker.controller !== null")  # the table page is the worker's
    _until(page, f"({POLLS_ROUTED})().length >= 2")
    assert set(page.evaluate(POLLS_ROUTED)) == {"network"}
    context.close()


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


def test_the_manifest_names_the_app_its_home_page_and_its_icons(server, chromium):
    context, page = own_phone(chromium)
    page.goto(server + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(server + href)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Castellan"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    purposes = set()
    for icon in manifest["icons"]:
        image = page.request.get(server + icon["src"])
        assert image.headers["content-type"] == "image/png"
        width, height = _png_size(image.body())
        assert icon["sizes"] == f"{width}x{height}"
        purposes.add((icon["purpose"], width))
    assert purposes == {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)}
    context.close()


def test_over_plain_http_on_the_wi_fi_no_worker_is_registered(server, chromium):
    """http://192.168.1.20 is not a secure context: the page registers nothing and works as before."""
    context, page = own_phone(chromium)
    context.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto(server + "/castle/help")
    page.wait_for_load_state("load")  # castellan.js has run
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    assert page.evaluate("caches.keys()") == []
    context.close()


def test_the_offline_page_opened_at_its_own_address_stays_put(server, chromium):
    """Online, the offline page asked for by its own address has nothing to reopen: it must not
    reload itself again and again (it did, every time its check of the network succeeded)."""
    _context, page = own_phone(chromium)
    loads = []
    page.on("load", lambda: loads.append(time.monotonic()))
    page.goto(server + "/offline")
    expect(page.locator("#not-connected")).to_be_visible()
    page.wait_for_timeout(2000)  # the check runs on pageshow: a reload would have come by now
    assert len(loads) == 1
