"""companion/web/templating.py takes shortcuts through Jinja's public hooks (Context.call,
Environment.make_globals, Template.from_code: the name compiled templates escape with) and keeps
drawn pieces (``once``). Real pages drawn with them must be what Flask's plain Jinja environment draws:
if a Jinja upgrade changes what the shortcuts rely on, this fails (pyproject.toml pins Jinja2's
minor series they were checked against)."""

from __future__ import annotations

import importlib
import random
import re
from typing import NamedTuple

import jinja2
import pytest
from flask.templating import Environment as FlaskEnvironment

from bench.bench import BENCH_OPTIONS, random_moves
from companion import store
from companion.app import create_app
from companion.store import db
from companion.web import templating

# What differs between two renderings of one page by design: the session's CSRF token, a
# form's fresh idempotency key.
_TOKENS = re.compile(r'((?:csrf_token|idempotency_key)"[^>]*value="|X-CSRF-?Token"?: ")[^"]+')


def _mid_game_tables(database: str) -> dict[str, str]:
    """Every game's table halfway through a random game (seeded): its referee's token."""
    store.migrate(database)
    conn = db.connect(database)
    tokens = {}
    for name, options in {"scorepad": {"players": ["Ola", "Kuba", "Ada"]}, **BENCH_OPTIONS}.items():
        rules = importlib.import_module(f"companion.rules.{name}")
        table, links = store.create_table(conn, rules, name, options)
        moves = random_moves(name, rules, table.state, random.Random(name), limit=160)
        for actor, action in moves[: max(len(moves) // 2, 1)]:
            table = store.act(conn, rules, table.id, actor, action, table.version)
        tokens[name] = links[0].token
    conn.close()
    return tokens


def _pages(app, tokens: dict[str, str], lang: str) -> dict[str, str]:
    pages = {}
    for name, token in tokens.items():
        client = app.test_client()
        client.set_cookie("lang", lang)
        for path, headers in ((f"/t/{token}", {}), (f"/t/{token}/live", {"HX-Request": "true"})):
            response = client.get(path, headers=headers)
            assert response.status_code == 200, (path, response.data[:300])
            pages[f"{name} {lang} {path}"] = _TOKENS.sub(r"\1-", response.get_data(as_text=True))
    return pages


def test_pages_are_what_plain_jinja_draws(tmp_path, monkeypatch):
    database = str(tmp_path / "castellan.sqlite3")
    tokens = _mid_game_tables(database)
    # the whole page kept off (companion/pagecache.py, tests/web/test_page_cache.py): the pieces are drawn
    config = {
        "DATABASE": database,
        "SECRET_KEY": "test",
        "TESTING": True,
        "SWEEP_DAYS": 0,
        "PAGE_CACHE_ENTRIES": 0,
    }
    fast = create_app(config)
    assert isinstance(fast.jinja_env, templating.TemplateEnvironment)
    # twice: the second time every drawn piece comes from what ``once`` kept
    drawn = {lang: [_pages(fast, tokens, lang) for _ in range(2)] for lang in ("en", "fr")}

    monkeypatch.setattr(templating, "TemplateEnvironment", FlaskEnvironment)
    monkeypatch.setattr(templating, "TemplateClass", jinja2.Template)
    monkeypatch.setattr(templating, "PIECES_KEPT", 0)  # each macro's cache, made with its template: none
    plain = create_app(config)
    assert type(plain.jinja_env) is FlaskEnvironment and plain.jinja_env.template_class is jinja2.Template
    for lang, (first, again) in drawn.items():
        expected = _pages(plain, tokens, lang)
        assert expected.keys() == first.keys()
        for page, text in expected.items():
            assert first[page] == text, page
            assert again[page] == text, page
    # the kept pieces were drawn in each page's own language
    assert re.search(
        r'class="tcard [^>]*aria-label="[^"]*: haut \d, droite \d',
        drawn["fr"][1][f"tactics fr /t/{tokens['tactics']}"],
    )
    assert re.search(
        r'class="tcard [^>]*aria-label="[^"]*: top \d, right \d',
        drawn["en"][1][f"tactics en /t/{tokens['tactics']}"],
    )


def test_each_macro_is_wrapped_once_per_template_so_its_pieces_last(tmp_path):
    """A macro's kept pieces live in its template's module: Jinja makes that module once (the
    environment's globals are every template's, ``make_globals``), not at each page drawn, so the
    second page draws from what the first kept."""
    database = str(tmp_path / "castellan.sqlite3")
    tokens = _mid_game_tables(database)
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "PAGE_CACHE_ENTRIES": 0})
    wrapped = []
    once = app.jinja_env.globals["once"]
    app.jinja_env.globals["once"] = lambda macro: wrapped.append(macro) or once(macro)
    first = _pages(app, tokens, "en")
    count = len(wrapped)
    assert count >= 30 and _pages(app, tokens, "en") == first and len(wrapped) == count


