"""The home page: the games, and the tables this browser created or joined."""

from __future__ import annotations

from flask import Blueprint, render_template, session

from companion import store
from companion.http.context import get_db, registry
from companion.service import tables as service

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """List the games, then this browser's tables."""
    mine = store.remembered_tables(get_db(), session["member"]) if "member" in session else []
    return render_template("home/page.html", my_tables=mine)


def tables_in_progress(slug: str) -> list:
    """This browser's tables of the game ``slug`` not over yet, the last changed first: a game's start
    page lists them above its form, so that Back from a table started a moment ago finds it there."""
    game = registry().games.get(slug)
    if "member" not in session or game is None or game.rules is None:
        return []
    mine = store.remembered_tables(get_db(), session["member"])
    return [(link, table) for link, table in mine if table.game == slug and not service.over(table, game)]


bp.add_app_template_global(tables_in_progress, "tables_in_progress")
