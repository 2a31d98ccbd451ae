"""Fort: its pages. (Its own issue fills this column: tools, table, help, API.)"""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.games import Game

bp = Blueprint("fort", __name__, url_prefix="/fort")

GAME = Game(
    slug="fort",
    name="Fort",
    tagline="Forts, armies and watchtowers: challenge a rival's fort and let Castellan settle the battle.",
    players="2 to 4 players",
    order=3,
    summary=(
        "Each player keeps a fort of face-up cards and a hidden army. Matching ranks stack into watchtowers, which are harder to attack.",
        "A challenge pits one or two blind soldiers from each army against each other; a 7 always fights for the attacker. The winner takes the soldiers, and the attacker who wins takes the card they aimed at.",
        "Complete a watchtower of four and you go on a campaign. When everyone is on a campaign, a final showdown decides the game.",
    ),
)


@bp.get("/")
def index():
    """A short summary of the game in Castellan's own words."""
    return render_template("game/summary.html", game=GAME)
