"""The history: every play newest first, a play's page, each player's and each game's record.

Plays and players live in ``companion.store`` (a finished table becomes a play); these pages only
read them, and let anyone at the table rename, merge or forget a player (there are no accounts:
the server is the club's). The pictures are SVG from ``companion.charts``, each beside a table of
the same numbers. Not a game: the module declares a blueprint and no ``GAME``.
"""

from __future__ import annotations

import logging
from datetime import date, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_skeleton
from babel.numbers import format_decimal
from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext, pgettext
from jinja2 import TemplateNotFound, UndefinedError
from markupsafe import Markup

from companion import store
from companion.http.context import get_db, registry
from companion.http.requests import form_dict
from companion.i18n import current_language, number, say, say_name
from companion.rules.errors import RuleError
from companion.rules.numbers import whole_number
from companion.rules.sentences import NP_, Message
from companion.service import tables as table_service
from companion.store import photos as kept_photos
from companion.web import charts, remembered

bp = Blueprint("history", __name__)
PAGE = 20  # plays per page of the history: a phone's screenful or three
OFFERED_NAMES = 100  # the datalist of a start form: a club's regulars, and still a small page
PLAYERS_PAGE = 100  # players per page of /players: a long scroll on a phone, still a small page
MERGE_CHOICES = 50  # players the merge list offers at once; a typed name finds the others
ZONE_COOKIE = "tz"  # the phone's time zone, set by castellan.js: a player's days start at its midnight


@bp.get("/history")
def index():
    """Plays newest first, filtered by game and by player (a GET form), a page at a time."""
    filters = _filters()
    plays = store.list_plays(get_db(), limit=PAGE + 1, before=request.args.get("before") or None, **filters)
    older = plays[PAGE - 1].id if len(plays) > PAGE else None  # one more than shown: is there a next page?
    return render_template(
        "history/index.html",
        plays=plays[:PAGE],
        older=older,
        total=store.count_plays(get_db(), **filters),
        filters=filters,
        shown_filters={key: value for key, value in filters.items() if value is not None},
        names=store.player_names(get_db(), "", 200),
    )


@bp.get("/history/<play_id>")
def play_page(play_id: str):
    """One play: when, how long, each player's score, team and win, the game's own details, the
    scores round by round where the game has rounds, and its photos."""
    return play_answer(play_id)


def play_answer(play_id: str, status: int = 200, photo_answer: dict | None = None):
    """A play's page; after a refused photo (``photo_answer``: views.photos), with the refusal."""
    play = store.play(get_db(), play_id)
    if play is None:
        abort(404)
    game = registry().games.get(play.game)
    return render_template(
        "history/play.html",
        play=play,
        game=game,
        details=_details(play, game),
        chart=_rounds_chart(play, game),
        referee=_referee_link(play.id),
        photo_answer=photo_answer,
    ), status


@bp.get("/history/game/<slug>")
def game_page(slug: str):
    """A game's record: how many plays, the winners' table, the average length, the latest plays."""
    game = registry().games.get(slug)
    if game is None or not game.has_tables:
        abort(404)
    stats = store.game_stats(get_db(), slug)
    return render_template(
        "history/game.html", game=game, stats=stats, plays=store.list_plays(get_db(), game=slug, limit=PAGE)
    )


@bp.get("/players")
def players():
    """The players the server remembers, by name, with their number of plays, a page at a time;
    ``?name=`` finds those whose name holds what was typed."""
    search = request.args.get("name", "").strip()[: store.PLAYER_NAME_LENGTH]
    after = request.args.get("after", "")[: 4 * store.PLAYER_NAME_LENGTH] or None
    found = store.players(get_db(), search, after, PLAYERS_PAGE + 1)
    more = found[PLAYERS_PAGE - 1]["key"] if len(found) > PLAYERS_PAGE else None
    return render_template(
        "history/players.html", players=found[:PLAYERS_PAGE], search=search, after=after, more=more
    )


