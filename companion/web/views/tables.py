"""Tables: create one, open it through a link, act, undo, watch it change, read its history.

A link's token decides the role: the referee's link can act and undo, the viewer's only
watches, a seat's link is one player's private view. Pages are rendered from
``rules.view(state, viewer)`` only, so a secret never reaches a phone that may not see it.
Other phones follow the table by polling ``/t/<token>/live`` with an ETag (a 304 costs a
few bytes); see the README for why polling rather than server-sent events.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from datetime import UTC, datetime
from typing import NoReturn

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    get_template_attribute,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from werkzeug.http import parse_cookie, parse_etags, quote_etag
from werkzeug.wrappers import Request

from companion import i18n, store
from companion.http import compression, netinfo, requests, security
from companion.http.bounded import Bounded
from companion.http.context import get_db, registry
from companion.http.requests import form_dict, is_htmx, public_base_url
from companion.i18n import current_language, say
from companion.rules import clock as rules_clock
from companion.rules.errors import RuleError
from companion.service import tables as service
from companion.store import db
from companion.web import pagecache, remembered
from companion.web.rendering import render

bp = Blueprint("tables", __name__)


@bp.post("/tables/new/<game_slug>")
@security.limited("tables")
def create(game_slug: str):
    """Create a table of a game from its page's form, then open it as the referee."""
    game = registry().games.get(game_slug)
    if game is None or not game.has_tables:
        abort(404)
    try:
        form = form_dict(game.list_fields)
        private = bool(form.pop("private", ""))  # "Keep this table out of the history"
        per_seat = service.per_seat_clock(
            *(str(form.pop(field, "")) for field in ("clock", "clock_minutes", "clock_increment"))
        )
        _table, links = service.create(get_db(), game, game.options_from_form(form), private, per_seat)
        security.count("tables")
    except RuleError as refused:
        if is_htmx():  # the form stays on the phone as it was filled in: only the reason is put above it
            answer = get_template_attribute("_macros.html", "notices")([("error", say(refused))])
            return make_response(answer, 422)
        flash(say(refused), "error")
        return redirect(url_for(f"{game.slug}.index") + "#new-table", code=303)
    _remember(links[0].token)
    opened = url_for("tables.show", token=links[0].token)
    if is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = opened  # the whole table page, as a plain post's redirect opens it
        return response
    return redirect(opened, code=303)


@bp.get("/t/<token>")
def show(token: str):
    """The table as this link may see it."""
    kept = _kept(token)
    if kept is not None:
        _remember(token)
        return kept[1]
    link, table, game = _open(token)
    _remember(token)
    notices = get_flashed_messages(with_categories=True)
    if request.args.get("recorded") == str(table.version):
        last = store.last_action(get_db(), table.id)
        notices += [("recorded", say(last["description"]))] if last else []
        return _render_table(link, table, game, notices=notices, last=last)
    if notices:
        return _render_table(link, table, game, notices=notices)
    return _plain_table(link, table, game)


@bp.get("/t/<token>/live")
def live(token: str):
    """The live fragment, or 304 when the table has not changed since the phone last saw it.

    The 304 path reads only the table's version (and the referee's links' version): a phone
    polling an idle table costs one indexed lookup, not a state to load and render. A poll claims
    no seat: a phone polling a seat it no longer holds is answered the notice that says so.
    """
    found = store.version_by_token(get_db(), token)
    if found is None:
        abort(404)
    version, seen = found
    etag = live_etag(version, seen, session, current_language())
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    elif (kept := _kept(token, fragment=True, version=version, who=_POLLING)) is not None:
        etag = live_etag(kept[0], seen, session, current_language())
        response = kept[1]
    else:
        link, table, game = _open(token, _POLLING)
        etag = live_etag(table.version, seen, session, current_language())
        response = _plain_table(link, table, game, fragment=True)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def live_etag(version: int, seen: int, session_data, lang: str) -> str:
    """The live fragment's ETag: the table's version, the links' version ``seen`` (the referee's
    invitations; 0 for another link), this session's, and the fragment's language.

    The fragment holds this session's CSRF token and member identity, so the ETag names the
    session too; a phone that switched language must not be told its old words are current.
    It is weak: the same content brotli'd, gzipped or plain (see compression.init_compression).
    """
    return f"{version}.{seen}.{str(session_data.get('csrf_form_token', ''))[-8:]}.{lang}"


