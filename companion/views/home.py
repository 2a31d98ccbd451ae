"""The home page: the games, and the tables this browser created or joined."""

from __future__ import annotations

from flask import Blueprint, render_template, session

from companion import get_db, store

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """List the games, then this browser's tables."""
    tokens = session.get("tables", [])
    mine = store.tables_for_tokens(get_db(), tokens)
    return render_template("home/page.html", my_tables=mine)
