"""Castle: its pages. (Its own issue fills this column: tools, table, help, API.)"""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.games import Game

bp = Blueprint("castle", __name__, url_prefix="/castle")

GAME = Game(
    slug="castle",
    name="Castle",
    tagline="Twelve piles in a 4x3 castle; every pile's worth depends on its neighbours.",
    players="4 players in two teams, or 2",
    order=2,
    summary=(
        "Twelve cards lie face up in four columns and three rows. A card's value is its own rank, plus one for each neighbouring pile of its colour, minus one for each of the other colour.",
        "On your turn you put a card on a pile of the same colour, or on a pile of the other colour if your card's rank beats that pile's value, or you pass and lose a card to an opponent.",
        "At the end each team collects the piles of its colour and scores the captured cards of the other colour: aces, kings, queens and jacks above all.",
    ),
)


@bp.get("/")
def index():
    """A short summary of the game in Castellan's own words."""
    return render_template("game/summary.html", game=GAME)