_LIVE_PATH = re.compile(r"/t/([^/]+)/live\Z")
# What ``live`` answers an unchanged poll with, after Flask-Compress and the session added their Vary.
_UNCHANGED_HEADERS = [
    ("Cache-Control", "no-cache, private"),
    ("Vary", "Accept-Encoding, Cookie, Accept-Language"),
]


class UnchangedPolls:
    """WSGI middleware: a poll of a table that has not changed since the phone's ETag gets its 304
    here, the answer ``live`` would give, without Flask.

    This is the most frequent request of all: every phone at every table, about every second.
    Flask's request context, URL matching, hooks and its pool connection cost three times
    the answer itself; here it is the session cookie (checked once per process, see
    ``security.session_data``) and one indexed read on this thread's own connection. Anything
    else (a changed table, an unknown token, no ETag, a database that fails) goes to Flask.
    """

    def __init__(self, app, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ, start_response):
        tags = environ.get("HTTP_IF_NONE_MATCH")
        match = _LIVE_PATH.match(environ.get("PATH_INFO", "")) if tags else None
        if match and environ.get("REQUEST_METHOD") == "GET":
            etag = self._etag(environ, match.group(1))
            if etag is not None and parse_etags(tags).contains_weak(etag):
                start_response(
                    "304 NOT MODIFIED", [("ETag", quote_etag(etag, weak=True)), *_UNCHANGED_HEADERS]
                )
                return []
        return self.wsgi_app(environ, start_response)

    def _etag(self, environ, token: str) -> str | None:
        app = self.app
        try:
            found = store.version_by_token(db.thread_connection(app.config["DATABASE"]), token)
        except Exception:  # noqa: BLE001 - Flask's path answers (and reports) whatever went wrong
            db.drop_thread_connection(app.config["DATABASE"])
            return None
        if found is None:
            return None
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        lang = i18n.choose_language(cookies.get(i18n.COOKIE), environ.get("HTTP_ACCEPT_LANGUAGE"))
        return live_etag(
            *found, security.session_data(app, cookies.get(app.config["SESSION_COOKIE_NAME"])), lang
        )


_TABLE_PATH = re.compile(r"/t/([^/]+)(/live)?\Z")
_PAGE_HEADERS = [("Content-Type", "text/html; charset=utf-8")]
# What Flask's path adds to a cached page's answer: the Vary of render, Flask-Compress, i18n and the session
# (and security's headers, ``security.headers_for``).
_VARY = [("Vary", "HX-Request, Accept-Encoding, Accept-Language, Cookie")]