@bp.get("/players/<int:player_id>")
def player_page(player_id: int):
    """A player's record, their latest plays, the wins-over-time chart, and the forms that rename,
    merge or forget them."""
    return _player_page(_player(player_id))


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int):
    """Give the player a new name, in every play at once."""
    player = _player(player_id)
    name = str(form_dict().get("name", ""))
    try:
        renamed = store.rename_player(get_db(), player_id, name)
    except RuleError as refused:
        return _player_page(player, 422, say(refused), {"name": name})
    flash(
        gettext(
            "%(old)s is now called %(new)s, in every play.",
            old=say_name(player["name"]),
            new=say_name(renamed["name"]),
        ),
        "success",
    )
    return redirect(url_for("history.player_page", player_id=player_id), code=303)


@bp.post("/players/<int:player_id>/merge")
def merge(player_id: int):
    """Make another player (a duplicate name) this one: their plays become this player's."""
    player = _player(player_id)
    chosen = str(form_dict().get("other", ""))
    other = store.player(get_db(), number) if (number := whole_number(chosen)) is not None else None
    if other is None:
        return _player_page(player, 422, gettext("Choose from the list the player to merge into this one."))
    try:
        store.merge_players(get_db(), player_id, other["id"])
    except RuleError as refused:
        return _player_page(player, 422, say(refused))
    flash(
        gettext(
            "%(other)s and %(name)s are one player now: %(name)s.",
            other=say_name(other["name"]),
            name=say_name(player["name"]),
        ),
        "success",
    )
    return redirect(url_for("history.player_page", player_id=player_id), code=303)


@bp.get("/players/<int:player_id>/forget")
def forget_page(player_id: int):
    """The confirmation step: what forgetting does, and the button that does it."""
    player = _player(player_id)
    photos = kept_photos.player_photo_count(get_db(), player_id)
    return render_template("history/forget.html", player=player, photos=photos)


@bp.post("/players/<int:player_id>/forget")
def forget(player_id: int):
    """Forget the player's name at once: it becomes "Player N" in every play."""
    player = _player(player_id)
    forgotten = store.forget_player(get_db(), player_id)
    flash(
        gettext(
            "%(name)s is forgotten: every play now says %(number)s.",
            name=say_name(player["name"]),
            number=say_name(forgotten["name"]),
        ),
        "success",
    )
    return redirect(url_for("history.player_page", player_id=player_id), code=303)


@bp.get("/history/<play_id>/delete/<token>")
def delete_page(play_id: str, token: str):
    """The confirmation step for the play's referee: what deleting does, and the button that does it."""
    play = _refereed_play(play_id, token)
    photos = len(kept_photos.play_photos_of(get_db(), play.id))
    return render_template("history/delete.html", play=play, token=token, photos=photos)


@bp.post("/history/<play_id>/delete/<token>")
def delete(play_id: str, token: str):
    """Take the play out of the history for good (its referee only), and say so in the server's log."""
    play = _refereed_play(play_id, token)
    store.delete_play(get_db(), play.id)
    logging.getLogger("castellan").warning(
        "Play %s (%s, ended %s) deleted by its table's referee.", play.id, play.game, play.finished
    )
    flash(gettext("The play is deleted from the history."), "success")
    return redirect(url_for("history.index"), code=303)


def duration(started: str, finished: str) -> str:
    """How long a play lasted, in words: "under a minute", "25 min", "1 h 05 min"."""
    seconds = max(0, int((_moment(finished) - _moment(started)).total_seconds()))
    return duration_words(seconds)


