"""What a request works with: its database connection and the app's games."""

from __future__ import annotations

from flask import current_app, g

from companion.service import games
from companion.store import db


def get_db():
    """This request's database connection: the serving thread's own (``db.thread_connection``),
    left at teardown without a transaction."""
    conn = g.get("db")
    if conn is None:
        conn = g.db = db.thread_connection(current_app.config["DATABASE"])
    return conn


def registry() -> games.Registry:
    """The games of the running app."""
    return current_app.extensions["castellan.games"]
