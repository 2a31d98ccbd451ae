"""Nothing a person reads in French or Polish is still English (issue 17).

One phone in Polish and one in French walk every page a person reaches: the pages found by
following the links from home (help pages, tools, history, players, print, files), every tool's
form sent as it stands and with junk typed in, a table of each game at its start, along the way,
after a refusal and at its end (played through the API with the rules' own random legal moves, as
tests/web/test_tables_api_games.py does) from every link's point of view with its fragments, the
error pages, and the JSON API's error messages. Each page's text (markup stripped; the words of
``aria-label``, ``title``, ``placeholder``, ``alt`` and a submit button's ``value`` kept) is searched for
common English words as whole words. ``ALLOWED`` is what legitimately stays English.
"""

from __future__ import annotations

import html
import io
import random
import re
from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin, urlsplit

import pytest

from companion.rules import tactics
from tests.conftest import Browser, table_state
from tests.web.test_tables_api_games import GAMES

# English words that are neither French nor Polish words ("a", "to", "on", "we", "was", "one", "most", "same",
# "type", "vote", "file", "link", "table", "page", "pile", "centre", "score", "points", "start" and "by" are).
ENGLISH = re.compile(
    r"\b(the|and|your|you|with|is|are|of|for|this|that|these|those|has|have|had|not|be|will|here|there|what"
    r"|which|who|when|where|why|how|from|it|its|in|into|all|each|every|must|may|can|cannot|player|players|move"
    r"|moves|card|cards|turn|game|games|round|rounds|undo|back|new|help|history|win|wins|won|winner|nothing"
    r"|left|name|names|choose|wall|walls|deck|team|teams|been|were|out|than|then|only|two"
    r"|three|four|five|first|last|next|previous|yet|any|should|would|does|did|don't|isn't|can't|or|again"
    r"|already|still|also|because|before|after|over|more|less|some|other|now|just|make|take|give"
    r"|play|plays|played|tap|sheet|sheets|print|printed|open|close|save|cancel|delete|forget|rename"
    r"|show|see|view|watch|join|leave|captain|tower|soldier|soldiers|army|attacker|defender"
    r"|challenge|battle|judge|hand|board|cell|cells|corner|corners|side|sides|captured|capture|deal"
    r"|dealt|dealer|pass|extended|basic|draw|shot|miss|hit|free|seat|seats|referee|viewer|north"
    r"|south|east|west|empty|they|them|their|our|if|off)\b",
    re.IGNORECASE,
)
_FACTION_NAMES = sorted(
    {
        name
        for faction in tactics.load_factions().values()
        for name in [faction["name"], *(card["name"] for card in faction["cards"])]
    },
    key=len,
    reverse=True,
)
# French wants a no-break space before : ; ? ! and inside « » (a colon glued to a word, as English writes
# it, is caught too, but not in times, addresses or a JSON example's keys); Polish quotes „like this”.
TYPOGRAPHY = {
    "fr": re.compile(r"[ \t\n][:;?!»]|«[ \t\n]|(?<![\s\u00a0\d\"/]):[ \n]"),
    "pl": re.compile(r"[“«»]"),
}
# What stays English by design: the app's name, names the test types, and the like.
ALLOWED = [
    r"\bCastellan\w*",  # the app's name (declined in Polish: "z Castellanem")
    r'"\w+":',  # a JSON key in an example of a file to upload
    *(
        re.escape(name) for name in _FACTION_NAMES
    ),  # Square Tactics' factions and cards, as its rules fix them
    r"(?<=: )[a-z_]+(, [a-z_]+)*(?=\.)",  # the API's codes listed in its message (action types, fields)
    r"\bbasic (or|ou|lub) extended\b",  # Zamek's variants as the API names them
    r"/api/\S+",  # an API's address
    r"\S*/t/[\w-]+",  # a link's address (its random token may hold "-is-")
]
LANGS = ("pl", "fr")
NAMES = {"Ola", "Kuba", "Ada", "Jan"}


class _Reader(HTMLParser):
    """A page's text as a person reads (or hears) it: the words between tags, and the words of
    ``aria-label``, ``title``, ``placeholder``, ``alt`` and a submit button's ``value``; no script or style."""

    SAID = ("aria-label", "title", "placeholder", "alt")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "template"):
            self.hidden += 1
        self.parts.extend(attrs[name] for name in self.SAID if attrs.get(name))
        if tag == "input" and attrs.get("type") in ("submit", "button", "reset") and attrs.get("value"):
            self.parts.append(attrs["value"])
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.hidden = max(0, self.hidden - 1)
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def readable(page: str) -> str:
    reader = _Reader()
    reader.feed(page)
    return re.sub(r"\s+", " ", " ".join(reader.parts))


