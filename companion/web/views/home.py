"""The home page: the games, and the tables this browser created or joined."""

from __future__ import annotations

from flask import Blueprint, render_template, session

from companion import store
from companion.http.context import get_db

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """List the games, then this browser's tables."""
    mine = store.remembered_tables(get_db(), session["member"]) if "member" in session else []
    return render_template("home/page.html", my_tables=mine)
