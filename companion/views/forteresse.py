"""Forteresse: its pages. (Its own issue fills this column: tools, table, help, API.)"""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.games import Game

bp = Blueprint("forteresse", __name__, url_prefix="/forteresse")

GAME = Game(
    slug="forteresse",
    name="Forteresse",
    tagline="A pencil-and-paper siege: find and fell the five defenders hidden in your opponent's fortress.",
    players="2 players",
    order=1,
    summary=(
        "Each player hides a fortress on a 7x7 grid: ten walls and five besieged inside the central 5x5 square.",
        "Players take turns firing from the cells around the fortress, with a cannon that breaks walls or a rifle that only harms the besieged. Only the first thing in the line of fire is hit.",
        "Killing a besieged is worth a lot; every shot you fire gives points to your opponent, so cheap rifle shots and careful aim pay. Two rounds make a game.",
    ),
)


@bp.get("/")
def index():
    """A short summary of the game in Castellan's own words."""
    return render_template("game/summary.html", game=GAME)