def as_written(page: str) -> str:
    """The page's words with their spaces as written: tags dropped without a space of their own, and
    no-break spaces kept (``readable`` turns them into plain ones)."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", "", page, flags=re.S)
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", "", page)))


def english_in(said: str) -> list[str]:
    """Each English word in ``said``, with a little of what surrounds it."""
    for allowed in ALLOWED:
        said = re.sub(allowed, " ", said)
    return [said[max(0, m.start() - 40) : m.end() + 40].strip() for m in ENGLISH.finditer(said)]


class Walk:
    """Pages read in one language, and the English found on them."""

    def __init__(self, app, lang: str):
        self.app = app
        self.lang = lang
        self.phone = Browser(app.test_client())
        self.phone.client.set_cookie("lang", lang)
        self.headers = {"Accept-Language": lang}
        self.found: dict[str, str] = {}  # what was found: where
        self.seen: set[str] = set()
        self.gaps: dict[str, str] = {}  # typography the language does not write: where

    def read(self, where: str, body: str) -> str:
        for hit in english_in(readable(body)):
            self.found.setdefault(re.sub(r"\d", "0", hit), where)  # once per sentence, wherever first
        said = as_written(body)
        for gap in TYPOGRAPHY[self.lang].finditer(said):
            context = said[max(0, gap.start() - 30) : gap.end() + 10].replace("\n", " ")
            self.gaps.setdefault(re.sub(r"\d", "0", context), where)
        return body

    def get(self, url: str, htmx: bool = False, **kwargs) -> str:
        headers = {**self.headers, **({"HX-Request": "true"} if htmx else {})}
        response = self.phone.get(url, headers=headers, **kwargs)
        assert response.status_code < 500, (url, response.status_code)
        if response.status_code in (301, 302, 303):
            return self.get(response.headers["Location"])
        return self.read(f"GET {url}{' (htmx)' if htmx else ''}", response.data.decode())

    def post(self, url: str, data: dict, htmx: bool = False, **kwargs) -> str:
        response = self.phone.post(url, data, htmx=htmx, headers=dict(self.headers), **kwargs)
        assert response.status_code < 500, (url, response.status_code)
        if response.status_code in (301, 302, 303):
            return self.get(response.headers["Location"])
        return self.read(f"POST {url} {data}{' (htmx)' if htmx else ''}", response.data.decode())

    def api(self, method: str, url: str, **kwargs) -> dict:
        response = getattr(self.phone.client, method)(url, headers=self.headers, **kwargs)
        body = response.get_json(silent=True) or {}
        error = body.get("error") if isinstance(body, dict) else None
        if error:
            self.read(f"{method.upper()} {url} {kwargs.get('json')}", html.escape(error["message"]))
        return body

    def crawl(self, start: list[str], limit: int = 400) -> None:
        """Every page reachable from ``start`` by links (tables aside), and every GET form on them
        sent as it stands and with junk typed into each of its fields."""
        queue = list(start)
        while queue and len(self.seen) < limit:
            url = queue.pop(0)
            if url in self.seen:
                continue
            self.seen.add(url)
            page = self.get(url)
            links, forms = _links_and_forms(page)
            for link in links:
                target = urljoin(url, link)
                parts = urlsplit(target)
                if parts.netloc or not _worth_following(parts.path):
                    continue
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
            for action, fields in forms:
                action = urljoin(url, action or url)
                if not _worth_following(urlsplit(action).path):
                    continue
                for data in (fields, {name: "zz" for name in fields}):
                    target = f"{urlsplit(action).path}?{urlencode(data, doseq=True)}"
                    if target not in self.seen:
                        self.seen.add(target)
                        self.get(target)
                        self.get(target, htmx=True)


def _worth_following(path: str) -> bool:
    skipped = ("/language/", "/t/", "/api/", "/static/")
    return not path.startswith(skipped) and not path.endswith((".pdf", ".json", ".csv"))


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.forms: list[tuple[str, dict]] = []
        self.form: tuple[str, dict] | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"].split("#")[0])
        elif tag == "form" and (attrs.get("method") or "get").lower() == "get":
            self.form = (attrs.get("action") or "", {})
            self.forms.append(self.form)
        elif self.form is not None and tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind == "submit" and self.form[1].get(attrs["name"]):
                return
            self.form[1].setdefault(attrs["name"], attrs.get("value") or "")
        elif self.form is not None and tag == "select":
            self.select = attrs.get("name")
        elif self.form is not None and tag == "option" and self.select:
            if self.select not in self.form[1] or "selected" in attrs:
                self.form[1][self.select] = attrs.get("value", "")
        elif self.form is not None and tag == "textarea" and attrs.get("name"):
            self.form[1].setdefault(attrs["name"], "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def _links_and_forms(page: str) -> tuple[list[str], list[tuple[str, dict]]]:
    parser = _Forms()
    parser.feed(page)
    return [link for link in parser.links if link], parser.forms


# --- Tables: every link's pages at the start, along the way, after a refusal and at the end. ---

STEPS = (0, 2, 20)
PAD_ROUNDS = 4


def _table_pages(walk: Walk, links: dict) -> None:
    """What each link sees (page, htmx fragment, live fragment), what the referee's link also
    reads (history, links, replay), and refusals through the forms and the API."""
    referee, viewer = links["referee"]["token"], links["viewer"]["token"]
    seats = [seat["token"] for seat in links["seats"]]
    for token in (referee, viewer, *seats):
        walk.get(f"/t/{token}")
        walk.get(f"/t/{token}", htmx=True)
        walk.get(f"/t/{token}/live")
    for path in ("history", "links", "replay", "replay?step=1"):
        walk.get(f"/t/{referee}/{path}")
    for token in (referee, *seats[:1]):
        version = walk.api("get", f"/api/v1/tables/{token}").get("version", 0)
        walk.post(f"/t/{token}/act", {"version": str(version), "type": "nonsense"}, htmx=True)
        walk.post(f"/t/{token}/act", {"version": str(version), "type": "nonsense"})
        walk.post(f"/t/{token}/act", {"version": str(version + 5), "type": "nonsense"}, htmx=True)
        walk.api(
            "post",
            f"/api/v1/tables/{token}/actions",
            json={"action": {"type": "nonsense"}, "version": version},
        )
        walk.api("post", f"/api/v1/tables/{token}/actions", json={"action": {}, "version": version + 5})


# Tables played besides tests/web/test_tables_api_games.py's: teams, paper, two players, lowest wins,
# and seats nobody named (said in the reader's language: companion.rules.sentences.seat_name).
OTHER_TABLES = [
    ("zamek", {"variant": "extended", "players": ["Red", "Blue"], "teams": True}),
    ("forteresse", {"mode": "paper", "first": "b"}),
    ("castle", {"players": 2, "dealer": "N"}),
    ("fort", {"players": 2}),
    ("scorepad", {"players": ["Ola", "Kuba"], "lowest_wins": True}),
]


def _as_this_phone(client) -> dict:
    """The header that proves, through the API, that this client is the phone that claimed the seats
    it opened on the pages: its session's identity is its claims' secret."""
    with client.session_transaction() as session:
        return {"Seat-Claim": session["member"]} if "member" in session else {}


def _play(walk: Walk, slug: str, options: dict) -> None:
    """A table of ``slug`` created through the API, read at each of ``STEPS`` and at its end."""
    app, client = walk.app, walk.phone.client
    rules = app.extensions["castellan.games"].games[slug].rules
    created = client.post("/api/v1/tables", json={"game": slug, "options": options})
    assert created.status_code == 201, created.get_json()
    links = created.get_json()["links"]
    tokens = {
        "referee": links["referee"]["token"],
        **{seat["seat"]: seat["token"] for seat in links["seats"]},
    }
    rng = random.Random(slug)
    moves = 0
    while True:
        if moves in STEPS:
            _table_pages(walk, links)
        chosen = rules.random_legal_action(table_state(app, tokens["referee"]), rng)
        if chosen is None or (slug == "scorepad" and moves == PAD_ROUNDS):
            break
        actor, action = chosen
        token = tokens[actor]
        claim = _as_this_phone(client)
        version = client.get(f"/api/v1/tables/{token}", headers=claim).get_json()["version"]
        response = client.post(
            f"/api/v1/tables/{token}/actions", json={"action": action, "version": version}, headers=claim
        )
        assert response.status_code == 200, (moves, action, response.get_json())
        moves += 1
    if slug == "scorepad":
        version = client.get(f"/api/v1/tables/{tokens['referee']}").get_json()["version"]
        walk.post(f"/t/{tokens['referee']}/finish", {"version": str(version)})
    _table_pages(walk, links)
    walk.post(f"/t/{tokens['referee']}/rematch", {})


def _errors(walk: Walk) -> None:
    walk.get("/no-such-page")
    walk.get("/t/no-such-table")
    walk.get("/tables/new/scorepad")  # 405
    walk.phone.csrf = "expired"
    walk.post("/tables/new/scorepad", {"players": "Ola"})
    walk.phone.csrf = None
    response = walk.phone.client.post("/history/files", data=b"x" * (20 * 1024 * 1024), headers=walk.headers)
    walk.read("POST /history/files (too large)", response.data.decode())
    for slug in GAMES:
        walk.post(f"/tables/new/{slug}", {"players": "zz", "name_1": "", "mode": "zz", "variant": "zz"})
    walk.api("get", "/api/v1/tables/no-such-table")
    walk.api("get", "/api/v1/no-such-thing")
    walk.api("delete", "/api/v1/tables")
    walk.api("post", "/api/v1/tables", data="not json", content_type="application/json")
    walk.api("post", "/api/v1/tables", json={"game": "nonsense"})
    for slug in GAMES:
        walk.api("post", "/api/v1/tables", json={"game": slug, "options": {"players": "zz", "mode": "zz"}})
    walk.api("post", "/api/v1/castle/values", json={"castle": {"A1": "zz"}, "card": "zz"})
    for document in (
        b"not json",
        b"[]",
        b'{"plays": "zz"}',
        b'{"format": "castellan-plays", "plays": []}',
        walk.phone.client.get("/api/v1/plays/export.json").data,
    ):
        walk.post(
            "/history/files",
            {"file": (io.BytesIO(document), "plays.json")},
            content_type="multipart/form-data",
        )
        walk.api("post", "/api/v1/plays/import", data=document, content_type="application/json")
    walk.post("/history/files", {}, content_type="multipart/form-data")


def _players(walk: Walk) -> None:
    """Renaming, merging and forgetting players, refused and done."""
    walk.post("/players/1/rename", {"name": ""})
    walk.post("/players/1/rename", {"name": "x" * 500})
    walk.post("/players/1/rename", {"name": "Ala"})
    walk.post("/players/1/merge", {})
    walk.post("/players/1/merge", {"other": "1"})
    walk.post("/players/1/merge", {"other": "2"})
    walk.post("/players/3/forget", {})


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_message_or_api_error_is_left_in_english(app, lang):
    walk = Walk(app, lang)
    for number, (slug, options) in enumerate([*GAMES.items(), *OTHER_TABLES], start=1):
        walk.phone.client.environ_base["REMOTE_ADDR"] = f"192.0.2.{number}"  # each its own minute of tables
        _play(walk, slug, options)
    walk.crawl(["/", "/print", "/history", "/players", "/history/files"])
    _errors(walk)
    _players(walk)
    report = "\n".join(
        f"{hit}    ({where[:70]})" for hit, where in sorted(walk.found.items(), key=lambda item: item[1])
    )
    assert not walk.found, f"English left in {lang} ({len(walk.found)} places):\n{report}"
    gaps = "\n".join(f"{gap!r}    ({where[:70]})" for gap, where in walk.gaps.items())
    assert not walk.gaps, f"Typography {lang} does not write ({len(walk.gaps)} places):\n{gaps}"
    assert len(walk.seen) > 80  # the walk reached the help pages, tools, history and players


def test_the_sweep_flags_an_english_sentence():
    assert (
        english_in(readable('<p>Zagraj <button value="x" aria-label="Undo the last move">↶</button></p>'))
        != []
    )
    assert english_in(readable("<p>Ola wins the game.</p>")) != []
    assert english_in(readable("<p>To jest stół Castellan: Ola, Kuba. Il a une table.</p>")) == []
    assert english_in(readable('<script>var the = 1;</script><input type="hidden" value="the">')) == []


@pytest.mark.parametrize(
    ("lang", "said"), [("pl", "Ola (5 rozgrywek)"), ("fr", "Ola (5 parties)"), ("en", "Ola (5 plays)")]
)
def test_a_plural_block_follows_count_wherever_it_is_written(app, lang, said):
    """Jinja hands ``ngettext`` a block's first parameter; a name written first was a 500 in fr and pl."""
    block = (
        "{% trans name=who, count=n, shown=n %}{{ name }} ({{ shown }} play){% pluralize %}"
        "{{ name }} ({{ shown }} plays){% endtrans %}"
    )
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert app.jinja_env.from_string(block).render(who="Ola", n=5) == said
