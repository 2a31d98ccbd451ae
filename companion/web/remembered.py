"""The tables a browser created or joined, as its pages list them (the home page, a game's start
page, a play's page): kept in the database under the browser's identity (``store.remember``).

A browser's first page comes without a cookie, and so does every page a client that keeps none
asks for (a chat's link preview, a script): written at once, each such page left a row that no
browser would ever read. What finds that page's link again waits in the session instead
(``hold``: its table and the digest of its token, never the token: the cookie holds no table's
link), and the row is written when the browser asks for its list with the session it was given
(``my_tables``), which a client that keeps no cookie never does.
"""

from __future__ import annotations

from flask import current_app, request, session

from companion import store
from companion.http.context import get_db

REMEMBERED_TABLES = 30  # a browser's newest; older ones drop off its list
_UNSAVED = "unsaved_table"


def first_visit() -> bool:
    """Whether this request came without a session cookie: the browser's first page, or a client that keeps none."""
    return current_app.config["SESSION_COOKIE_NAME"] not in request.cookies


def hold(table_id: str, digest: str) -> None:
    """Keep in the session made for a page asked for without a cookie what finds its link again: its
    ``table_id`` and ``digest`` (the start of its token's ``store.phone_digest``), unwritten."""
    session[_UNSAVED] = [table_id, digest]


def my_tables() -> list[tuple[store.Link, store.Table]]:
    """This browser's tables, the last changed first; the link its first page held written first."""
    if "member" not in session:
        return []
    unsaved = session.pop(_UNSAVED, None)
    if unsaved is not None:
        table_id, digest = unsaved
        for link in store.table_links(get_db(), table_id):  # none when the table was swept meanwhile
            if store.phone_digest(link.token).startswith(digest):
                store.remember(get_db(), session["member"], link.token, REMEMBERED_TABLES)
    return store.remembered_tables(get_db(), session["member"])
