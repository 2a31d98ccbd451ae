"""Square Tactics: its pages. (Its own issue fills this column: tools, table, help, API.)"""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.games import Game

bp = Blueprint("tactics", __name__, url_prefix="/tactics")

GAME = Game(
    slug="tactics",
    name="Square Tactics",
    tagline="Lay cards on a small grid; each edge's number fights the card next to it.",
    players="2 players (3x3) or 4 (4x4)",
    order=5,
    summary=(
        "Each player has a deck of a faction: every card carries four numbers, one per edge.",
        "Place a card on an empty cell, then compare its edges with neighbouring opponents' cards in turn: top, right, bottom, left. Higher captures, equal goes on, lower stops.",
        "At the end, captures and the cells you hold score points: centres most, corners least. A match is three games.",
    ),
)


@bp.get("/")
def index():
    """A short summary of the game in Castellan's own words."""
    return render_template("game/summary.html", game=GAME)
