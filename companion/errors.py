"""Friendly error pages in the site's layout, and JSON errors under /api/."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    500: "server_error",
}
_MESSAGES = {
    404: "There is nothing here. The link may be mistyped, or the table was never created.",
    405: "That address does not take this kind of request.",
    413: "That is far more than any game needs.",
    500: "Something went wrong on Castellan's side. Nothing you recorded was lost.",
}


def init_app(app: Flask) -> None:
    """Answer every HTTP error with a page in the layout, or the API's error shape."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return _answer(error.code or 500, error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        logging.getLogger("castellan").exception("Unexpected error")
        return _answer(500, InternalServerError())


def _answer(status: int, error: HTTPException):
    # A 400 carries its own reason (an expired form); the others have a fixed sentence.
    message = (error.description if status == 400 else _MESSAGES.get(status)) or "That did not work."
    if request.path.startswith("/api/"):
        return jsonify({"error": {"code": _CODES.get(status, "http_error"), "message": message}}), status
    return render_template("errors/page.html", status=status, message=message), status