class CachedPages:
    """WSGI middleware: a table page or live fragment already kept (``companion.pagecache``) is
    answered here, as ``show`` and ``live`` would answer it, without Flask.

    Every other phone fetches the fragment after each move, and a page kept costs its tokens and
    a few reads; Flask's request context, session, URL matching and hooks cost as much again.
    Only a plain GET whose answer changes nothing is answered here: the session cookie (checked
    once per process) holds what the page needs (its CSRF token if the page has a form, the
    claimed seat's phone, this table as the last remembered), the link needs no write (a seat
    already opened), nothing flashed, no ``?recorded=`` of this version, an encoding this layer
    makes (none or gzip, not brotli), an ETag the phone does not hold already. Anything else,
    and anything that fails, goes to Flask, which draws, keeps and answers it.
    """

    def __init__(self, app, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ, start_response):
        match = (
            _TABLE_PATH.match(environ.get("PATH_INFO", ""))
            if environ.get("REQUEST_METHOD") == "GET"
            else None
        )
        if match:
            try:
                answer = self._answer(Request(environ), match.group(1), bool(match.group(2)))
            except Exception:  # noqa: BLE001 - Flask's path answers (and reports) whatever went wrong
                db.drop_thread_connection(self.app.config["DATABASE"])
                answer = None
            if answer is not None:
                headers, body = answer
                start_response("200 OK", headers)
                return [body]
        return self.wsgi_app(environ, start_response)

    def _answer(self, asked: Request, token: str, live: bool):
        app = self.app
        cache = pagecache.for_app(app)
        if cache is None:
            return None
        session_data = security.session_data(app, asked.cookies.get(app.config["SESSION_COOKIE_NAME"]))
        if "_flashes" in session_data or not (
            live or session_data.get("last_table") == store.phone_digest(token)[:16]
        ):
            return None
        conn = db.thread_connection(app.config["DATABASE"])
        try:
            return self._kept(asked, conn, session_data, token, live)
        finally:
            if conn.in_transaction():
                conn.rollback()  # a read's transaction, as the request's teardown ends it

    def _kept(self, asked: Request, conn, session_data: dict, token: str, live: bool):
        app = self.app
        link = store.find_link(conn, token)
        slug = link and _TABLE_GAMES.get(link.table_id)
        game = slug and app.extensions["castellan.games"].games.get(slug)
        if not game or not service.opens_unchanged(link, game, session_data.get("member")):
            return None
        version, seen = store.version_by_token(conn, token)
        fragment = live or is_htmx(asked)
        if not live and asked.args.get("recorded") == str(version):
            return None
        key = _page_key(link, link.table_id, version, fragment, asked, conn, app.config)
        kept = pagecache.for_app(app).get(key, session_data)
        if kept is None or (kept.has_csrf and "csrf_form_token" not in session_data):
            return None
        encoding = compression.chosen_encoding(asked)
        if encoding is not None and (encoding != "gzip" or kept.size < app.config["COMPRESS_MIN_SIZE"]):
            return None  # brotli, or a small page: Flask-Compress's
        headers = [*_PAGE_HEADERS]
        csrf = session_data.get
        if encoding:
            body = kept.gzipped(
                lambda: csrf("csrf_form_token"), store.new_token, app.config["COMPRESS_LEVEL"]
            )
            headers += [("Content-Length", str(len(body))), ("Content-Encoding", "gzip")]
        else:
            body = kept.body(lambda: csrf("csrf_form_token"), store.new_token)
            headers.append(("Content-Length", str(len(body))))
        headers += _VARY
        if live:
            etag = live_etag(version, seen, session_data, key.language)
            tags = asked.headers.get("If-None-Match")
            if tags and parse_etags(tags).contains_weak(etag):
                return None  # a 304: Flask's (UnchangedPolls answers it first)
            headers += [("ETag", quote_etag(etag, weak=True)), ("Cache-Control", "no-cache, private")]
        return headers + security.headers_for(asked), body


@bp.post("/t/<token>/act")
def act(token: str):
    """Apply one action chosen on the version the form was rendered from, once per form (its key)."""
    link, game = _open_to_change(token)
    try:
        service.may_act(link)  # before the form is read: a viewer's post is refused whatever it holds
    except service.Refusal as refused:
        return _refuse(link, _table(link), game, refused.status, say(refused))

    def move(form: dict) -> store.Table:
        action = game.table_action(form, link.viewer)
        seat = lambda: (_member(), _member_name(form))  # noqa: E731 - asked for at a seat only
        return service.act(get_db(), link, game, action, _version(form), _once(link, form), seat)

    table, answer = _changed(link, game, move)
    if answer is not None:
        return answer
    if is_htmx():
        last = store.last_action(
            get_db(), table.id, table.version
        )  # the move's own entry: the notice and the Undo beside it
        notices = [("recorded", say(last["description"]))] if last else []
        return _render_table(link, table, game, notices=notices, last=last)
    # The page says what was recorded as long as it is still the table's last move (no cookie needed).
    return redirect(url_for("tables.show", token=link.token, recorded=table.version), code=303)


@bp.post("/t/<token>/release")
def release(token: str):
    """The referee frees a player's seat whose phone is lost: the next phone to open its link takes it.
    That phone's next poll says the seat is no longer its own (``service.SeatLost``)."""
    link, table, game = _open(token, _POLLING)
    try:
        released = service.release(get_db(), link, request.form.get("seat", ""))
    except service.Refusal as refused:
        return _refuse(link, table, game, refused.status, say(refused))
    message = gettext(
        "%(seat)s's seat is free: the next phone to open its link takes it.",
        seat=i18n.say_name(released.label),
    )
    return _done(link, _table(link), game, message)


@bp.post("/t/<token>/pause")
def pause(token: str):
    """The referee pauses the table, for dinner: the pause is left out of the play's length."""
    return _set_paused(token, True)


@bp.post("/t/<token>/resume")
def resume(token: str):
    """The referee resumes a paused table."""
    return _set_paused(token, False)


