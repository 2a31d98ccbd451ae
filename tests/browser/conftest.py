"""A real server and a real browser: Debian's headless Chromium driven by Playwright, phone-sized.

The server is Castellan under waitress on a free loopback port with its own database;
each test gets fresh browser contexts (separate phones: separate cookies).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading

import pytest

CHROMIUM = os.environ.get("CASTELLAN_CHROMIUM", "/usr/bin/chromium")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Castellan served for real on 127.0.0.1; yields its base URL."""
    from companion.app import create_app

    folder = tmp_path_factory.mktemp("server")
    # Every phone of the suite comes from 127.0.0.1: the per-address limits (20 new tables, 30 PDFs
    # a minute) would refuse a fast machine's suite. They have their own tests in tests/web.
    app = create_app(
        {
            "DATABASE": str(folder / "castellan.sqlite3"),
            "SECRET_KEY": "browser-tests",
            "POLL_SECONDS": 0.5,
            "TABLES_PER_MINUTE": 100_000,
            "PDFS_PER_MINUTE": 100_000,
            "IMPORTS_PER_MINUTE": 100_000,
        }
    )
    yield from serving(app)


def serving(app):
    """Serve ``app`` for real on a free port of 127.0.0.1 (waitress, 8 threads) in a thread of
    this process; yields its base URL, then stops (a fixture's body: ``yield from serving(app)``)."""
    from waitress.server import create_server

    port = _free_port()
    httpd = create_server(app, host="127.0.0.1", port=port, threads=8)
    threading.Thread(target=httpd.run, daemon=True).start()
    yield f"http://127.0.0.1:{port}"
    httpd.close()


@pytest.fixture(scope="session")
def chromium():
    """Headless Chromium from Debian (never a browser downloaded by Playwright)."""
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium):
    """A phone: a fresh browser context at 390x844; it fails the test on any page error."""
    yield from _context(chromium)


@pytest.fixture
def second_phone(chromium):
    """Another phone at the same table, with its own cookies."""
    yield from _context(chromium)


SIZES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


@pytest.fixture(params=SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def sized_phone(request, chromium):
    """A phone of each size, failing the test on any page error (as the phone fixture does)."""
    yield from _context(chromium, viewport=request.param)


@pytest.fixture(params=SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def plain_phone(request, chromium):
    """A phone of each size with JavaScript off: plain posts and full pages."""
    context = chromium.new_context(viewport=request.param, java_script_enabled=False)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _is_error(message) -> bool:
    """A console error, except Chromium's note about a refusal Castellan answered on purpose, and
    htmx's note about a request it was told to drop.

    A refused move is a 403 (viewer), 409 (stale) or 422 (against the rules) whose fragment
    htmx shows; Chromium still logs it as a failed load.
    """
    if message.type != "error":
        return False
    if message.text.startswith(("htmx:sendAbort", "htmx:afterRequest")):
        # A request htmx dropped on purpose (hx-sync="this:replace": a newer tap replaces a check
        # in flight) is logged as an error with its after-request note; a real failure also logs
        # htmx:responseError or htmx:sendError, which still count.
        return False
    return not re.search(
        r"Failed to load resource: the server responded with a status of (403|409|422)", message.text
    )


def own_phone(chromium, **overrides):
    """A phone (PHONE, with ``overrides``) whose failed requests are the point of its test: the
    errors Chromium logs for them do not fail it, as they fail ``_context``'s. Its context and page."""
    context = chromium.new_context(**{**PHONE, **overrides})
    context.set_default_timeout(10_000)
    return context, context.new_page()


def _context(chromium, **overrides):
    """A phone (PHONE, with ``overrides`` such as another viewport) that fails its test on any page error."""
    context = chromium.new_context(**{**PHONE, **overrides})
    context.set_default_timeout(10_000)
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    page = context.new_page()
    page.on("console", lambda message: errors.append(message.text) if _is_error(message) else None)
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


def invite_href(page, label: str) -> str:
    """The address on the invitation card of ``label`` (a seat's or a role's name), matched on the
    card's name alone: the addresses' random tokens could hold the name's letters ("...PLrOLA")."""
    name = page.locator("figcaption strong", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
    return page.locator(".invite-card").filter(has=name).locator("a.address").get_attribute("href")


def settled(page) -> None:
    """Wait until the table takes taps again: a swap's settling time over, no move on its way
    (castellan.js). A click sent before would wait too, but Playwright scrolls while it waits."""
    page.wait_for_function("() => !document.querySelector('#live[data-settling]')")
