"""Ratings and rivals on the history's pages: what ``templates/history/_ratings.html`` (a player's
ratings, trend, streaks and rivals) and ``_ranking.html`` (a game's players by rating) draw.

The figures are ``service.ratings``'; this module only names the players and writes the numbers
and the trend charts (``companion.web.charts``) in the reader's language. Its functions are the
templates' globals, so that the history's views need no change to show them.
"""

from __future__ import annotations

from flask import Blueprint
from flask_babel import gettext

from companion.http.context import get_db, registry
from companion.i18n import number, say
from companion.service import ratings
from companion.store import results
from companion.web import charts
from companion.web.views.history import one_decimal

bp = Blueprint("ratings", __name__)
TREND_POINTS = 60  # a trend's points at most: a long record is sampled evenly, its last play always in


def player_ratings(player_id: int) -> dict:
    """A player's ratings (``games``: slug, rating and trend chart, by rating), their winning streaks
    (``longest``, ``current``) and rivals (``rivals``, ``nemesis``, ``victim``, each named)."""
    ledger = ratings.ledger(get_db())
    rivals = ledger.rivals_of(player_id)
    names = results.names_of(get_db(), [rival.player_id for rival in rivals])
    rivals = [rival for rival in rivals if rival.player_id in names]
    longest, current = ledger.streaks(player_id)
    mine = ledger.player_ratings(player_id)
    return {
        "games": [
            {"game": game, "rating": rating, "chart": _trend(player_id, game, ledger)}
            for game, rating in sorted(mine.items(), key=lambda entry: -entry[1].shown)
        ],
        "longest": longest,
        "current": current,
        "rivals": rivals,
        "names": names,
        "nemesis": ledger.nemesis(player_id),
        "victim": ledger.favourite_victim(player_id),
        "least": ratings.RANKED_PLAYS,
    }


def game_ranking(slug: str) -> dict:
    """A game's ranking: its players with at least ``least`` rated plays, best first, each named."""
    ranked = ratings.ledger(get_db()).ranking(slug)
    names = results.names_of(get_db(), [player_id for player_id, _rating in ranked])
    return {
        "players": [
            {"id": player_id, "name": names[player_id], "rating": rating}
            for player_id, rating in ranked
            if player_id in names
        ],
        "least": ratings.RANKED_PLAYS,
    }


def rating_words(rating: ratings.Rating) -> str:
    """A rating and its uncertainty as the page's language writes them: "27.3 ± 4.1"."""
    return gettext(
        "%(rating)s ± %(uncertainty)s",
        rating=one_decimal(rating.mu),
        uncertainty=one_decimal(rating.sigma),
    )


bp.add_app_template_global(player_ratings, "player_ratings")
bp.add_app_template_global(game_ranking, "game_ranking")
bp.add_app_template_filter(rating_words, "rating_words")


def _trend(player_id: int, game: str, ledger: ratings.Ledger) -> dict | None:
    """The player's rating at a game after each of its plays (the estimate, and the cautious figure
    the rankings go by), as an SVG chart and the same numbers for the table beside it; none before
    a second play."""
    trend = ledger.trends.get((game, player_id), [])
    if len(trend) < 2:
        return None
    step = max(1, -(-len(trend) // TREND_POINTS))
    picked = list(range(0, len(trend), step))
    if picked[-1] != len(trend) - 1:
        picked.append(len(trend) - 1)
    xs = [index + 1 for index in picked]
    rows = [(x, round(trend[x - 1][1], 1), round(trend[x - 1][1] - 3 * trend[x - 1][2], 1)) for x in xs]
    known = registry().games.get(game)
    svg = charts.line_chart(
        f"rating-chart-{game}",
        gettext("%(game)s: rating after each play", game=say(known.name) if known else game),
        gettext(
            "The solid line is the rating after each play, the dashed one the cautious rating (the rating less three times its uncertainty), which the ranking goes by."
        ),
        gettext("Plays"),
        xs,
        [(xs[0], number(xs[0])), (xs[-1], number(xs[-1]))],
        [
            charts.Series(gettext("Rating"), tuple(mu for _x, mu, _low in rows)),
            charts.Series(gettext("Cautious rating"), tuple(low for _x, _mu, low in rows)),
        ],
        number,
    )
    return {"svg": svg, "rows": rows}
