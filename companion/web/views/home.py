"""The home page: the games, and the tables this browser created or joined."""

from __future__ import annotations

from flask import Blueprint, render_template, session

from companion.http.context import registry
from companion.service import tables as service
from companion.web import remembered

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """List the games, then this browser's tables."""
    return render_template("home/page.html", my_tables=remembered.my_tables())


def tables_in_progress(slug: str) -> list:
    """This browser's tables of the game ``slug`` not over yet, the last changed first: a game's start
    page lists them above its form, so that Back from a table started a moment ago finds it there."""
    game = registry().games.get(slug)
    if "member" not in session or game is None or game.rules is None:
        return []
    mine = remembered.my_tables()
    return [(link, table) for link, table in mine if table.game == slug and not service.over(table, game)]


bp.add_app_template_global(tables_in_progress, "tables_in_progress")
