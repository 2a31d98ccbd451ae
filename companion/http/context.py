"""What a request works with: its database connection and the app's games."""

from __future__ import annotations

from flask import current_app
from flask.globals import _cv_app

from companion.service import games
from companion.store import db


def get_db():
    """This request's database connection: the serving thread's own (``db.thread_connection``),
    left at teardown without a transaction."""
    app_ctx = _cv_app.get(None)  # the context ``g`` and ``current_app`` stand for, looked up once
    if app_ctx is None:
        raise RuntimeError("Working outside of application context.")
    conn = app_ctx.g.__dict__.get("db")
    if conn is None:
        conn = app_ctx.g.db = db.thread_connection(app_ctx.app.config["DATABASE"])
    return conn


def registry() -> games.Registry:
    """The games of the running app."""
    return current_app.extensions["castellan.games"]