def _set_paused(token: str, paused: bool):
    """Pause or resume the table through the table service; said on the page that asked."""
    link, table, game = _open(token, _POLLING)
    try:
        service.set_paused(get_db(), link, paused)
    except service.Refusal as refused:
        return _refuse(link, table, game, refused.status, say(refused))
    message = gettext("The table is paused.") if paused else gettext("The table is on again.")
    return _done(link, _table(link), game, message)


@bp.post("/t/<token>/time")
def add_time(token: str):
    """The referee gives a player more minutes on the table's chess clock."""
    link, table, game = _open(token)
    form = form_dict()
    try:
        service.add_time(get_db(), link, str(form.get("seat", "")), str(form.get("minutes", "")))
    except service.Refusal as refused:
        return _refuse(link, table, game, refused.status, say(refused))
    return _done(link, _table(link), game, gettext("The time was added."))


def _clock_view(table) -> dict:
    """The table clock as its fragment draws it, at the server's now (``data-clock-now``, which each
    phone compares with its own time to tick it on without a request): paused, and the per-seat clock
    if chosen at the start, each seat's time and the one to move."""
    kept = store.table_clock(get_db(), table.id)
    paused = rules_clock.is_paused(kept)
    if not kept or not kept.get("kind"):
        return {"paused": paused, "kind": None}
    now = datetime.now(UTC)
    at = now.isoformat(timespec="milliseconds")
    chess = kept["kind"] == "chess"
    seats = [
        {
            "key": seat,
            "name": name,
            "moving": seat == kept["to_move"],
            "seconds": rules_clock.left(kept, seat, at)
            if chess
            else rules_clock.thinking(kept, kept["turn_began"], at),
        }
        for seat, name in kept["names"].items()
        if chess or seat == kept["to_move"]
    ]
    return {
        "paused": paused,
        "kind": kept["kind"],
        "now_ms": int(now.timestamp() * 1000),
        "running": not paused and kept["to_move"] is not None and not table.finished,
        "seats": seats,
    }


@bp.post("/t/<token>/undo")
def undo(token: str):
    """Take back the last action still in force (the referee only); the log keeps it, marked undone."""
    link, table, game = _open(token, _POLLING)
    last = store.last_action(get_db(), table.id)
    return _referee_change(
        link,
        game,
        lambda form: service.undo(get_db(), link, game, _version(form), _once(link, form)),
        gettext("Undone: %(move)s", move=say(last["description"])) if last else None,
    )


@bp.post("/t/<token>/finish")
def finish(token: str):
    """The referee finishes a table whose game has no end of its own (the score pad): its standing
    becomes the final score, and the table a play in the history. Undo reopens it."""
    link, table, game = _open(token, _POLLING)
    return _referee_change(
        link,
        game,
        lambda form: service.finish(get_db(), link, table, game, _version(form), _once(link, form)),
        gettext("The table is finished: these totals are the final score. Undo reopens it."),
    )


@bp.post("/t/<token>/rematch")
@security.limited("tables")
def rematch(token: str):
    """From a finished table, a new table of the same game with the same players and options (the
    seats rotated where the game's rules say who starts next), opened as its referee; the same one
    each time the finished table's Rematch is tapped."""
    link, table, game = _open(token, _POLLING)
    try:
        referee, made = service.rematch(get_db(), link, table, game)
    except RuleError as refused:
        return _refuse(link, table, game, service.status(refused), say(refused))
    if made:  # tapped again, or on another phone: the same new table, and nothing more counted
        security.count("tables")
    _remember(referee.token)
    return redirect(url_for("tables.show", token=referee.token), code=303)


@bp.get("/t/<token>/history")
def history(token: str):
    """Every action of the table in plain words, undone ones included and marked."""
    link, table, game = _open(token)
    entries = service.log(get_db(), link, game)
    return render(
        "tables/history.html", "tables/history.html", link=link, table=table, game=game, entries=entries
    )


