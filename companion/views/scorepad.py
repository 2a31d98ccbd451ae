"""Score pad: a running score for any paper game, kept at a shared table."""

from __future__ import annotations

from flask import Blueprint, render_template

from companion import schemas
from companion.games import Game
from companion.rules import scorepad
from companion.rules.errors import N_, RuleError
from companion.templating import keyed_as_they_are

bp = Blueprint("scorepad", __name__, url_prefix="/scorepad")


@keyed_as_they_are
class Rows(tuple):
    """Ten rounds' points, each a tuple of whole numbers: their own key for ``once``."""

    __slots__ = ()


@bp.app_template_global("scorepad_tens")
def tens(rounds: list[list[int]], corrected: list[int]) -> list[tuple[int, Rows, tuple[int, ...]]]:
    """The rounds ten at a time, each as plain values (its first round, its points, its rounds that
    were corrected): what ``_table.html`` draws a ten with, as a key ``once`` reads at once instead
    of taking ten lists apart on every move; a long evening redraws only its newest ten."""
    return [(first + 1, Rows([tuple(points) for points in rounds[first:first + 10]]),
             tuple([number for number in corrected if first < number <= first + 10]))
            for first in range(0, len(rounds), 10)]


def _options(form: dict) -> dict:
    """The creation form: one player's name per line (or, from the API, a list of names), the
    players ticked among those of earlier tables (``known``, the page's only), and whether the
    lowest total wins (a ticked box: "yes", as the API gives true)."""
    names = form.get("players", "")
    typed = names if isinstance(names, list) else str(names).splitlines()
    ticked = [name for name in form.get("known", []) if name not in typed]
    return {
        "players": typed + ticked,
        "lowest_wins": form.get("lowest_wins") == "yes",
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
        N_("Name the players, then write each round's points. Everyone at the table follows the "
           "totals on their own phone; the referee's phone writes, the others watch."),
    ),
    rules=scorepad,
    table_options=_options,
    table_title=lambda options: ", ".join(name.strip() for name in options["players"] if name.strip()),
    table_action=_action,
    list_fields=("points", "minus", "known"),
    options_schema=schemas.options(
        "The players' names, in the order their points are given.",
        {"players": {"oneOf": [
            {"type": "array", "items": schemas.NAME, "minItems": 1, "maxItems": scorepad.MAX_PLAYERS},
            {"type": "string", "maxLength": 2000, "description": "One name per line, as the form takes them."},
        ]}, "lowest_wins": {"type": "boolean", "description": "The lowest total wins (false: the highest)."}},
        required=("players",),
    ),
    action_schema=schemas.actions(
        schemas.action("round", "One round: each player's points, in the players' order.", {
            "points": {"type": "array", "items": {"type": "integer"}},
        }),
        schemas.action("correct", "A past round corrected: its number (1 first) and each player's points.", {
            "round": {"type": "integer", "minimum": 1},
            "points": {"type": "array", "items": {"type": "integer"}, "maxItems": scorepad.MAX_PLAYERS},
        }),
    ),
    tool=True,
)


@bp.get("/")
def index():
    """What the score pad is, and the form that starts one."""
    return render_template("scorepad/page.html", game=GAME)
