"""Junk at every rule of the app, by walking its URL map: never a server error.

``test_fuzz.py`` crawls the pages' forms; this walks ``app.url_map`` instead, so that a route no
page links to is fuzzed too. Each rule is asked with each method it takes, its path arguments
filled with real links (every game's table, each role) and with junk, and every name the code
reads from a query, a form or a JSON body (found by reading the source) given each junk value:
the wrong JSON type, huge integers, digits that are not ASCII (``²``, ``⑦``, ``٣``), control
characters, long text, deep nesting.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from companion.app import create_app
from tests.conftest import Browser
from tests.web.test_fuzz import fuzz_config

ROOT = Path(__file__).resolve().parents[2]
SOURCE, TEMPLATES = ROOT / "companion", ROOT / "templates"
# A name read from a request: args.get("next"), form.get("round"), body["game"], _count("imported")...
_READ = re.compile(
    r"""\.(?:get|getlist|pop|setdefault)\(\s*"([A-Za-z_][\w-]*)"|\[\s*"([a-z_]+)"\s*\]|_\w+\(\s*"([a-z_]+)"\s*\)"""
)
GROUP = 8  # names given junk together, the others left out: a refusal of one cannot hide the others
TEXT_JUNK = [
    "²",
    "⑦",
    "٣٤",
    "１２",
    "7" * 27,
    "-1",
    "0",
    "1e309",
    "a\r\nSet-Cookie: x=1",
    "\x00\x1b\t",
    "/%09/evil.example",
    "x" * 3000,
    "",
    "[1]",
]
JSON_JUNK = [[1], {"a": 1}, 10**26, -(10**30), 1.5, 1e308, True, None, "²", "⑦", [[[[[[[]]]]]]], "\r\n"]
PATH_JUNK = ["²", "⑦", "٣", "x" * 300, "a b", "%0d%0a", "7" * 27, "-1", "0"]
TABLES = {
    "castle": {"players": "4"},
    "fort": {"players": "2"},
    "forteresse": {"mode": "phones"},
    "zamek": {"players": ["Ola", "Kuba"], "teams": "yes"},
    "tactics": {"players": "2", "faction_p1": "wardens", "faction_p2": "roost"},
    "scorepad": {"players": "Ola\nKuba"},
}


def _names() -> list[str]:
    """Every name the code reads from a mapping by a literal, or by a helper given one (the query,
    form and JSON fields among them), and every field a template names."""
    found: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        for match in _READ.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2) or match.group(3))
    for path in TEMPLATES.rglob("*.html"):
        found.update(re.findall(r'name="([A-Za-z_][A-Za-z0-9_-]*)"', path.read_text(encoding="utf-8")))
    return sorted(found)


@pytest.fixture
def fuzz_app(tmp_path):
    return create_app(fuzz_config(tmp_path))


def _path_values(browser: Browser) -> dict[str, list[str]]:
    """Values for each kind of path argument: real ones (every game's table through each role's
    link, a finished play, its players) and junk."""
    tokens = []
    for game, form in TABLES.items():
        token = browser.create_table(game, form)
        links = re.findall(r"/t/([A-Za-z0-9_-]{10,64})", browser.get(f"/t/{token}/links").data.decode())
        tokens += list(dict.fromkeys([token, *links]))[: 3 if game == "forteresse" else 1]
    pad = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    browser.post(f"/t/{pad}/act", {"version": "0", "points": ["3", "4"]})
    browser.post(f"/t/{pad}/finish", {})
    plays = browser.client.get("/api/v1/plays").get_json()["plays"]
    play_ids = [play["id"] for play in plays]
    players = re.findall(r"/players/(\d+)", browser.get("/players").data.decode())
    return {
        "token": tokens + PATH_JUNK,
        "play_id": play_ids + PATH_JUNK,
        "player_id": players[:1] + ["0", "7" * 27],  # an <int:...>: ASCII digits only reach the view
        "slug": ["castle", "tactics", "scorepad", "score-pad", *PATH_JUNK],
        "game_slug": list(TABLES) + PATH_JUNK[:4],
        "lang": ["pl", "fr", *PATH_JUNK[:4]],
        "filename": ["castellan.js", "../app.py", *PATH_JUNK[:3]],
    }


def _paths(rule, values: dict[str, list[str]]) -> list[str]:
    """The rule's path with each value of each of its arguments (the others at their first value)."""
    if not rule.arguments:
        return [rule.rule]
    paths = []
    for argument in sorted(rule.arguments):
        for value in values.get(argument, PATH_JUNK):
            filled = {name: values.get(name, PATH_JUNK)[0] for name in rule.arguments}
            filled[argument] = value
            path = rule.rule
            for name, given in filled.items():
                path = re.sub(rf"<(?:[a-z]+:)?{name}>", quote(given, safe="%"), path)
            paths.append(path)
    return list(dict.fromkeys(paths))


def _json_bodies(names: list[str]) -> list[bytes]:
    bodies = [json.dumps(junk).encode() for junk in JSON_JUNK]
    bodies += [json.dumps(dict.fromkeys(names, junk)).encode() for junk in JSON_JUNK]
    fields = ("game", "options", "action", "version", "private", "players", "round", "points")
    bodies += [json.dumps({name: junk}).encode() for name in fields for junk in JSON_JUNK]
    return bodies


def test_junk_at_every_rule_never_gives_a_server_error(fuzz_app, caplog):
    browser = Browser(fuzz_app.test_client())
    browser.get("/")
    values = _path_values(browser)
    names = _names()
    caplog.set_level(logging.ERROR)
    failures: list[str] = []
    sent = 0

    def check(response, what: str) -> None:
        nonlocal sent
        sent += 1
        if response.status_code >= 500:
            failures.append(f"{response.status_code} {what[:160]}")

    client = browser.client
    junk_paths = {quote(value, safe="%") for value in PATH_JUNK}
    groups = [names[i : i + GROUP] for i in range(0, len(names), GROUP)]
    for rule in fuzz_app.url_map.iter_rules():
        for number, path in enumerate(_paths(rule, values)):
            methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
            if any(part in junk_paths for part in path.split("/")):
                for method in methods:  # a junk link is refused before anything else is read
                    check(client.open(path, method=method), f"{method} {path}")
                continue
            # Every name at once with each junk value; on the rule's first path, each group alone too.
            # A table's many links all reach the same few views: half the junk values there.
            junk_values = TEXT_JUNK[::2] if path.startswith(("/t/", "/api/v1/tables/")) else TEXT_JUNK
            fields = [dict.fromkeys(names, junk) for junk in junk_values]
            if number == 0:
                fields += [dict.fromkeys(group, TEXT_JUNK[i % 5]) for i, group in enumerate(groups)]
            for method in methods:
                if method == "GET":
                    check(client.get(path), f"GET {path}")
                    for sent_fields in fields:
                        check(client.get(path, query_string=sent_fields), f"GET {path} ?{sent_fields}")
                elif path.startswith("/api/"):
                    for body in _json_bodies(names):
                        answer = client.post(path, data=body, content_type="application/json")
                        check(answer, f"POST {path} {body[:60]!r}")
                else:
                    for sent_fields in fields:
                        form = {**sent_fields, "csrf_token": browser.csrf}
                        answer = client.post(path, data=form, headers={"HX-Request": "true"})
                        check(answer, f"POST {path} {sent_fields}")
            for method in ("PUT", "DELETE", "PATCH"):
                if method not in rule.methods:
                    check(client.open(path, method=method), f"{method} {path}")

    print(f"{sent} requests fuzzed, {len(failures)} server errors")
    assert sent > 3000
    assert not failures, f"{len(failures)} server errors of {sent} requests:\n" + "\n".join(failures[:40])
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
