"""Junk at every page, form and API endpoint: each answer is a refusal or a page, never a server error.

The forms are found by reading the pages (every game's pages and a table of each game
through each of its links), the endpoints from the OpenAPI document, so a new form or
endpoint is fuzzed without editing this file. Each page gets junk headers (a bad Host among
them); each form gets every junk value in all its fields at once, each field alone with
junk, every field twice, and nothing at all.
"""

from __future__ import annotations

import json
import logging
import re
from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

import pytest

from companion.app import create_app
from tests.conftest import Browser

DEEP = 5000
TEXT_JUNK = [
    "",
    "   ",
    "x" * 20_000,
    "\x00",
    "a\x00b",
    "\u202eﻉﺮﺑﻲ \u05e2\u05d1\u05e8\u05d9\u05ea\u202c",
    "👑🏰🃏" * 40,
    "-1",
    "99999999999999999999999",
    "1e309",
    "NaN",
    "<script>alert(1)</script>",
    "[" * DEEP,
    '{"a": ' * 200 + "1" + "}" * 200,
    "../../../etc/passwd",
]
JSON_JUNK = [
    None,
    True,
    -1,
    2**70,
    1e308,
    "",
    "x" * 20_000,
    "\x00",
    "\u202eRTL",
    "👑" * 100,
    [],
    {},
    [[]] * 50,
    {"a": {"b": {"c": []}}},
]
HEADER_JUNK = [
    {"Host": "a" * 64 + ".example"},
    {"Host": "x." * 120 + "com"},
    {"If-None-Match": "\x00" * 50 + '"' * 20},
    {"Accept-Encoding": "br;q=abc, gzip;q=-1, *"},
    {"HX-Request": "true", "HX-History-Restore-Request": "true", "HX-Target": "👑" * 100},
    {"Cookie": "session=" + "x" * 3000},
    {"X-Forwarded-For": "1.2.3.4, junk", "X-Forwarded-Host": "a" * 300, "X-Forwarded-Proto": "gopher"},
]
GAMES_WITH_TABLES = {
    "castle": {"players": "4"},
    "fort": {"players": "2"},
    "forteresse": {"mode": "phones"},
    "zamek": {"players": ["Ola", "Kuba"], "teams": "yes"},
    "tactics": {
        "players": "2",
        "faction_p1": "wardens",
        "faction_p2": "roost",
        "name_p1": "Ola",
        "name_p2": "Kuba",
    },
    "scorepad": {"players": "Ola\nKuba"},
}


class _Forms(HTMLParser):
    """Every form of a page: its method, its action and its named fields with their values."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {
                    "method": (attrs.get("method") or "get").lower(),
                    "action": attrs.get("action"),
                    "fields": {},
                }
            )
        elif (
            tag in ("input", "select", "textarea", "button")
            and self.forms
            and attrs.get("name", "csrf_token") != "csrf_token"
        ):
            self.forms[-1]["fields"].setdefault(attrs["name"], attrs.get("value") or "")


def fuzz_config(tmp_path) -> dict:
    """An app's configuration whose limits no fuzzing reaches, on a fresh database."""
    return {
        "DATABASE": str(tmp_path / "fuzz.sqlite3"),
        "SECRET_KEY": "fuzz",
        "TESTING": True,
        "TABLES_PER_MINUTE": 100_000,
        "PDFS_PER_MINUTE": 100_000,
        "IMPORTS_PER_MINUTE": 100_000,
    }


@pytest.fixture
def fuzz_app(tmp_path):
    return create_app(fuzz_config(tmp_path))


def _pages(app, browser: Browser) -> list[str]:
    """Every page without parameters, and each game's table through every one of its links."""
    pages = [
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and not rule.arguments and not rule.rule.startswith("/api/")
    ]
    for game, form in GAMES_WITH_TABLES.items():
        token = browser.create_table(game, form)
        links = re.findall(r"/t/([A-Za-z0-9_-]{10,64})", browser.get(f"/t/{token}/links").data.decode())
        for link in dict.fromkeys([token, *links]):
            pages += [f"/t/{link}", f"/t/{link}/links", f"/t/{link}/history"]
    return pages