@bp.get("/t/<token>/replay")
def replay(token: str):
    """The table as it stood after move ``?step=N`` of its log (0: the start; none: the last),
    as this link sees it: its own secrets kept, no one else's, and no controls."""
    link, table, game = _open(token)
    try:
        step = int(request.args.get("step", "-1"))
    except ValueError:
        step = -1
    state, moves = store.replay(get_db(), game.rules, table.id, step if step >= 0 else 1 << 30)
    step = len(moves) if not 0 <= step <= len(moves) else step
    # The game's own template draws it from this link's view, read-only: with a watcher's controls
    # (none), and a version no move can be made on.
    context = {
        **_context(link, dataclasses.replace(table, state=state, version=-1), game),
        "link": dataclasses.replace(link, role="viewer"),
        "view": _read_only(game.rules.view(state, link.viewer)),
        "last": None,
        "can_act": False,
        "token": token,
        "step": step,
        "moves": moves,
    }
    return render("tables/replay.html", "tables/replay.html", **context)


def _read_only(view: dict) -> dict:
    """A view whose own ``can_act`` (if the game's view has one) says no: a replay offers no move."""
    return {**view, "can_act": False} if "can_act" in view else view


@bp.get("/t/<token>/links")
def links(token: str):
    """The links to this table as text and QR codes: all of them for the referee, else this one."""
    link, table, game = _open(token)
    shown = store.table_links(get_db(), table.id) if link.role == "referee" else [link]
    return render(
        "tables/links.html",
        "tables/links.html",
        link=link,
        table=table,
        game=game,
        invites=_invites(shown, game),
    )


@bp.get("/t/<token>/export.json")
def export(token: str):
    """The table as JSON: this link's view of it, and its log (``service.log``: the raw actions only
    of a game whose actions hold no secret)."""
    link, table, game = _open(token)
    entries = service.log(get_db(), link, game)
    document = {
        "castellan_export": 1,
        "game": game.slug,
        "table": table.id if link.role == "referee" else None,
        "title": table.title,
        "options": table.options,
        "version": table.version,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "viewer": link.viewer,
        "view": service.seen(link, table, game),
        "history": list(reversed(entries)),
    }
    response = jsonify(document)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="castellan-{game.slug}-{table.created_at[:10]}.json"'
    )
    response.headers["Cache-Control"] = "no-store"  # a seat's hand: no cache on the way may keep it
    return response


def _link(token: str) -> store.Link:
    """The link with this token, or a 404 page."""
    link = store.find_link(get_db(), token)
    if link is None:
        abort(404)
    return link


def _open(token: str, who: service.Phone | None = None):
    """The link, its table and its game (``service.open_table``), or a 404 page; a player's seat
    claimed by another phone, a 403 page (the first phone to open a seat's page claims it; ``who``
    is ``_POLLING`` for a poll or a change, which claim nothing)."""
    try:
        link, table, game = service.open_table(get_db(), registry().games, token, who or _PHONE)
    except service.Refusal as refused:
        _refused_link(refused, token)
    _note_game(link, game)
    return link, table, game


def _open_to_change(token: str):
    """The link and its game, as ``_open`` checks them, without the table: a change (a move) reads
    it once, under its lock, and a refusal reads it again as it is then."""
    try:
        link, game = service.open_link(get_db(), registry().games, token, _POLLING)
    except service.Refusal as refused:
        _refused_link(refused, token)
    _note_game(link, game)
    return link, game


def _refused_link(refused: service.Refusal, token: str) -> NoReturn:
    """The error page for a link that opens nothing here: 404, or 403 with the service's sentence.
    A poll or a tap at a seat this phone lost gets the live fragment that says so in place of the
    seat's view (``_seat_lost``)."""
    if isinstance(refused, service.SeatLost) and (is_htmx() or request.endpoint == "tables.live"):
        abort(_seat_lost(refused, token))
    abort(refused.status, description=say(refused) if refused.status == 403 else None)


