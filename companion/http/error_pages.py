"""Friendly error pages in the site's layout, and JSON errors under /api/."""

from __future__ import annotations

import html
import logging

import sqlalchemy as sa
from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable, TooManyRequests

from companion.i18n import say
from companion.rules.sentences import N_

_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
    500: "server_error",
    503: "busy",
}
EXPIRED_FORM = N_("This form has expired. Reload the page and try again.")
_MESSAGES = {
    404: N_("There is nothing here. The link may be mistyped, or the table was never created."),
    405: N_("That address does not take this kind of request."),
    413: N_("That is far more than any game needs."),
    500: N_("Something went wrong on Castellan's side. Nothing you recorded was lost."),
    503: N_("Castellan is making other sheets just now. Try again in a few seconds."),
}
# A 503 is a sheet queue that was full for a few seconds: a program may ask again after this long.
BUSY_RETRY_SECONDS = 5
BUSY_DATABASE = N_(
    "Castellan is busy writing just now, and nothing was recorded. Try again in a few seconds."
)


class DatabaseBusy(ServiceUnavailable):
    """The database's write lock was held past its busy timeout (SQLite's "database is locked"):
    a 503 to ask again, never a 500. Imports write a chunk at a time, so this is rare."""


def init_app(app: Flask) -> None:
    """Answer every HTTP error with a page in the layout, or the API's error shape."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return _answer(error.code or 500, error)

    @app.errorhandler(sa.exc.OperationalError)
    def database_error(error: sa.exc.OperationalError):
        if "database is locked" not in str(error.orig):
            return unexpected(error)
        logging.getLogger("castellan").warning(
            "The database stayed locked past its busy timeout: answered 503"
        )
        return _answer(503, DatabaseBusy())

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        logging.getLogger("castellan").exception("Unexpected error")
        return _answer(500, InternalServerError())


def _answer(status: int, error: HTTPException):
    # A 400, 403 and 429 carry their own reason (a seat taken, a rate limit), said by whoever aborted;
    # the others have a fixed sentence.
    if isinstance(error, CSRFError):
        message = say(EXPIRED_FORM)
    elif isinstance(error, DatabaseBusy):
        message = say(BUSY_DATABASE)
    elif status in (400, 403, 429) and error.description:
        message = error.description
    else:
        message = say(_MESSAGES.get(status, N_("That did not work.")))
    if request.path.startswith("/api/"):
        answer = jsonify({"error": {"code": _CODES.get(status, "http_error"), "message": message}})
    elif not _routable():
        # Routing never happened, so no url_for works: the page without the layout's links.
        answer = _STATIC_PAGE.format(status=status, message=html.escape(message))
    else:
        answer = render_template("errors/page.html", status=status, message=message)
    retry = _retry_after(status, error)
    return (answer, status) if retry is None else (answer, status, {"Retry-After": str(retry)})


def _routable() -> bool:
    """Whether this request's URLs can be matched and built: not when Flask could not bind its URL map
    to the request (an untrusted host, say), which it does with this same public call."""
    try:
        return current_app.create_url_adapter(request) is not None
    except HTTPException:
        return False


def _retry_after(status: int, error: HTTPException) -> int | None:
    """Seconds after which the same request can succeed (RFC 9110 Retry-After), when that is known."""
    if status == 503:
        return BUSY_RETRY_SECONDS
    if isinstance(error, TooManyRequests) and isinstance(error.retry_after, int):
        return error.retry_after  # a limit's window ends then (http.security)
    return None


_STATIC_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{status} · Castellan</title></head>
<body><h1>Castellan</h1><p role="alert">{message}</p><p><a href="/">Back to the games</a></p></body></html>
"""
