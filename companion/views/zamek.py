"""Zamek: its pages. (Its own issue fills this column: tools, table, help, API.)"""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.games import Game

bp = Blueprint("zamek", __name__, url_prefix="/zamek")

GAME = Game(
    slug="zamek",
    name="Zamek",
    tagline="A castle-building memory game: turn cards, remember where they lie, build upwards.",
    players="2 to 4 players or teams",
    order=4,
    summary=(
        "Forty-five numbered cards lie face down. On your turn you turn one over and either add it to your castle, if it is higher than your castle's last card, or put it back where it was.",
        "A card lower than every castle's end is useless to everyone and leaves the game.",
        "In the basic game the first castle of ten elements wins; in the extended game knights, princesses, a king, a queen and a wizard add points and settle ties.",
    ),
)


@bp.get("/")
def index():
    """A short summary of the game in Castellan's own words."""
    return render_template("game/summary.html", game=GAME)