def _seat_lost(refused: service.SeatLost, token: str):
    """The live fragment of a seat this phone no longer holds: only the sentence, none of the seat's
    view, at the table's version, which the phone's script swaps in (403, ``data-lost``). Later polls
    get 304 until the table changes."""
    version, seen = store.version_by_token(get_db(), token)
    text = render_template(
        "tables/_seat_lost.html",
        message=say(refused),
        version=version,
        live_url=url_for("tables.live", token=token),
        poll_seconds=current_app.config["POLL_SECONDS"],
    )
    response = make_response(text, 403)
    response.set_etag(live_etag(version, seen, session, current_language()), weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _note_game(link: store.Link, game) -> None:
    """Note the table's game for ``_kept`` and ``CachedPages``."""
    _TABLE_GAMES.put(link.table_id, game.slug)


# A table's game (which never changes) by its id, noted when ``_open`` loads it: a cached page is
# answered (``_kept``) without loading the table's state, only its version. The least recently used
# forgotten first.
TABLE_GAMES_KEPT = 65_536
_TABLE_GAMES = Bounded(TABLE_GAMES_KEPT)


def _kept(token: str, fragment: bool | None = None, version: int | None = None, who=None):
    """``(version, response)``: the kept table page or live fragment for this link at the table's
    version (``version`` when the caller just read it), with nothing to answer (no flashed message,
    no ``?recorded=`` of this version); or None, and the caller draws it (``_plain_table``). The
    link is opened as ``_open`` does (by ``who``)."""
    cache = pagecache.for_app(current_app)
    if cache is None or "_flashes" in session:
        return None
    link = _link(token)
    slug = _TABLE_GAMES.get(link.table_id)
    if slug is None:
        return None
    try:
        service.admit(get_db(), link, registry().games[slug], who or _PHONE)
    except service.Refusal as refused:
        _refused_link(refused, token)
    if version is None:
        version = store.table_version(get_db(), link.table_id)
    fragment = is_htmx() if fragment is None else fragment
    if not fragment and request.args.get("recorded") == str(version):
        return None
    kept = cache.get(_page_key(link, link.table_id, version, fragment), session)
    return None if kept is None else (version, _cached_response(kept))


def _page_key(
    link, table_id: str, version: int, fragment: bool, asked=None, conn=None, config=None
) -> pagecache.PageKey:
    """What a plain table page or live fragment depends on besides the session (see ``_plain_table``):
    for this request, or ``asked`` (a request read before Flask, ``CachedPages``, with its database
    connection and its app's config)."""
    asked = request if asked is None else asked
    links = tuple(_referee_links(link, table_id, conn))
    return pagecache.PageKey(
        table_id,
        version,
        fragment,
        link,
        _language(asked),
        asked.scheme,
        asked.host,
        asked.script_root,
        asked.query_string,
        links,
        public_base_url(asked, config) if links else None,
    )


def _language(asked) -> str:
    """The language a request is answered in (as Flask-Babel's locale is chosen, see ``i18n.select_language``)."""
    return i18n.choose_language(asked.cookies.get(i18n.COOKIE), asked.headers.get("Accept-Language"))


def _cached_response(kept: pagecache.CachedPage):
    """The response for a cached page, with this session's CSRF token and a fresh key in each form;
    gzipped from its kept pieces when the phone takes gzip (Flask-Compress leaves it be), as
    Flask-Compress would have, so that a browser's poll does not compress the page again."""
    if kept.size >= current_app.config["COMPRESS_MIN_SIZE"] and compression.chosen_encoding() == "gzip":
        response = make_response(
            kept.gzipped(security.csrf_token, store.new_token, current_app.config["COMPRESS_LEVEL"])
        )
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = make_response(kept.body(security.csrf_token, store.new_token))
    requests.add_vary(response, "HX-Request")
    return response


_UNREAD = object()


def _context(link, table, game, notices=(), refill: dict | None = None, last=_UNREAD) -> dict:
    """What the table page and its live fragment are rendered from.

    ``notices`` are the answer to the move just posted (shown pinned where the eye is, see
    ``tables/_answer.html``); ``refill`` is the form of a refused move, so that the page shows
    the typed and tapped input again instead of losing it; ``last`` is the table's last action
    when the caller has read it already (the referee's Undo names it).
    """
    if last is _UNREAD:
        last = store.last_action(get_db(), table.id) if link.role == "referee" else None
    return {
        "link": link,
        "table": table,
        "game": game,
        "view": service.seen(link, table, game),
        "last": last if link.role == "referee" else None,
        "notices": list(notices),
        "refill": refill or {},
        "refused": refill is not None,
        "can_act": service.can_act(link),
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "ending": _ending(link, table, game),
        **_clocked(table),
    }


def _clocked(table) -> dict:
    """The context's table clock: ``paused`` and ``clock`` (``_clock_view``)."""
    seen = _clock_view(table)
    return {"paused": seen["paused"], "clock": seen if seen["kind"] else None}


def _ending(link, table, game) -> dict:
    """What the table's foot offers: Finish (the referee, on a table with no end of its own), or once
    it is over its play in the history (none for a private table), the referee's Rematch, and once
    the rematch is made every phone's way to it (``service.rematch_offer``)."""
    over = service.over(table, game)
    offer = service.rematch_offer(get_db(), link, table, game) if over else None
    return {
        "over": over,
        "can_finish": link.role == "referee" and service.can_finish(table, game, over),
        "can_rematch": over and link.role == "referee" and offer is None,
        "play": store.table_play(get_db(), table.id) if over else None,
        "rematch": offer,
    }


def _changed(link, game, change):
    """A change made from the posted form (a move, an undo, a finish): ``change(form)`` gives the table
    after it. ``(table, None)``, or ``(None, answer)`` when it was stale, repeated or refused (with
    the table as it is now)."""
    try:
        return change(form_dict(game.list_fields)), None
    except store.StaleTable as stale:
        # Chosen for another moment (another player's turn, phase or round): kept, it would mean another move.
        moved_on = service.moved_on(request.form.get("moment"), stale.table)
        if moved_on is not None:
            return None, _refuse(link, stale.table, game, 409, say(moved_on), keep=False)
        return None, _refuse(link, stale.table, game, 409, say(str(stale)))
    except store.Repeated as repeat:
        return None, _repeated(_done(link, _table(link), game), repeat)
    except RuleError as refused:  # the service's refusals and the rules'
        return None, _refuse(link, _table(link), game, service.status(refused), say(refused))


def _repeated(response, repeat: store.Repeated):
    """A form sent again (its first answer lost on the way): the table as it is now, and in
    ``Castellan-Version-Made`` the version its move made, on which the phone's outbox sends the
    move it queued after it; a move from another phone in between then still refuses that one."""
    response.headers["Idempotent-Replayed"] = "true"
    if repeat.version is not None:
        response.headers["Castellan-Version-Made"] = str(repeat.version)
    return response


def _table(link) -> store.Table:
    """The link's table as it is now."""
    return store.get_table(get_db(), link.table_id)


def _referee_change(link, game, change, message: str | None):
    """One change of the referee's (undo, finish), answered with ``message`` once it is made."""
    table, answer = _changed(link, game, change)
    return answer if answer is not None else _done(link, table, game, message)


def _render_table(link, table, game, status: int = 200, notices=(), refill: dict | None = None, last=_UNREAD):
    """The table page (with the referee's invitations), or its live fragment for htmx."""
    context = _context(link, table, game, notices, refill, last)
    context["invites"] = _invites(_referee_links(link, table.id), game)
    return render("tables/page.html", "tables/_live.html", status, **context)


def _plain_table(link, table, game, fragment: bool | None = None):
    """The table page, or its live fragment, with nothing posted to answer: drawn once per
    everything it depends on and kept (``companion.pagecache``), its tokens fresh each time.

    The key: the table and its version, page or fragment, the link (its role, seat, claim),
    the language, the address asked (scheme, host, script root) and query (a Fort challenge's
    or a score pad's correction's choices, the language switch's way back); for the referee's
    page the table's links as they stand (opened, claimed: the invitations) and the address the
    invitations give. The session values the drawing read (a Square Tactics phone's seat, a Zamek
    member's identity and name) are told apart by the cache itself.
    """
    fragment = is_htmx() if fragment is None else fragment
    template = "tables/_live.html" if fragment else "tables/page.html"
    cache = pagecache.for_app(current_app)
    if cache is None:
        context = _context(link, table, game)
        context["invites"] = _invites(_referee_links(link, table.id), game)
        return render(template, template, **context)
    key = _page_key(link, table.id, table.version, fragment)
    kept = cache.get(key, session)
    if kept is None:
        with pagecache.reading() as noting:
            context = _context(link, table, game)
            context["invites"] = _invites(list(key.links or ()), game)
            text = render_template(template, **context)
        kept = (
            pagecache.CachedPage(pagecache.split(text))
            if noting.unkept or context["clock"]  # a per-seat clock's times are as of now: never kept
            else cache.put(key, noting.read, text)
        )
    return _cached_response(kept)


def _referee_links(link, table_id: str, conn=None) -> list[store.Link]:
    """The table's links for its referee's invitations (none for another link), read on this
    request's connection or ``conn``."""
    if link.role != "referee":
        return []
    return store.table_links(get_db() if conn is None else conn, table_id)


def _done(link, table, game, message: str | None = None):
    """After an undo: the fresh fragment for htmx, else Post/Redirect/Get."""
    notices = [("success", message)] if message else []
    if is_htmx():
        return _render_table(link, table, game, notices=notices)
    if message:
        flash(message, "success")
    return redirect(url_for("tables.show", token=link.token), code=303)


def _refuse(link, table, game, status: int, message: str, keep: bool = True):
    """A refused action changes nothing: say why, show the table as it is now, keep what was entered
    (unless not to ``keep``: chosen for a moment that has passed).

    The one place a refusal is rendered, with or without JavaScript: htmx gets the live
    fragment, a plain post gets the whole page straight away (not a redirect, which would
    lose the form), both with the refused form as ``refill`` for the game's template to refill.
    """
    try:
        refill = {
            key: value
            for key, value in form_dict(game.list_fields).items()
            if key not in ("csrf_token", "version", "moment")
        }
    except RuleError:  # the form itself was refused (a field sent twice, or too long): nothing to refill
        refill = {}
    if not keep:
        refill = None  # drawn as a fresh screen: the templates refill nothing, from the form either
    return _render_table(link, table, game, status, [("error", message)], refill)


def _version(form: dict) -> int:
    """The version the acting phone saw; a missing or broken one can only be stale."""
    try:
        return int(form.get("version", -1))
    except (TypeError, ValueError):
        return -1


def _once(link: store.Link, form: dict) -> store.Once | None:
    """The form's key (a hidden field every move form carries), so a form sent twice acts once."""
    key = form.get("idempotency_key")
    return store.Once(key[:200], link.token) if isinstance(key, str) and key else None


def _member() -> str:
    """This browser's identity at a seat (several phones may share a team's link)."""
    if "member" not in session:
        session["member"] = secrets.token_urlsafe(12)
    return session["member"]


# This phone at the table, for the service (``service.Phone``): its identity made when a seat needs it.
# Opening a seat's page claims it; a poll or a change (``_POLLING``) claims nothing.
_PHONE = service.Phone(_member)
_POLLING = service.Phone(_member, claims=False)


def _member_name(form: dict) -> str:
    """The name this phone's player goes by, kept for later visits."""
    name = form.get("member_name")
    if isinstance(name, str) and name.strip():
        session["member_name"] = name.strip()[:24]
    return session.get("member_name", "")


def _remember(token: str) -> None:
    """Keep this link in the browser's list of tables (newest first, bounded), in the database:
    the session cookie holds only the browser's identity, never a referee's token.

    A phone reloading the table it last opened writes nothing: that table already heads its
    list. The session keeps a digest of the last remembered link (not the link itself), so
    each page view of the same table costs no write. A page asked for without a cookie writes
    nothing: what finds its link again waits in the session until the browser comes back with it
    (``remembered``).
    """
    digest = store.phone_digest(token)[:16]
    if session.get("last_table") == digest:
        return
    if remembered.first_visit():
        remembered.hold(_link(token).table_id, digest)
        _member()
    else:
        store.remember(get_db(), _member(), token, remembered.REMEMBERED_TABLES)
    session["last_table"] = digest


def _invites(links: list[store.Link], game) -> list[dict]:
    """Each link with its full address (as another phone opens it), its QR code, and whether a
    seat's link is a whole team's (a rules module with ``TEAM_SEATS = True``) or one player's.

    The players' links come first and the referee's last, so that the code a phone scans
    first is never the one that can play and undo. A player's seat already claimed by a
    phone shows no address or code, only the referee's way to release it.
    """
    base = public_base_url()
    referee = next((item for item in links if item.role == "referee"), None)
    invites = []
    for item in sorted(links, key=lambda link: ("seat", "viewer", "referee").index(link.role)):
        if referee is not None and item.role == "seat" and item.claimed_by:
            release = url_for("tables.release", token=referee.token)
            invites.append({"link": item, "claimed": True, "release_url": release})
            continue
        address = base + url_for("tables.show", token=item.token)
        invites.append(
            {
                "link": item,
                "address": address,
                "qr": netinfo.qr_svg(address, gettext("QR code: %(address)s", address=address)),
                "team": getattr(game.rules, "TEAM_SEATS", False),
            }
        )
    return invites