def duration_words(seconds: float) -> str:
    """A length of time in hours and minutes, as the history shows it (in the page's language)."""
    minutes = int(seconds) // 60
    if minutes < 1:
        return gettext("under a minute")
    if minutes < 60:
        return gettext("%(minutes)s min", minutes=minutes)
    return gettext("%(hours)s h %(minutes)s min", hours=minutes // 60, minutes=f"{minutes % 60:02d}")


def thinking_words(seconds: int) -> str:
    """A player's thinking time to the second, as a play's page says it: "45 s", "12 min 05 s", and
    from an hour on as a play's length is said ("1 h 05 min")."""
    if seconds < 60:
        return gettext("%(seconds)s s", seconds=seconds)
    if seconds < 3600:
        return gettext("%(minutes)s min %(seconds)s s", minutes=seconds // 60, seconds=f"{seconds % 60:02d}")
    return duration_words(seconds)


def one_decimal(value: float) -> str:
    """An average as the page's language writes it, to one decimal: 25.0, 25,0."""
    return format_decimal(value, "#,##0.0", locale=current_language())


def offered_names() -> list[str]:
    """The names a start form offers as a player's name is typed: the most played first."""
    return store.player_names(get_db(), "", OFFERED_NAMES)


bp.add_app_template_filter(duration_words, "duration_words")
bp.add_app_template_filter(one_decimal, "one_decimal")
bp.add_app_template_filter(thinking_words, "thinking_words")
bp.add_app_template_global(duration, "play_duration")
bp.add_app_template_global(offered_names, "player_names")


def _filters() -> dict:
    """The history's filters from the query: a game's slug (an unknown one is none) and a player's
    name or id as typed (an unknown player has no plays)."""
    game = request.args.get("game", "")
    player = request.args.get("player", "").strip()[: store.PLAYER_NAME_LENGTH]
    return {
        "game": game if game in registry().games else None,
        "player": player or None,
    }


def _refereed_play(play_id: str, token: str) -> store.Play:
    """The play, when ``token`` is its table's referee's link; else a 404 page (as for a mistyped link)."""
    play = store.play(get_db(), play_id)
    link = store.find_link(get_db(), token) if store.token_shaped(token) else None
    if play is None or not table_service.may_delete_play(get_db(), link, play.id):
        abort(404)
    return play


def _referee_link(play_id: str) -> str | None:
    """The token of the referee's link of the play's table, when this browser opened it (only its
    referee is offered the play's deletion)."""
    if "member" not in session:
        return None
    for link, _table in remembered.my_tables():
        if table_service.may_delete_play(get_db(), link, play_id):
            return link.token
    return None


def _player(player_id: int) -> dict:
    """The player with this id, or a 404 page (a merged player's old page is gone)."""
    player = store.player(get_db(), player_id)
    if player is None:
        abort(404)
    return player


def _player_page(player: dict, status: int = 200, error: str | None = None, kept: dict | None = None):
    """A player's page; after a refused form, with the refusal and what was typed."""
    stats = store.player_stats(get_db(), player["id"])
    typed = request.args.get("other_name", "").strip()[: store.PLAYER_NAME_LENGTH]
    others = store.players(get_db(), typed, limit=MERGE_CHOICES + 1, leave_out=player["id"])
    return render_template(
        "history/player.html",
        player=player,
        stats=stats,
        plays=store.list_plays(get_db(), player=player["id"], limit=PAGE),
        others=others[:MERGE_CHOICES],
        more_others=len(others) > MERGE_CHOICES,
        other_name=typed,
        chart=_wins_chart(player, stats),
        error=error,
        kept=kept or {},
    ), status


# What reading details of another shape raises: an imported play's details are any JSON object (a word
# where a number should be: Babel's decimal.InvalidOperation, an ArithmeticError).
UNREADABLE = (TypeError, KeyError, IndexError, AttributeError, ValueError, ArithmeticError, UndefinedError)


def _details(play: store.Play, game) -> Markup | None:
    """The game's own details of the play, as its ``<game>/_play.html`` draws them; None when the game
    has no such template or the details are not in its shape (a play imported from elsewhere)."""
    if game is None:
        return None
    try:
        return Markup(render_template(f"{game.slug}/_play.html", play=play))
    except TemplateNotFound:
        return None
    except UNREADABLE:
        return None


def _rounds_chart(play: store.Play, game) -> dict | None:
    """The play's running totals round by round (SVG, and the same numbers for the table beside
    it), where its game's rules module says what its rounds were (``round_scores``)."""
    reader = getattr(game.rules, "round_scores", None) if game else None
    try:
        unit, rounds = reader(play.details) if reader else ("round", [])
    except UNREADABLE:
        return None
    names = [say_name(seat.name) for seat in play.players]
    whole = all(
        isinstance(value, int) and not isinstance(value, bool) for points in rounds for value in points
    )
    if not rounds or not whole or any(len(points) != len(names) for points in rounds):
        return None
    if unit == "game":  # a match's games (Square Tactics)
        unit_name = pgettext("match", "Game")
        title = gettext("%(game)s: running totals after each game", game=say(game.name))
        lines = gettext("One line per player, from 0 before the first game.")
    else:
        unit_name = gettext("Round")
        title = gettext("%(game)s: running totals after each round", game=say(game.name))
        lines = gettext("One line per player, from 0 before the first round.")
    leaders = [say_name(seat.name) for seat in play.players if seat.winner]
    if leaders:
        won = say(
            Message(
                NP_("Won by: %(names)s.", "Won by: %(names)s."), count=len(leaders), names=", ".join(leaders)
            )
        )
    else:
        won = gettext("Won by: nobody.")
    description = f"{lines} {won}"  # two sentences, one after the other
    totals, running = [], [0] * len(names)
    for points in rounds:
        running = [total + value for total, value in zip(running, points, strict=True)]
        totals.append(running)
    return {
        "svg": charts.rounds_chart(
            f"play-chart-{play.id}", title, description, unit_name, names, rounds, number
        ),
        "unit": unit_name,
        "names": names,
        "totals": totals,
    }


def _wins_chart(player: dict, stats: dict) -> dict | None:
    """The player's plays and wins counted up by day, or by month for a long record (SVG, and the
    same numbers for the table beside it); none before a second play."""
    if stats["plays"] < 2:  # one play is a point, not a trend: the numbers above say it
        return None
    zone = viewer_zone()
    days = [
        (date.fromisoformat(day), plays, wins)
        for day, plays, wins in store.player_days(get_db(), player["id"], zone)
    ]
    unit, counts = charts.counted_up(days)
    title = gettext("%(name)s: plays and wins over time", name=say_name(player["name"]))
    description = say(
        Message(
            NP_(
                "%(wins)s of %(count)s play won, counted up from the first play to the last.",
                "%(wins)s of %(count)s plays won, counted up from the first play to the last.",
            ),
            count=stats["plays"],
            wins=stats["wins"],
        )
    )
    names = (gettext("Plays"), gettext("Wins"))
    return {
        "svg": charts.wins_chart(
            f"wins-chart-{player['id']}",
            title,
            description,
            gettext("Date"),
            names,
            counts,
            label=day_label,
            say_number=number,
        ),
        "unit": unit,
        "counts": [(day_label(day, unit), plays, wins) for day, plays, wins in counts],
        "zone": str(zone) if zone else "UTC",
        # What the phone's cookie said, for castellan.js to draw a page of another zone's days again
        # (a page that answered a form is not: reloading it would post the form again).
        "zone_seen": request.cookies.get(ZONE_COOKIE, "")[:64] if request.method == "GET" else None,
    }


def day_label(day: date, unit: str = "day") -> str:
    """A day (or with ``unit`` "month", its month) as the page's language writes it, short: English
    keeps ISO (2026-10-01, 2026-10), which reads the same on both sides of the Atlantic."""
    lang = current_language()
    if lang == "en":
        return day.isoformat()[:7] if unit == "month" else day.isoformat()
    return (
        format_skeleton("yMM", day, locale=lang)
        if unit == "month"
        else format_date(day, "short", locale=lang)
    )


def viewer_zone() -> ZoneInfo | None:
    """The phone's time zone, as castellan.js keeps it in the ``tz`` cookie (``Europe/Warsaw``); None
    (UTC) without script, before the phone's first page, or for a zone this server does not know."""
    name = request.cookies.get(ZONE_COOKIE, "")
    if not name or len(name) > 64:
        return None
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):
        return None


def _moment(stamp: str) -> datetime:
    """An API time (``2026-11-23T20:14:05Z``) as a datetime."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