def _forms(browser: Browser, pages: list[str]) -> list[tuple[str, str, dict]]:
    found = {}
    for page in pages:
        parser = _Forms()
        parser.feed(browser.get(page).data.decode())
        for form in parser.forms:
            action = urlsplit(form["action"] or page).path
            key = (form["method"], action, tuple(sorted(form["fields"])))
            found.setdefault(key, (form["method"], action, form["fields"]))
    return list(found.values())


def _variants(fields: dict) -> list[list[tuple[str, str]]]:
    """The junk forms for one form's fields, as lists of (name, value) pairs."""
    names = list(fields) or ["anything"]
    variants = [[], [(name, value) for name, value in fields.items()]]
    variants += [[(name, junk) for name in names] for junk in TEXT_JUNK]
    variants += [
        [
            (other, TEXT_JUNK[i % len(TEXT_JUNK)] if other == name else fields.get(other, ""))
            for other in names
        ]
        for i, name in enumerate(names)
    ]
    variants.append([pair for name in names for pair in ((name, "a"), (name, "b"))])
    return variants


def _send(browser: Browser, method: str, action: str, pairs: list[tuple[str, str]], htmx: bool):
    headers = {"HX-Request": "true"} if htmx else {}
    if method == "post":
        return browser.client.post(
            action,
            data=urlencode([("csrf_token", browser.csrf), *pairs]),
            content_type="application/x-www-form-urlencoded",
            headers=headers,
        )
    return browser.client.get(action, query_string=pairs, headers=headers)


def _api_bodies(schema: dict) -> list[bytes]:
    bodies = [json.dumps(junk).encode() for junk in JSON_JUNK]
    bodies += [b"[" * DEEP + b"]" * DEEP, b'{"a":' * DEEP + b"1" + b"}" * DEEP, b"{", b"\xff\xfe", b"NaN"]
    properties = list((schema.get("properties") or {}).keys()) or ["anything"]
    bodies += [json.dumps({name: junk for name in properties}).encode() for junk in JSON_JUNK]
    bodies += [json.dumps({name: [junk] for name in properties}).encode() for junk in JSON_JUNK[:6]]
    return bodies


def test_junk_at_every_form_and_endpoint_never_gives_a_server_error(fuzz_app, caplog):
    browser = Browser(fuzz_app.test_client())
    browser.get("/")
    caplog.set_level(logging.ERROR)
    failures, sent = [], 0

    def check(response, what):
        nonlocal sent
        sent += 1
        if response.status_code >= 500:
            failures.append(f"{response.status_code} {what}")

    pages = _pages(fuzz_app, browser)
    table_pages = [page for page in pages if page.startswith("/t/")]
    # Every table page goes through the same few views: junk headers on one table's pages are enough.
    for page in [page for page in pages if page not in table_pages] + table_pages[:9]:
        for headers in HEADER_JUNK:
            check(browser.client.get(page, headers=headers), f"GET {page} {str(headers)[:80]}")
    forms = _forms(browser, pages)
    assert len({action for _method, action, _fields in forms}) >= 15, "the crawl found too few forms"
    for method, action, fields in forms:
        for i, pairs in enumerate(_variants(fields)):
            response = _send(browser, method, action, pairs, htmx=i % 2 == 0)
            check(response, f"{method.upper()} {action} {str(pairs)[:120]}")
            if response.status_code in (302, 303):  # Post/Redirect/Get: the page that says why
                check(
                    browser.get(response.headers["Location"]),
                    f"after {method.upper()} {action} {str(pairs)[:100]}",
                )

    document = browser.get("/api/v1/openapi.json").get_json()
    token = re.search(r"/t/([A-Za-z0-9_-]+)", browser.get("/").data.decode() + str(forms)).group(1)
    for path, operations in document["paths"].items():
        url = "/api/v1" + re.sub(r"\{[^}]+\}", token, path)
        for method, operation in operations.items():
            if method != "post":
                check(browser.client.open(url, method=method.upper()), f"{method} {url}")
                continue
            schema = (
                operation.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("schema", {})
            )
            for body in _api_bodies(schema):
                check(
                    browser.client.post(url, data=body, content_type="application/json"),
                    f"POST {url} {body[:80]!r}",
                )
            check(browser.client.post(url, data="a=b"), f"POST {url} as a form")

    assert sent > 1000
    assert not failures, f"{len(failures)} server errors of {sent} requests:\n" + "\n".join(failures[:30])
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