@pytest.mark.parametrize("value", [1, True, 1.0, "1"])
def test_kept_pieces_tell_arguments_apart_by_type(value):
    frozen = {type(other): templating._frozen(other) for other in (1, True, 1.0, "1")}
    assert [kind for kind, key in frozen.items() if key == templating._frozen(value)] == [type(value)]


def test_kept_pieces_are_bounded_and_the_least_recently_used_go_first(monkeypatch):
    monkeypatch.setattr(templating, "PIECES_KEPT", 3)
    calls = []

    def piece(number):
        calls.append(number)
        return f"<b>{number}</b>"

    drawn = templating.once_per(lambda: "en")(piece)
    assert [drawn(number) for number in (1, 2, 3, 1, 4)] == [f"<b>{number}</b>" for number in (1, 2, 3, 1, 4)]
    assert calls == [1, 2, 3, 4]  # 1 was used again: 2 was forgotten for 4, not 1
    assert [drawn(1), drawn(2)] == ["<b>1</b>", "<b>2</b>"] and calls == [1, 2, 3, 4, 2]


def test_each_macro_keeps_its_own_pieces_by_value():
    """Two macros given the same arguments each draw their own: the macro is the cache's, not a key's
    part; a list or dict argument is a key by its values, and its macro is given an equal copy."""
    once = templating.once_per(lambda: "en")
    bold, italic = once(lambda text: f"<b>{text}</b>"), once(lambda text: f"<i>{text}</i>")
    assert [bold("x"), italic("x"), bold("x")] == ["<b>x</b>", "<i>x</i>", "<b>x</b>"]
    given = []
    listed = once(lambda items, named=None: given.append((items, named)) or len(given))
    value = [{"cell": "A1", "free": True, "marks": [1, 2.5]}, ("B2", None)]
    assert [listed(value, named={"a": [1]}), listed([*value], named={"a": [1]})] == [1, 1]
    assert given == [(value, {"a": [1]})] and type(given[0][0][1]) is tuple
    assert type(given[0][0][0]["free"]) is bool and listed(value, named={"a": [True]}) == 2


def test_plain_arguments_and_declared_values_are_keys_told_apart_by_type():
    calls = []

    def piece(value, flag=False):
        calls.append(value)
        return f"{value!r} {flag!r}"

    drawn = templating.once_per(lambda: "en")(piece)
    assert [drawn(value) for value in (1, True, 1.0, "1", 1)] == [
        "1 False",
        "True False",
        "1.0 False",
        "'1' False",
        "1 False",
    ]
    assert [drawn(1, flag=1), drawn(1, flag=True), drawn(1, flag=1)] == ["1 1", "1 True", "1 1"]
    assert len(calls) == 6

    @templating.keyed_as_they_are
    class Spot(NamedTuple):
        cell: str
        free: bool

    calls.clear()
    assert [
        drawn(Spot("A1", True)),
        drawn(Spot("A1", True)),
        drawn(Spot("A1", False)),
        drawn(("A1", True)),
    ] == [
        "Spot(cell='A1', free=True) False",
        "Spot(cell='A1', free=True) False",
        "Spot(cell='A1', free=False) False",
        "('A1', True) False",
    ]
    assert len(calls) == 3
