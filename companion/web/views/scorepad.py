"""Score pad: a running score for any paper game, kept at a shared table."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from jinja2.filters import do_int
from markupsafe import Markup

from companion.rules import scorepad
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.service import schemas
from companion.service.games import Game
from companion.web.templating import keyed_as_they_are

bp = Blueprint("scorepad", __name__, url_prefix="/scorepad")


@keyed_as_they_are
class Points(tuple):
    """One round's points, whole numbers in the players' order: their own key for ``once``."""

    __slots__ = ()


@keyed_as_they_are
class Rows(tuple):
    """Ten rounds' points, each a ``Points``: their own key for ``once``."""

    __slots__ = ()


@keyed_as_they_are
class Rounds(tuple):
    """Round numbers (1 first): their own key for ``once``."""

    __slots__ = ()


@bp.app_template_global("scorepad_table")
def table_drawing(view: dict, refill: dict, refused: bool, recording: bool) -> dict:
    """What ``_table.html`` draws a pad with, worked out here rather than in Jinja, as plain values
    that are keys ``once`` reads at once (``recording``: the referee's, on a table not finished):

    - ``correcting``: the round being corrected (chosen by tapping its number, ``?correct=N``, or
      refilled from a refused correction), else 0;
    - ``fields``: the referee's points fields as (position, player, value, negative): the refused round's
      input again, else the round being corrected, else empty.
    """
    rounds = view["rounds"]
    correcting = do_int(refill.get("round") or request.args.get("correct") or 0, 0) if recording else 0
    correcting = correcting if 1 <= correcting <= len(rounds) else 0
    return {
        "correcting": correcting,
        "fields": _fields(view["players"], refill, refused, rounds[correcting - 1] if correcting else [])
        if recording
        else [],
    }


@bp.app_template_global("scorepad_rows")
def rows(ten_rounds, round_row, view: dict, show_url: str, correcting: int, recording: bool) -> Markup:
    """The rows of the rounds: each full ten drawn by ``ten_rounds`` from (its first round, its points,
    its rounds corrected), for good; the rounds after them row by row by ``round_row`` (both macros
    kept by ``once``), a row for good, so that a move draws only its own new row. Called from here
    rather than from Jinja loops: a long evening has a dozen tens and rows on every move. A round's
    number links to its correction while ``recording`` (the referee's, the table not finished)."""
    rounds, corrected = view["rounds"], view["corrected"]
    full = len(rounds) - len(rounds) % 10
    drawn = [
        ten_rounds(
            first,
            Rows(map(Points, rounds[first - 1 : first + 9])),
            show_url,
            recording,
            Rounds([number for number in corrected if first <= number < first + 10]),
            correcting if first <= correcting < first + 10 else 0,
        )
        for first in range(1, full + 1, 10)
    ]
    drawn += [
        round_row(
            number, Points(rounds[number - 1]), show_url, recording, number in corrected, number == correcting
        )
        for number in range(full + 1, len(rounds) + 1)
    ]
    return Markup("").join(drawn)


def _fields(players: list[str], refill: dict, refused: bool, correcting: list[int]) -> list[tuple]:
    """Each player's points field as (position, player, value, negative): a refused round's input as
    typed (its ± toggles as they were), else the points of the round being corrected (a negative one
    shown as its size, its toggle on), else empty."""
    shown = refill.get("points", []) if refused else correcting
    shown = [shown] if isinstance(shown, str) else shown
    negative = refill.get("minus", []) if refused else []
    negative = [negative] if isinstance(negative, str) else negative
    fields = []
    for index, name in enumerate(players):
        value = shown[index] if len(shown) > index else ""
        number = isinstance(value, int | float) and not refused
        fields.append(
            (index, name, abs(value) if number else value, str(index) in negative or (number and value < 0))
        )
    return fields


def _options(options: dict) -> dict:
    """The creation options (typed): one player's name per line (or, from the API, a list of names),
    the players ticked among those of earlier tables (``known``, the page's only), and whether the
    lowest total wins (true: a ticked box), and who begins (``first``: a player's name; none if empty)."""
    names = options.get("players", "")
    typed = names if isinstance(names, list) else str(names).splitlines()
    ticked = [name for name in options.get("known", []) if name not in typed]
    return {
        "players": typed + ticked,
        "lowest_wins": options.get("lowest_wins") is True,
        "first": options.get("first") or None,
    }


def _action(form: dict, viewer: str) -> dict:
    """A round, or (``type`` correct) the correction of round ``round``: ``points`` in the players' order.

    An empty field is 0. ``minus`` holds the positions (0 first) whose ± toggle is on: their
    points count negative, for phone keypads that have no minus sign.
    """
    minus = set(form.get("minus", []))
    points = []
    for position, text in enumerate(form.get("points", [])):
        text = text.strip() or "0"
        try:
            value = int(text)
        except ValueError:
            raise RuleError(
                "bad_points", N_("“%(text)s” is not a whole number of points."), "points", text=text[:12]
            ) from None
        points.append(-abs(value) if str(position) in minus else value)
    if form.get("type") != "correct":
        return {"type": "round", "points": points}
    try:
        number = int(str(form.get("round")))
    except ValueError:
        raise RuleError("bad_round", N_("Choose the round to correct from the table."), "round") from None
    return {"type": "correct", "round": number, "points": points}


GAME = Game(
    slug="scorepad",
    name=N_("Score pad"),
    tagline=N_("A running score for any game on paper, shared between phones."),
    players=N_("1 to 8 players"),
    order=100,
    summary=(
        N_(
            "Name the players, then write each round's points. Everyone at the table follows the "
            "totals on their own phone; the referee's phone writes, the others watch."
        ),
        N_(
            "Up to four players fit a phone's width; with more, slide the scores sideways: the round "
            "numbers and the word Total stay at the left."
        ),
    ),
    rules=scorepad,
    table_options=_options,
    table_title=lambda options: ", ".join(name.strip() for name in options["players"] if name.strip()),
    table_action=_action,
    list_fields=("points", "minus", "known"),
    options_schema=schemas.options(
        "The players' names, in the order their points are given.",
        {
            "players": {
                "oneOf": [
                    {"type": "array", "items": schemas.NAME, "minItems": 1, "maxItems": scorepad.MAX_PLAYERS},
                    {
                        "type": "string",
                        "maxLength": 2000,
                        "description": "One name per line, as the form takes them.",
                    },
                ]
            },
            "lowest_wins": {"type": "boolean", "description": "The lowest total wins (false: the highest)."},
            "first": {
                "type": "string",
                "maxLength": 100,
                "description": "Who begins: one of the players' names (any capitals); empty or left out: not said.",
            },
        },
        required=("players",),
    ),
    action_schema=schemas.actions(
        schemas.action(
            "round",
            "One round: each player's points, in the players' order.",
            {
                "points": {"type": "array", "items": {"type": "integer"}},
            },
        ),
        schemas.action(
            "correct",
            "A past round corrected: its number (1 first) and each player's points.",
            {
                "round": {"type": "integer", "minimum": 1},
                "points": {"type": "array", "items": {"type": "integer"}, "maxItems": scorepad.MAX_PLAYERS},
            },
        ),
    ),
    tool=True,
)


@bp.get("/")
def index():
    """What the score pad is, and the form that starts one."""
    return render_template("scorepad/page.html", game=GAME)
